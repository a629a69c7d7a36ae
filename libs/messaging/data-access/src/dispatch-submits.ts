import { queryPrepared } from '@mp/persistence';
import type { EntityManager } from 'typeorm';
import type { MessageTransition } from './message-events';

/** A part the carrier accepted, with the id it gave it. */
export interface SubmittedPart {
  messageId: string;
  partIndex: number;
  carrierMessageId: string;
  /**
   * Whether its message has several parts, when the caller knows. Only such messages' rows are
   * locked before recording (see dispatch-locks.ts); when every record of a flush says false, that
   * statement is not sent at all. Unknown counts as several.
   */
  multipart?: boolean;
}

/** What recording submit responses did: the messages that became sent, and the carrier ids with a receipt waiting. */
export interface RecordedSubmits {
  sent: MessageTransition[];
  /** Carrier ids of these parts whose receipt overtook this record and waits, stored, to be applied. */
  earlyReceipts: string[];
}

/**
 * In ONE statement: the parts still pending become submitted with their carrier ids, the queued
 * messages among theirs become sent (the first accepted part is enough), and the receipts stored
 * for these carrier ids before the parts were known are found (usually none). The caller holds
 * the carrier ids' advisory locks and the rows of the messages with several parts, so what is
 * read here stays as read.
 */
export async function recordSubmits(manager: EntityManager, records: readonly SubmittedPart[]): Promise<RecordedSubmits> {
  if (records.length === 0) return { sent: [], earlyReceipts: [] };
  const carrierIds = records.map((r) => r.carrierMessageId);
  const [row] = await queryPrepared<{ sent: [string, string | null][] | null; early: string[] | null }>(
    manager,
    `WITH parts AS (
       UPDATE message_parts p SET status = 'submitted', carrier_message_id = r.carrier_message_id, submitted_at = now()
       FROM unnest($1::uuid[], $2::int[], $3::text[]) AS r(message_id, part_index, carrier_message_id)
       WHERE p.message_id = r.message_id AND p.part_index = r.part_index AND p.status = 'pending'),
     sent AS (
       UPDATE messages SET status = 'sent', sent_at = coalesce(sent_at, now()), updated_at = now()
       WHERE id = ANY($1::uuid[]) AND status = 'queued' RETURNING id, webhook_url)
     SELECT (SELECT json_agg(json_build_array(id, webhook_url) ORDER BY id) FROM sent) AS sent,
            ARRAY(SELECT r.carrier_message_id FROM unnest($3::text[]) AS k(id)
                  JOIN carrier_receipts r ON r.carrier_message_id = k.id WHERE r.applied_at IS NULL) AS early`,
    [records.map((r) => r.messageId), records.map((r) => r.partIndex), carrierIds],
  );
  return {
    sent: (row?.sent ?? []).map(([messageId, webhookUrl]) => ({ messageId, status: 'sent', webhookUrl })),
    earlyReceipts: row?.early ?? [],
  };
}
