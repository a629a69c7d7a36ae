import type { MessageEventStatus } from '@mp/queue-contracts';
import type { EntityManager } from 'typeorm';
import type { MessageTransition } from './message-events';
import { receiptErrorReason } from './receipt-errors';

/** Message states that never change again. */
export const MESSAGE_FINAL = ['delivered', 'undelivered', 'expired', 'rejected', 'failed', 'cancelled'];

/** One state for a message from its parts' final states. */
export function finalMessageState(partStates: readonly string[]): string {
  if (partStates.every((s) => s === 'delivered')) return 'delivered';
  if (partStates.every((s) => s === 'failed')) return 'failed';
  for (const state of ['rejected', 'expired', 'undelivered']) if (partStates.includes(state)) return state;
  return 'undelivered';
}

/** A part as settling its message reads it. */
export interface SettlingPart {
  status: string;
  errorCode: string | null;
  /** The `stat` of the receipt that ended it; null for a part that never reached a carrier. */
  receiptStat: string | null;
}

/**
 * What a message that did not end delivered says went wrong: of its first part (by index) that
 * was not delivered and says why, the error code, and the receipt's reason when a receipt ended
 * it. (A part refused at submit already gave the message its code and reason.)
 */
export function messageFailure(parts: readonly SettlingPart[]): { errorCode: string | null; errorReason: string | null } {
  const failed = parts.find((part) => part.status !== 'delivered' && (part.errorCode !== null || part.receiptStat !== null));
  if (!failed) return { errorCode: null, errorReason: null };
  return { errorCode: failed.errorCode, errorReason: failed.receiptStat === null ? null : receiptErrorReason(failed.receiptStat, failed.errorCode ?? '') };
}

/**
 * Once every part of a message is final, the message takes one final state, once, and, unless it
 * was delivered, its parts' error code (messageFailure) where it has none yet. The caller holds
 * the row locks of the messages with several parts, so two of their parts settling at once see
 * each other's update (dispatch-locks.ts).
 */
export async function settleMessages(manager: EntityManager, lockedMessageIds: readonly string[]): Promise<MessageTransition[]> {
  if (lockedMessageIds.length === 0) return [];
  const rows: { message_id: string; states: string[]; error_codes: (string | null)[]; stats: (string | null)[] }[] = await manager.query(
    `SELECT message_id, array_agg(status::text ORDER BY part_index) AS states, array_agg(error_code ORDER BY part_index) AS error_codes,
       array_agg(receipt_stat ORDER BY part_index) AS stats
     FROM message_parts WHERE message_id = ANY($1::uuid[]) GROUP BY message_id`,
    [[...new Set(lockedMessageIds)]],
  );
  const done = rows.filter((p) => !p.states.some((s) => s === 'pending' || s === 'submitted'));
  if (done.length === 0) return [];
  const failures = done.map((p) => messageFailure(p.states.map((status, i) => ({ status, errorCode: p.error_codes[i], receiptStat: p.stats[i] }))));
  const settled: { id: string; status: MessageEventStatus; webhook_url: string | null; otp_id: string | null }[] = await manager.query(
    `WITH settled AS (
       UPDATE messages m SET status = s.status, completed_at = now(), updated_at = now(),
         error_code = coalesce(m.error_code, s.error_code), error_reason = coalesce(m.error_reason, s.error_reason)
       FROM unnest($1::uuid[], $2::text[], $4::text[], $5::text[]) AS s(id, status, error_code, error_reason)
       WHERE m.id = s.id AND NOT (m.status = ANY($3::text[])) RETURNING m.id, m.status, m.webhook_url, m.otp_id)
     SELECT id, status, webhook_url, otp_id FROM settled ORDER BY id`,
    [
      done.map((p) => p.message_id),
      done.map((p) => finalMessageState(p.states)),
      MESSAGE_FINAL,
      failures.map((f) => f.errorCode),
      failures.map((f) => f.errorReason),
    ],
  );
  return settled.map((row) => ({ messageId: row.id, status: row.status, webhookUrl: row.webhook_url, ...(row.otp_id ? { otpId: row.otp_id } : {}) }));
}
