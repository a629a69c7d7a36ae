import { parseMoney, type Money } from '@mp/billing-domain';
import type { OtpChannel, OtpFailureReason, OtpState } from '@mp/otp-domain';
import { raw, sql, type Sql } from '@mp/persistence';
import type { DataSource } from 'typeorm';
import { isOtpId, pagedQuery, SqlWhere, type CreatedRange, type PageRequest, type Paged } from './sql-where';

/** What the management endpoints show of an OTP: never its code hash, template text or variables. */
export interface OtpRecord {
  verificationId: string;
  appid: string;
  recipient: string;
  channel: OtpChannel;
  status: OtpState;
  sender: string;
  lang: string;
  expiresAt: Date;
  createdAt: Date;
  lastSentAt: Date;
  resends: number;
  verifiedAt: Date | null;
  cost: Money;
  /** Why a `failed` OTP failed; null otherwise. */
  failureReason: OtpFailureReason | null;
  /** The carrier's error code of a failed delivery, when it gave one. */
  errorCode: string | null;
}

export interface OtpRecordFilter {
  applicationId: string | null;
  recipient: string | null;
  status: OtpState | null;
  channel: OtpChannel | null;
  range: CreatedRange;
}

interface OtpRecordRow {
  id: string;
  appid: string;
  recipient: string;
  channel: OtpChannel;
  status: OtpState;
  sender: string;
  lang: string;
  expires_at: Date;
  created_at: Date;
  last_sent_at: Date;
  resends: number;
  verified_at: Date | null;
  cost: string;
  failure_reason: OtpFailureReason | null;
  error_code: string | null;
}

const COLUMNS = `o.id, ap.appid, o.recipient, o.channel, s.status, o.sender, o.lang, o.expires_at, o.created_at,
  o.last_sent_at, o.resends, o.verified_at, o.cost::text AS cost, o.failure_reason, o.error_code`;

/**
 * The OTPs of a company with their status as of `now` (a pending OTP past its expiry reads as
 * expired even before a verification or the sweeper has updated the row).
 */
function recordsFrom(now: Date): Sql {
  return sql`otps o JOIN applications ap ON ap.id = o.application_id
    CROSS JOIN LATERAL (SELECT CASE WHEN o.status = 'pending' AND o.expires_at <= ${now}::timestamptz
      THEN 'expired' ELSE o.status END AS status) s`;
}

function toRecord(row: OtpRecordRow): OtpRecord {
  return {
    verificationId: row.id,
    appid: row.appid,
    recipient: row.recipient,
    channel: row.channel,
    status: row.status,
    sender: row.sender,
    lang: row.lang,
    expiresAt: new Date(row.expires_at),
    createdAt: new Date(row.created_at),
    lastSentAt: new Date(row.last_sent_at),
    resends: Number(row.resends),
    verifiedAt: row.verified_at === null ? null : new Date(row.verified_at),
    cost: parseMoney(row.cost),
    failureReason: row.failure_reason,
    errorCode: row.error_code,
  };
}

/** One OTP of the company, or null (also for an id that is not a uuid). */
export async function findOtpRecord(db: DataSource, companyId: string, verificationId: string, now: Date): Promise<OtpRecord | null> {
  if (!isOtpId(verificationId)) return null;
  const where = new SqlWhere().add('o.company_id =', companyId).add('o.id =', verificationId);
  const statement = sql`SELECT ${raw(COLUMNS)} FROM ${recordsFrom(now)} WHERE ${where.clause}`;
  const rows: OtpRecordRow[] = await db.query(statement.text, statement.values);
  return rows.length === 0 ? null : toRecord(rows[0]);
}

/** The company's OTPs that match, newest first. */
export async function listOtpRecords(db: DataSource, companyId: string, filter: OtpRecordFilter, page: PageRequest, now: Date): Promise<Paged<OtpRecord>> {
  const where = new SqlWhere()
    .add('o.company_id =', companyId)
    .addIf('o.application_id =', filter.applicationId)
    .addIf('o.recipient =', filter.recipient)
    .addIf('s.status =', filter.status)
    .addIf('o.channel =', filter.channel)
    .addRange('o.created_at', filter.range);
  return pagedQuery(db, { columns: COLUMNS, from: recordsFrom(now), where, orderBy: 'o.created_at DESC, o.id DESC', page, map: toRecord });
}
