import { OTP_BLOCK } from '@mp/otp-domain';
import { decodeCursorOrThrow, empty, keysetPage, sql, type KeysetPage } from '@mp/persistence';
import type { DataSource } from 'typeorm';
import { SqlWhere, type CreatedRange } from './sql-where';

/** A block after the third wrong code within 30 minutes for one recipient of one application. */
export interface OtpBlockEntry {
  /** When the third wrong code came (the block's start). */
  blockedAt: Date;
  /** When it ends (OTP_BLOCK.durationMs later): verify and send answered 429 until then. */
  blockedUntil: Date;
  /** Whether it still holds at `now`. */
  active: boolean;
  recipient: string;
  appid: string;
  /** The OTP whose code was wrong the third time. */
  verificationId: string | null;
}

export interface OtpBlockFilter {
  applicationId: string | null;
  recipient: string | null;
  range: CreatedRange;
}

interface BlockRow {
  id: string;
  created_at: Date;
  created_us: string;
  recipient: string;
  appid: string;
  otp_id: string | null;
  until: string | null;
}

const CURSOR_SHAPE = [/[0-9]{1,17}/, /[0-9]{1,19}/];
export const OTP_BLOCKS_MAX_LIMIT = 100;

/**
 * The company's blocks, newest first, from the `blocked` events the verifier records with the
 * block (`otp_events_blocked_idx` finds them without reading the other events), a page at a time
 * after a keyset cursor. Throws InvalidCursorError for a cursor that is not one of this list's.
 */
export async function listOtpBlocks(
  db: DataSource,
  companyId: string,
  filter: OtpBlockFilter,
  page: { limit: number; cursor: string | null },
  now: Date,
): Promise<KeysetPage<OtpBlockEntry>> {
  if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > OTP_BLOCKS_MAX_LIMIT) {
    throw new RangeError(`limit must be an integer from 1 to ${OTP_BLOCKS_MAX_LIMIT}`);
  }
  const where = new SqlWhere()
    .add('e.company_id =', companyId)
    .add('e.event =', 'blocked')
    .addIf('e.application_id =', filter.applicationId)
    .addIf('e.recipient =', filter.recipient)
    .addRange('e.created_at', filter.range);
  const after = page.cursor === null ? null : decodeCursorOrThrow(page.cursor, CURSOR_SHAPE);
  const statement = sql`SELECT e.id, e.created_at, (extract(epoch FROM e.created_at) * 1000000)::bigint::text AS created_us, e.recipient,
       ap.appid, e.otp_id, e.detail ->> 'until' AS until
     FROM otp_events e JOIN applications ap ON ap.id = e.application_id
     WHERE ${where.clause}
       ${after === null ? empty : sql`AND (e.created_at, e.id) < (timestamptz 'epoch' + ${after[0]}::bigint * interval '1 microsecond', ${after[1]}::bigint)`}
     ORDER BY e.created_at DESC, e.id DESC
     LIMIT ${page.limit + 1}`;
  const rows: BlockRow[] = await db.query(statement.text, statement.values);
  return keysetPage(
    rows,
    page.limit,
    (row) => [row.created_us, row.id],
    (row) => {
      const blockedUntil = row.until === null ? new Date(new Date(row.created_at).getTime() + OTP_BLOCK.durationMs) : new Date(row.until);
      return {
        blockedAt: new Date(row.created_at),
        blockedUntil,
        active: blockedUntil > now,
        recipient: row.recipient,
        appid: row.appid,
        verificationId: row.otp_id,
      };
    },
  );
}
