import type { DataSource } from 'typeorm';

/** The sweep_cursors row of the receipt-timeout sweep. */
export const RECEIPT_EXPIRY_CURSOR = 'receipt-expiry';

export interface UnansweredParts {
  /** Each part's carrier id and carrier (the default carrier's when it names none). */
  parts: { carrierMessageId: string; carrier: string }[];
  /** Where the next round may start once these are recorded expired (a timestamptz, as text). */
  nextCursor: string;
}

/**
 * Parts submitted more than `afterMs` ago that no receipt answered, oldest first. No index names a
 * part's status (so a receipt updates its part in place), so the search walks submitted_at from
 * where the last round stopped: every part is looked at about once, when it passes the timeout.
 * Times travel as text: a JavaScript Date would drop their microseconds.
 */
export async function findUnansweredParts(db: DataSource, afterMs: number, limit: number): Promise<UnansweredParts> {
  const [bounds]: { lower: string; upper: string }[] = await db.query(
    `SELECT coalesce((SELECT through FROM sweep_cursors WHERE name = $1), '-infinity')::text AS lower,
            (now() - make_interval(secs => $2::double precision / 1000))::text AS upper`,
    [RECEIPT_EXPIRY_CURSOR, afterMs],
  );
  const rows: { carrier_message_id: string; carrier: string; submitted_at: string }[] = await db.query(
    `SELECT carrier_message_id, coalesce(carrier, 'default') AS carrier, submitted_at::text AS submitted_at FROM message_parts
     WHERE submitted_at >= $1::timestamptz AND submitted_at < $2::timestamptz AND status = 'submitted'
     ORDER BY submitted_at LIMIT $3`,
    [bounds.lower, bounds.upper, limit],
  );
  // A full page may have left parts of the same instant behind: the next round starts at it.
  const nextCursor = rows.length < limit ? bounds.upper : rows[rows.length - 1].submitted_at;
  return { parts: rows.map((row) => ({ carrierMessageId: row.carrier_message_id, carrier: row.carrier })), nextCursor };
}

/** Records that every part submitted before `through` has had its receipt or been expired. */
export async function advanceExpiryCursor(db: DataSource, through: string): Promise<void> {
  await db.query(
    `INSERT INTO sweep_cursors (name, through) VALUES ($1, $2::timestamptz)
     ON CONFLICT (name) DO UPDATE SET through = greatest(sweep_cursors.through, excluded.through)`,
    [RECEIPT_EXPIRY_CURSOR, through],
  );
}
