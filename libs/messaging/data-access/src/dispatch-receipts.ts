import type { MessageEventStatus } from '@mp/queue-contracts';
import { queryPrepared } from '@mp/persistence';
import type { EntityManager } from 'typeorm';
import { MESSAGE_FINAL } from './dispatch-settle';
import type { MessageTransition } from './message-events';
import { receiptErrorCode, receiptErrorReason } from './receipt-errors';

export interface CarrierReceipt {
  carrierMessageId: string;
  /** The carrier whose bind it came over (its name); absent: the default carrier. */
  carrier?: string;
  stat: string;
  err: string;
  doneAt: Date | null;
}

/** Receipt states that end a part, as carriers report them in `stat:`. */
const FINAL_RECEIPT_STATES: Record<string, string> = {
  DELIVRD: 'delivered',
  UNDELIV: 'undelivered',
  EXPIRED: 'expired',
  REJECTD: 'rejected',
  DELETED: 'undelivered',
  UNKNOWN: 'undelivered',
};
const STATS = Object.keys(FINAL_RECEIPT_STATES);

/**
 * The carrier of a receipt or part that names none: parts recorded before carriers were data, and
 * the receipts stored then, are the default carrier's.
 */
export const UNNAMED_CARRIER = 'default';

/** Two carriers may give the same id: a receipt finds its part by both. */
export interface ReceiptKey {
  carrierMessageId: string;
  carrier: string;
}

export function carrierOf(receipt: { carrier?: string }): string {
  return receipt.carrier ?? UNNAMED_CARRIER;
}
const STATES = Object.values(FINAL_RECEIPT_STATES);

/** The receipts worth applying: a final `stat` (ENROUTE, ACCEPTD… change nothing), one per carrier and carrier id, the first. */
export function finalReceipts(receipts: readonly CarrierReceipt[]): CarrierReceipt[] {
  const byKey = new Map<string, CarrierReceipt>();
  for (const receipt of receipts) {
    // Carrier names hold no space (the carriers table's check), so the pair is one string.
    const key = `${carrierOf(receipt)} ${receipt.carrierMessageId}`;
    if (FINAL_RECEIPT_STATES[receipt.stat] && !byKey.has(key)) byKey.set(key, receipt);
  }
  return [...byKey.values()];
}

/** What applying receipts did. */
export interface AppliedReceipts {
  /** Messages of one part, settled by their part's receipt. */
  settled: MessageTransition[];
  /** Other messages whose parts moved: to settle once their rows are locked (settleMessages). */
  others: string[];
  /** Receipts no part carries the id of yet: they overtook their part's record and must be stored for it. */
  early: CarrierReceipt[];
}

/**
 * In ONE statement: receipts applied straight to the submitted parts that carry their carrier
 * ids, and each message of one part settled at once in its part's state (it has no other part to
 * wait for), taking its part's error code and a reason when it was not delivered. Messages of
 * several parts are returned to be settled under their row locks; receipts
 * whose carrier id no part carries yet are returned to be stored. A receipt for a part already
 * final (a carrier's resend) changes nothing. The caller holds the advisory locks of these carrier
 * ids, the only locks under which a part with a carrier id, or a message of one part, is written.
 */
