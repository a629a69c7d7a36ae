import type { OtpAttemptOutcome } from '@mp/otp-domain';
import type { DataSource } from 'typeorm';
import { pagedQuery, SqlWhere, type CreatedRange, type PageRequest, type Paged } from './sql-where';

export interface OtpAttemptEntry {
  id: number;
  verificationId: string | null;
  appid: string;
  recipient: string;
  outcome: OtpAttemptOutcome;
  createdAt: Date;
}

export interface OtpAttemptFilter {
  verificationId: string | null;
  applicationId: string | null;
  recipient: string | null;
  outcome: OtpAttemptOutcome | null;
  range: CreatedRange;
}

interface OtpAttemptRow {
  id: string;
  otp_id: string | null;
  appid: string;
  recipient: string;
  outcome: OtpAttemptOutcome;
  created_at: Date;
}

/** The company's verification attempts that match, newest first. */
export async function listOtpAttemptEntries(db: DataSource, companyId: string, filter: OtpAttemptFilter, page: PageRequest): Promise<Paged<OtpAttemptEntry>> {
  const where = new SqlWhere()
    .add('a.company_id =', companyId)
    .addIf('a.otp_id =', filter.verificationId)
    .addIf('a.application_id =', filter.applicationId)
    .addIf('a.recipient =', filter.recipient)
    .addIf('a.outcome =', filter.outcome)
    .addRange('a.created_at', filter.range);
  return pagedQuery(db, {
    columns: 'a.id, a.otp_id, ap.appid, a.recipient, a.outcome, a.created_at',
    from: 'otp_attempts a JOIN applications ap ON ap.id = a.application_id',
    where,
    orderBy: 'a.created_at DESC, a.id DESC',
    page,
    map: (row: OtpAttemptRow) => ({
      id: Number(row.id),
      verificationId: row.otp_id,
      appid: row.appid,
      recipient: row.recipient,
      outcome: row.outcome,
      createdAt: new Date(row.created_at),
    }),
  });
}
