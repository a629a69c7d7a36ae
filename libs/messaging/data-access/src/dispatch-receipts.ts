import type { EntityManager } from 'typeorm';

export interface CarrierReceipt {
  carrierMessageId: string;
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

/** The receipts worth storing: a final `stat` (ENROUTE, ACCEPTD… change nothing), one per carrier id, the first. */
export function finalReceipts(receipts: readonly CarrierReceipt[]): CarrierReceipt[] {
  const byCarrierId = new Map<string, CarrierReceipt>();
  for (const receipt of receipts) {
    if (FINAL_RECEIPT_STATES[receipt.stat] && !byCarrierId.has(receipt.carrierMessageId)) byCarrierId.set(receipt.carrierMessageId, receipt);
  }
  return [...byCarrierId.values()];
}

/** Stores receipts; one already stored for a carrier id wins (a carrier's resend is the same receipt). */
export async function storeReceipts(manager: EntityManager, receipts: readonly CarrierReceipt[]): Promise<void> {
  await manager.query(
    `INSERT INTO carrier_receipts (carrier_message_id, stat, err, done_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[])
     ON CONFLICT (carrier_message_id) DO NOTHING`,
    [
      receipts.map((r) => r.carrierMessageId),
      receipts.map((r) => r.stat),
      receipts.map((r) => r.err),
      receipts.map((r) => r.doneAt?.toISOString() ?? null),
    ],
  );
}

/**
 * The messages whose parts carry these carrier ids. A plain read is enough: the caller holds the
 * advisory locks of these ids, and a carrier id is only ever recorded under its lock.
 */
export async function messagesOfCarrierIds(manager: EntityManager, carrierMessageIds: readonly string[]): Promise<string[]> {
  const rows: { message_id: string }[] = await manager.query(
    `SELECT DISTINCT message_id FROM message_parts WHERE carrier_message_id = ANY($1::text[])`,
    [carrierMessageIds],
  );
  return rows.map((row) => row.message_id);
}

/**
 * Applies the stored, unapplied receipts of these carrier ids to their submitted parts, among
 * the given (locked) messages, and marks the receipts applied. Returns the messages changed.
 * A receipt whose part is not submitted yet stays unapplied for the recording of the part.
 */
export async function applyStoredReceipts(
  manager: EntityManager,
  carrierMessageIds: readonly string[],
  lockedMessageIds: readonly string[],
): Promise<string[]> {
  if (carrierMessageIds.length === 0 || lockedMessageIds.length === 0) return [];
  const rows: { message_id: string }[] = await manager.query(
    // `keyed` joins by carrier id only, with no state in its conditions, and is materialized: the
    // partial indexes of unapplied receipts and of submitted parts must never look cheaper than the
    // keys (statistics taken while those sets were empty say they hold one row, and the planner
    // then scans them once per key). The states are checked on the rows found; the caller's locks
    // keep them as read.
    `WITH keyed AS MATERIALIZED (
       SELECT r.carrier_message_id, r.stat, r.err, r.applied_at, p.message_id, p.part_index, p.status AS part_status
       FROM unnest($1::text[]) AS k(carrier_message_id)
       JOIN carrier_receipts r ON r.carrier_message_id = k.carrier_message_id
       JOIN message_parts p ON p.carrier_message_id = k.carrier_message_id AND p.carrier_message_id IS NOT NULL),
     targets AS (
       SELECT t.message_id, t.part_index, t.carrier_message_id, t.stat, t.err, s.state
       FROM keyed t JOIN unnest($3::text[], $4::text[]) AS s(stat, state) ON s.stat = t.stat
       WHERE t.applied_at IS NULL AND t.part_status = 'submitted' AND t.message_id = ANY($2::uuid[])),
     done AS (
       UPDATE message_parts p SET status = t.state, receipt_stat = t.stat,
         error_code = CASE WHEN t.state = 'delivered' THEN NULL ELSE t.err END, completed_at = now()
       FROM targets t WHERE p.message_id = t.message_id AND p.part_index = t.part_index
       RETURNING p.message_id, p.carrier_message_id),
     applied AS (
       UPDATE carrier_receipts r SET applied_at = now() FROM done d WHERE r.carrier_message_id = d.carrier_message_id)
     SELECT DISTINCT message_id FROM done`,
    [carrierMessageIds, lockedMessageIds, Object.keys(FINAL_RECEIPT_STATES), Object.values(FINAL_RECEIPT_STATES)],
  );
  return rows.map((row) => row.message_id);
}
