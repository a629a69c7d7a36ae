import type { OtpLogEvent } from '@mp/otp-domain';
import type { DataSource } from 'typeorm';
import { pagedQuery, SqlWhere, type CreatedRange, type PageRequest, type Paged } from './sql-where';

/** The events of /otp/logs: the journal's, plus `refused` (a send the fraud guard turned down). */
export const OTP_LOG_ENTRY_EVENTS = [
  'sent',
  'delivered',
  'verified',
  'failed_attempt',
  'expired',
  'resent',
  'blocked',
  'failed',
  'refused',
] as const satisfies readonly (OtpLogEvent | 'refused')[];
export type OtpLogEntryEvent = (typeof OTP_LOG_ENTRY_EVENTS)[number];

export interface OtpLogEntry {
  id: number;
  /** Null for a refused send, which never became an OTP. */
  verificationId: string | null;
  appid: string | null;
  recipient: string | null;
  event: OtpLogEntryEvent;
  detail: Record<string, unknown>;
  createdAt: Date;
}

export interface OtpLogFilter {
  verificationId: string | null;
  applicationId: string | null;
  recipient: string | null;
  event: OtpLogEntryEvent | null;
  range: CreatedRange;
}

interface OtpEventRow {
  id: string;
  otp_id: string | null;
  appid: string | null;
  recipient: string | null;
  event: OtpLogEntryEvent;
  detail: Record<string, unknown>;
  created_at: Date;
}

/** The company's OTP events that match, newest first. */
export async function listOtpLogEntries(db: DataSource, companyId: string, filter: OtpLogFilter, page: PageRequest): Promise<Paged<OtpLogEntry>> {
  const where = new SqlWhere()
    .add('e.company_id =', companyId)
    .addIf('e.otp_id =', filter.verificationId)
    .addIf('e.application_id =', filter.applicationId)
    .addIf('e.recipient =', filter.recipient)
    .addIf('e.event =', filter.event)
    .addRange('e.created_at', filter.range);
  return pagedQuery(db, {
    columns: 'e.id, e.otp_id, ap.appid, e.recipient, e.event, e.detail, e.created_at',
    from: 'otp_events e LEFT JOIN applications ap ON ap.id = e.application_id',
    where,
    orderBy: 'e.created_at DESC, e.id DESC',
    page,
    map: (row: OtpEventRow) => ({
      id: Number(row.id),
      verificationId: row.otp_id,
      appid: row.appid,
      recipient: row.recipient,
      event: row.event,
      detail: row.detail,
      createdAt: new Date(row.created_at),
    }),
  });
}
