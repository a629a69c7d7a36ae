import { parseMoney, type Money } from '@mp/billing-domain';
import type { OtpChannel } from '@mp/otp-domain';
import { sql } from '@mp/persistence';
import type { DataSource } from 'typeorm';
import { SqlWhere } from './sql-where';

export interface OtpReportFilter {
  /** Created in [from, before). */
  from: Date;
  before: Date;
  applicationId: string | null;
  channel: OtpChannel | null;
}

export interface OtpReportRow {
  /** UTC day the OTPs were created, YYYY-MM-DD. */
  day: string;
  channel: OtpChannel;
  appid: string;
  sent: number;
  verified: number;
  expired: number;
  failed: number;
  /** verified / sent, 4 decimals; 0 when none was sent. */
  conversionRate: number;
  cost: Money;
}

export interface OtpReport {
  rows: OtpReportRow[];
  totals: { sent: number; verified: number; conversionRate: number; cost: Money };
}

interface ReportSqlRow {
  day: string;
  channel: OtpChannel;
  appid: string;
  sent: number;
  verified: number;
  expired: number;
  failed: number;
  cost: string;
}

export function conversionRate(verified: number, sent: number): number {
  return sent === 0 ? 0 : Math.round((verified / sent) * 10_000) / 10_000;
}

/**
 * OTPs per UTC day of creation, channel and application; cost is the exact numeric sum of what
 * they were charged (resends included). A pending OTP past its expiry counts as expired.
 */
export async function otpReport(db: DataSource, companyId: string, filter: OtpReportFilter, now: Date): Promise<OtpReport> {
  const where = new SqlWhere()
    .add('o.company_id =', companyId)
    .addRange('o.created_at', { from: filter.from, before: filter.before })
    .addIf('o.application_id =', filter.applicationId)
    .addIf('o.channel =', filter.channel);
  const statement = sql`SELECT to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, o.channel, ap.appid,
       count(*)::int AS sent,
       (count(*) FILTER (WHERE o.status = 'verified'))::int AS verified,
       (count(*) FILTER (WHERE o.status = 'expired' OR (o.status = 'pending' AND o.expires_at <= ${now}::timestamptz)))::int AS expired,
       (count(*) FILTER (WHERE o.status = 'failed'))::int AS failed,
       sum(o.cost)::text AS cost
     FROM otps o JOIN applications ap ON ap.id = o.application_id
     WHERE ${where.clause}
     GROUP BY 1, 2, 3
     ORDER BY 1, 3, 2`;
  const rows: ReportSqlRow[] = await db.query(statement.text, statement.values);
  const report = rows.map((row) => ({ ...row, conversionRate: conversionRate(row.verified, row.sent), cost: parseMoney(row.cost) }));
  const sent = report.reduce((sum, row) => sum + row.sent, 0);
  const verified = report.reduce((sum, row) => sum + row.verified, 0);
  const cost = report.reduce((sum, row) => sum + row.cost, 0n);
  return { rows: report, totals: { sent, verified, conversionRate: conversionRate(verified, sent), cost } };
}
