import { openingOf, queryPrepared, type PreparedOpening } from '@mp/persistence';
import type { EntityManager } from 'typeorm';
import { UNNAMED_CARRIER, type ReceiptKey } from './dispatch-receipts';
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
  /**
   * Whether its message has a webhook address, when the caller knows. Becoming `sent` makes an
   * event only for such a message, so a flush whose records all say false commits no event and is
   * recorded in one round trip. Unknown counts as having one.
   */
  webhook?: boolean;
  /** The carrier that took it (its name); unknown when absent. */
  carrier?: string;
  /** What the carrier's route says it charges for the part (numeric text); null or absent: unknown. */
  carrierCost?: string | null;
  /** Carriers whose submit timed out before this one took the part: they may deliver it as well. */
  timedOutCarriers?: readonly string[];
}

/** What recording submit responses did: the messages that became sent, and the carrier ids with a receipt waiting. */
export interface RecordedSubmits {
  sent: MessageTransition[];
  /** These parts' receipts that overtook this record and wait, stored, to be applied. */
  earlyReceipts: ReceiptKey[];
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
  const [row] = await queryPrepared<RecordedRow>(manager, RECORD_SUBMITS, recordValues(records));
  return recordedFrom(row);
}

/** recordSubmits as a statement to send with the BEGIN and the COMMIT (inOneRoundTrip); read its row with recordedFrom. */
export function recordSubmitsOpening(records: readonly SubmittedPart[]): PreparedOpening {
  return openingOf({ text: RECORD_SUBMITS, values: recordValues(records) });
}

interface RecordedRow {
  sent: [string, string | null][] | null;
  early: [string, string][] | null;
}

export function recordedFrom(row: RecordedRow | Record<string, unknown> | undefined): RecordedSubmits {
  const recorded = row as RecordedRow | undefined;
  return {
    sent: (recorded?.sent ?? []).map(([messageId, webhookUrl]) => ({ messageId, status: 'sent', webhookUrl })),
    earlyReceipts: (recorded?.early ?? []).map(([carrierMessageId, carrier]) => ({ carrierMessageId, carrier })),
  };
}

/**
 * The part's timed_out_carriers with those of `spaceJoined` (a space-joined text) added, each
 * once, in the order first seen: earlier attempts' carriers stay when a later one records its own.
 */
function mergedTimedOut(spaceJoined: string): string {
  return `ARRAY(SELECT c FROM unnest(coalesce(p.timed_out_carriers, '{}') || string_to_array(${spaceJoined}, ' ')) WITH ORDINALITY AS t(c, n)
                 GROUP BY c ORDER BY min(n))`;
}

/**
 * Records on a pending part the carriers its submits timed out on when no carrier took it, so the
 * job's next attempt tries them last (startFailover's mayHold). A part no longer pending
 * (submitted or failed meanwhile) is left as it is. One row in its own statement: it takes no
 * lock but the part's, so it fits the order of dispatch-locks.ts.
 */
export async function recordTimedOut(manager: EntityManager, messageId: string, partIndex: number, carriers: readonly string[]): Promise<void> {
  if (carriers.length === 0) return;
  await manager.query(
    `UPDATE message_parts p SET timed_out_carriers = ${mergedTimedOut('$3::text')}
     WHERE p.message_id = $1 AND p.part_index = $2 AND p.status = 'pending'`,
    [messageId, partIndex, carriers.join(' ')],
  );
}

const RECORD_SUBMITS = `WITH parts AS (
       UPDATE message_parts p SET status = 'submitted', carrier_message_id = r.carrier_message_id, submitted_at = now(),
              carrier = r.carrier, carrier_cost = r.carrier_cost,
              timed_out_carriers = CASE WHEN r.timed_out = '' THEN p.timed_out_carriers ELSE ${mergedTimedOut('r.timed_out')} END
       FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[], $5::numeric[], $6::text[]) AS r(message_id, part_index, carrier_message_id, carrier, carrier_cost, timed_out)
       WHERE p.message_id = r.message_id AND p.part_index = r.part_index AND p.status = 'pending'),
     sent AS (
       UPDATE messages SET status = 'sent', sent_at = coalesce(sent_at, now()), updated_at = now()
       WHERE id = ANY($1::uuid[]) AND status = 'queued' RETURNING id, webhook_url)
     SELECT (SELECT json_agg(json_build_array(id, webhook_url) ORDER BY id) FROM sent) AS sent,
            (SELECT json_agg(json_build_array(r.carrier_message_id, r.carrier)) FROM unnest($3::text[], $4::text[]) AS k(id, carrier)
               JOIN carrier_receipts r ON r.carrier_message_id = k.id AND r.carrier = coalesce(k.carrier, '${UNNAMED_CARRIER}')
               WHERE r.applied_at IS NULL) AS early`;

function recordValues(records: readonly SubmittedPart[]): unknown[] {
  return [
    records.map((r) => r.messageId),
    records.map((r) => r.partIndex),
    records.map((r) => r.carrierMessageId),
    records.map((r) => r.carrier ?? null),
    records.map((r) => r.carrierCost ?? null),
    // Carrier names hold no space (carriers_name check), so a space-joined list fits one text element.
    records.map((r) => (r.timedOutCarriers ?? []).join(' ')),
  ];
}
