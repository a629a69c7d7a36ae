import type { OtpAttemptOutcome, OtpLogEvent } from '@mp/otp-domain';
import type { DataSource, EntityManager } from 'typeorm';

export interface OtpSubject {
  otpId: string | null;
  companyId: string;
  applicationId: string;
  recipient: string;
}

/** `/otp/logs`: what happened to an OTP (never its code). */
export async function recordOtpEvent(
  manager: EntityManager,
  subject: OtpSubject,
  event: OtpLogEvent | 'refused',
  at: Date,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await manager.query(`INSERT INTO otp_events (otp_id, company_id, application_id, recipient, event, detail, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    subject.otpId,
    subject.companyId,
    subject.applicationId,
    subject.recipient,
    event,
    JSON.stringify(detail),
    at,
  ]);
}

/** `/otp/attempts`, and what the block is counted from. */
export async function recordOtpAttempt(manager: EntityManager, subject: OtpSubject, outcome: OtpAttemptOutcome, at: Date): Promise<void> {
  await manager.query(`INSERT INTO otp_attempts (otp_id, company_id, application_id, recipient, outcome, created_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
    subject.otpId,
    subject.companyId,
    subject.applicationId,
    subject.recipient,
    outcome,
    at,
  ]);
}

/** recordOtpEvent in a statement of its own (the gateway's fraud guard records its refusals so), for injection. */
export class OtpJournal {
  constructor(private readonly db: DataSource) {}

  recordEvent(subject: OtpSubject, event: OtpLogEvent | 'refused', at: Date, detail: Record<string, unknown> = {}): Promise<void> {
    return recordOtpEvent(this.db.manager, subject, event, at, detail);
  }
}