export async function applyReceiptsToParts(manager: EntityManager, receipts: readonly CarrierReceipt[]): Promise<AppliedReceipts> {
  if (receipts.length === 0) return { settled: [], others: [], early: [] };
  const [row] = await queryPrepared<{
    settled: [string, MessageEventStatus, string | null, string | null][] | null;
    others: string[] | null;
    unknown: number[] | null;
  }>(
    manager,
    // `keyed` finds parts by carrier id only, with no state in its conditions, and is
    // materialized: the partial index of submitted parts must never look cheaper than the keys
    // (statistics taken while that set was empty say it holds one row, and the planner then
    // scans it once per key). The state is checked on the rows found, never in the UPDATE's own
    // conditions, which would make that index a candidate again.
    `WITH keyed AS MATERIALIZED (
         SELECT p.message_id, p.part_index, p.status, r.carrier_message_id, r.carrier, r.stat, r.err, r.reason
         FROM unnest($1::text[], $2::text[], $3::text[], $7::text[], $8::text[]) AS r(carrier_message_id, stat, err, reason, carrier)
         JOIN message_parts p ON p.carrier_message_id = r.carrier_message_id AND p.carrier_message_id IS NOT NULL
           AND coalesce(p.carrier, '${UNNAMED_CARRIER}') = r.carrier),
       done AS (
         UPDATE message_parts p SET status = s.state, receipt_stat = t.stat,
           error_code = CASE WHEN s.state = 'delivered' THEN NULL ELSE t.err END, completed_at = now()
         FROM keyed t JOIN unnest($4::text[], $5::text[]) AS s(stat, state) ON s.stat = t.stat
         WHERE t.status = 'submitted' AND p.message_id = t.message_id AND p.part_index = t.part_index
         RETURNING p.message_id, s.state, p.error_code, CASE WHEN s.state = 'delivered' THEN NULL ELSE t.reason END AS reason),
       settled AS (
         UPDATE messages m SET status = d.state, completed_at = now(), updated_at = now(),
           error_code = coalesce(m.error_code, d.error_code), error_reason = coalesce(m.error_reason, d.reason)
         FROM done d WHERE m.id = d.message_id AND m.parts = 1 AND NOT (m.status = ANY($6::text[]))
         RETURNING m.id, m.status, m.webhook_url, m.otp_id)
       SELECT (SELECT json_agg(json_build_array(id, status, webhook_url, otp_id) ORDER BY id) FROM settled) AS settled,
              ARRAY(SELECT DISTINCT message_id::text FROM done WHERE message_id NOT IN (SELECT id FROM settled)) AS others,
              ARRAY(SELECT u.n FROM unnest($1::text[], $8::text[]) WITH ORDINALITY AS u(id, carrier, n)
                    WHERE NOT EXISTS (SELECT 1 FROM keyed k WHERE k.carrier_message_id = u.id AND k.carrier = u.carrier)) AS unknown`,
    [
      receipts.map((r) => r.carrierMessageId),
      receipts.map((r) => r.stat),
      receipts.map((r) => receiptErrorCode(r.err)),
      STATS,
      STATES,
      MESSAGE_FINAL,
      receipts.map((r) => receiptErrorReason(r.stat, r.err)),
      receipts.map(carrierOf),
    ],
  );
  // Ordinals, from 1, of the receipts that found no part.
  const unknown = new Set((row?.unknown ?? []).map(Number));
  return {
    settled: (row?.settled ?? []).map(([messageId, status, webhookUrl, otpId]) => ({ messageId, status, webhookUrl, ...(otpId ? { otpId } : {}) })),
    others: row?.others ?? [],
    early: receipts.filter((_, index) => unknown.has(index + 1)),
  };
}

/**
 * Stores receipts that overtook their part's submit record, for it to apply; one already stored
 * for a carrier id wins (a carrier's resend is the same receipt).
 */
export async function storeEarlyReceipts(manager: EntityManager, receipts: readonly CarrierReceipt[]): Promise<void> {
  if (receipts.length === 0) return;
  await manager.query(
    `INSERT INTO carrier_receipts (carrier_message_id, stat, err, done_at, carrier)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[])
     ON CONFLICT (carrier_message_id, carrier) DO NOTHING`,
    [
      receipts.map((r) => r.carrierMessageId),
      receipts.map((r) => r.stat),
      receipts.map((r) => r.err),
      receipts.map((r) => r.doneAt?.toISOString() ?? null),
      receipts.map(carrierOf),
    ],
  );
}

/**
 * Applies the stored, unapplied receipts of these carrier ids to their submitted parts and marks
 * the receipts applied. Returns the messages changed. A receipt whose part is not submitted yet
 * stays unapplied for the recording of the part. The caller holds the carrier ids' advisory locks.
 */
export async function applyStoredReceipts(manager: EntityManager, keys: readonly ReceiptKey[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows: { message_id: string }[] = await manager.query(
    // Materialized and by key, for the reason given in applyReceiptsToParts.
    `WITH keyed AS MATERIALIZED (
       SELECT r.carrier_message_id, r.carrier, r.stat, r.err, r.applied_at, p.message_id, p.part_index, p.status AS part_status
       FROM unnest($1::text[], $4::text[]) AS k(carrier_message_id, carrier)
       JOIN carrier_receipts r ON r.carrier_message_id = k.carrier_message_id AND r.carrier = k.carrier
       JOIN message_parts p ON p.carrier_message_id = k.carrier_message_id AND p.carrier_message_id IS NOT NULL
         AND coalesce(p.carrier, '${UNNAMED_CARRIER}') = k.carrier),
     targets AS (
       SELECT t.message_id, t.part_index, t.carrier_message_id, t.carrier, t.stat, t.err, s.state
       FROM keyed t JOIN unnest($2::text[], $3::text[]) AS s(stat, state) ON s.stat = t.stat
       WHERE t.applied_at IS NULL AND t.part_status = 'submitted'),
     done AS (
       UPDATE message_parts p SET status = t.state, receipt_stat = t.stat,
         error_code = CASE WHEN t.state = 'delivered' THEN NULL ELSE nullif(t.err, '') END, completed_at = now()
       FROM targets t WHERE p.message_id = t.message_id AND p.part_index = t.part_index
       RETURNING p.message_id, p.carrier_message_id, t.carrier),
     applied AS (
       UPDATE carrier_receipts r SET applied_at = now() FROM done d WHERE r.carrier_message_id = d.carrier_message_id AND r.carrier = d.carrier)
     SELECT DISTINCT message_id FROM done`,
    [keys.map((k) => k.carrierMessageId), STATS, STATES, keys.map((k) => k.carrier)],
  );
  return rows.map((row) => row.message_id);
}
