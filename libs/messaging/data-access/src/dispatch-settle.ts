import type { MessageEventStatus } from '@mp/queue-contracts';
import type { EntityManager } from 'typeorm';
import type { MessageTransition } from './message-events';

/** Message states that never change again. */
export const MESSAGE_FINAL = ['delivered', 'undelivered', 'expired', 'rejected', 'failed', 'cancelled'];

/** One state for a message from its parts' final states. */
export function finalMessageState(partStates: readonly string[]): string {
  if (partStates.every((s) => s === 'delivered')) return 'delivered';
  if (partStates.every((s) => s === 'failed')) return 'failed';
  for (const state of ['rejected', 'expired', 'undelivered']) if (partStates.includes(state)) return state;
  return 'undelivered';
}

/**
 * Once every part of a message is final, the message takes one final state, once. The caller
 * holds the row locks of the messages with several parts, so two of their parts settling at once
 * see each other's update (dispatch-locks.ts).
 */
export async function settleMessages(manager: EntityManager, lockedMessageIds: readonly string[]): Promise<MessageTransition[]> {
  if (lockedMessageIds.length === 0) return [];
  const parts: { message_id: string; states: string[] }[] = await manager.query(
    `SELECT message_id, array_agg(status::text) AS states FROM message_parts WHERE message_id = ANY($1::uuid[]) GROUP BY message_id`,
    [[...new Set(lockedMessageIds)]],
  );
  const done = parts.filter((p) => !p.states.some((s) => s === 'pending' || s === 'submitted'));
  if (done.length === 0) return [];
  const settled: { id: string; status: MessageEventStatus; webhook_url: string | null; otp_id: string | null }[] = await manager.query(
    `WITH settled AS (
       UPDATE messages m SET status = s.status, completed_at = now(), updated_at = now()
       FROM unnest($1::uuid[], $2::text[]) AS s(id, status)
       WHERE m.id = s.id AND NOT (m.status = ANY($3::text[])) RETURNING m.id, m.status, m.webhook_url, m.otp_id)
     SELECT id, status, webhook_url, otp_id FROM settled ORDER BY id`,
    [done.map((p) => p.message_id), done.map((p) => finalMessageState(p.states)), MESSAGE_FINAL],
  );
  return settled.map((row) => ({ messageId: row.id, status: row.status, webhookUrl: row.webhook_url, ...(row.otp_id ? { otpId: row.otp_id } : {}) }));
}
