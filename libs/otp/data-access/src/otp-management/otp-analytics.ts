import type { OtpChannel } from '@mp/otp-domain';
import { sql } from '@mp/persistence';
import type { DataSource } from 'typeorm';
import { conversionRate } from './otp-report';
import { SqlWhere } from './sql-where';

export interface VerificationStatsFilter {
  /** Created in [from, before). */
  from: Date;
  before: Date;
  applicationId: string | null;
  channel: OtpChannel | null;
  /** ISO 3166-1 alpha-2, as OTPs keep it. */
  country: string | null;
}

/** From the send of an OTP (its first, when it was resent) to its verification, over the verified ones. */
export interface TimeToVerify {
  verified: number;
  /** Seconds, continuous percentiles (percentile_cont); null when none was verified. */
  medianSeconds: number | null;
  p95Seconds: number | null;
}

/** The longest range the charts cover. */
export const VERIFICATION_STATS_MAX_DAYS = 366;

export class VerificationStatsFilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VerificationStatsFilterError';
  }
}

/** The UTC days [from, before) touches, as YYYY-MM-DD, oldest first. */
export function utcDays(from: Date, before: Date): string[] {
  const days: string[] = [];
  for (let day = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()); day < before.getTime(); day += 86_400_000) {
    days.push(new Date(day).toISOString().slice(0, 10));
  }
  return days;
}

export interface VerificationStatsRow {
  /** UTC day the OTPs were sent, YYYY-MM-DD. */
  day: string;
  channel: OtpChannel;
  /** null: a non-geographic number, or an OTP sent before countries were kept. */
  country: string | null;
  sent: number;
  verified: number;
  /** verified / sent, 4 decimals; 0 when none was sent. */
  conversionRate: number;
  timeToVerify: TimeToVerify;
}

export interface VerificationStats {
  /** Per UTC day, channel and country, by day then channel then country. */
  rows: VerificationStatsRow[];
  /** Per UTC day, all channels and countries together: the charts' points, every day of the range (zeros on a day without OTPs). */
  days: Pick<VerificationStatsRow, 'day' | 'sent' | 'verified' | 'conversionRate' | 'timeToVerify'>[];
  totals: Pick<VerificationStatsRow, 'sent' | 'verified' | 'conversionRate' | 'timeToVerify'>;
}

interface StatsSqlRow {
  /** 0: day, channel and country; 3: day; 7: the whole range (GROUPING() of day, channel, country). */
  level: number;
  day: string | null;
  channel: OtpChannel | null;
  country: string | null;
  sent: number;
  verified: number;
  median: number | null;
  p95: number | null;
}

const toStats = (row: StatsSqlRow) => ({
  sent: row.sent,
  verified: row.verified,
  conversionRate: conversionRate(row.verified, row.sent),
  timeToVerify: { verified: row.verified, medianSeconds: seconds(row.median), p95Seconds: seconds(row.p95) },
});

const NONE = { sent: 0, verified: 0, conversionRate: 0, timeToVerify: { verified: 0, medianSeconds: null, p95Seconds: null } };

/** Seconds to the millisecond: the times are kept to the microsecond, the chart needs no more. */
function seconds(value: number | null): number | null {
  return value === null ? null : Math.round(Number(value) * 1000) / 1000;
}

/**
 * The company's OTPs sent in a range, counted (sent, verified, conversion rate) and timed (median
 * and 95th percentile from send to verify) per UTC day, channel and recipient's country, per day,
 * and over the range, in one statement (GROUPING SETS), as /otp/reports counts them: an OTP counts
 * once however often it was resent, on the day it was first sent.
 */
export async function verificationStats(db: DataSource, companyId: string, filter: VerificationStatsFilter): Promise<VerificationStats> {
  if (Number.isNaN(filter.from.getTime()) || Number.isNaN(filter.before.getTime())) throw new VerificationStatsFilterError('dates must be ISO 8601 timestamps');
  if (filter.from >= filter.before) throw new VerificationStatsFilterError('from must be before to');
  if (filter.before.getTime() - filter.from.getTime() > VERIFICATION_STATS_MAX_DAYS * 86_400_000) {
    throw new VerificationStatsFilterError(`the range must be at most ${VERIFICATION_STATS_MAX_DAYS} days`);
  }
  const where = new SqlWhere()
    .add('o.company_id =', companyId)
    .addRange('o.created_at', { from: filter.from, before: filter.before })
    .addIf('o.application_id =', filter.applicationId)
    .addIf('o.channel =', filter.channel)
    .addIf('o.country =', filter.country);
  const day = sql`to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const statement = sql`SELECT GROUPING(${day}, o.channel, o.country) AS level, ${day} AS day, o.channel, o.country,
       count(*)::int AS sent,
       (count(*) FILTER (WHERE o.status = 'verified'))::int AS verified,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM o.verified_at - o.created_at)) FILTER (WHERE o.status = 'verified') AS median,
       percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM o.verified_at - o.created_at)) FILTER (WHERE o.status = 'verified') AS p95
     FROM otps o
     WHERE ${where.clause}
     GROUP BY GROUPING SETS ((${day}, o.channel, o.country), (${day}), ())
     ORDER BY 1, 2, 3, 4 NULLS FIRST`;
  const rows: StatsSqlRow[] = await db.query(statement.text, statement.values);
  const total = rows.find((row) => row.level === 7);
  const byDay = new Map(rows.filter((row) => row.level === 3).map((row) => [row.day ?? '', toStats(row)]));
  return {
    rows: rows
      .filter((row) => row.level === 0)
      .map((row) => ({ day: row.day ?? '', channel: row.channel as OtpChannel, country: row.country, ...toStats(row) })),
    days: utcDays(filter.from, filter.before).map((day) => ({ day, ...(byDay.get(day) ?? NONE) })),
    totals: total ? toStats(total) : NONE,
  };
}
