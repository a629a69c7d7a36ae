import { OTP_BLOCK, otpCodeMatches, retryAfterSeconds, type OtpFailureReason } from '@mp/otp-domain';
import type { OutboxJob, OutboxRepository } from '@mp/queue-runtime';
import type { DataSource, EntityManager } from 'typeorm';
import { recordOtpAttempt, recordOtpEvent, type OtpSubject } from './otp-journal';
import { commitJobs, otpEventJob, type Committed } from './otp-lifecycle';
import { findOtp, type OtpTarget } from './otp-lookup';
import { lockRecipient, recipientBlockedUntil } from './otp-recipient-lock';

export type VerifyOutcome =
  | { outcome: 'verified'; verificationId: string; recipient: string; verifiedAt: Date }
  | { outcome: 'invalid_code'; verificationId: string; attemptsRemaining: number }
  | { outcome: 'expired'; verificationId: string }
  | { outcome: 'already_verified'; verificationId: string }
  /** The OTP failed: its code never reached the handset (resend it), or its wrong codes were used up. */
  | { outcome: 'failed'; verificationId: string; reason: OtpFailureReason; errorCode: string | null }
  | { outcome: 'no_longer_valid'; verificationId: string; status: string }
  | { outcome: 'blocked'; retryAfterSeconds: number }
  | { outcome: 'not_found' };

interface OtpRow {
  id: string;
  company_id: string;
  application_id: string;
  recipient: string;
  status: string;
  code_hash: string;
  expires_at: Date;
  message_id: string;
  failure_reason: OtpFailureReason | null;
  error_code: string | null;
}

/** Called after commit with the outbox rows of the OTP's webhook events, to enqueue them. */
export type OnOtpEvents = (outbox: Committed['outbox']) => Promise<unknown>;

export interface OtpVerifierOptions {
  now?: () => Date;
  onEvents?: OnOtpEvents;
}

/**
 * Checks a code, once: the OTP row is locked, so of many concurrent correct verifications exactly
 * one succeeds; every attempt is recorded, and the third wrong code for a recipient within 30
 * minutes blocks it (and fails the OTP).
 */
export class OtpVerifier {
  private readonly now: () => Date;
  private readonly onEvents: OnOtpEvents;

  constructor(
    private readonly db: DataSource,
    private readonly outbox: OutboxRepository,
    private readonly hashKey: Buffer,
    options: OtpVerifierOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.onEvents = options.onEvents ?? (async () => undefined);
  }

  async verify(companyId: string, target: OtpTarget, code: string): Promise<VerifyOutcome> {
    const events: OutboxJob[] = [];
    const { outcome, outbox } = await this.db.transaction(async (manager) => {
      const result = await this.verifyLocked(manager, companyId, target, code, events);
      return { outcome: result, outbox: (await commitJobs(this.outbox, manager, events)).outbox };
    });
    if (outbox.jobs.length > 0) await this.onEvents(outbox);
    return outcome;
  }

  private async verifyLocked(manager: EntityManager, companyId: string, target: OtpTarget, code: string, events: OutboxJob[]): Promise<VerifyOutcome> {
    const now = this.now();
    const found = await findOtp(manager, companyId, target);
    if (!found) return { outcome: 'not_found' };
    await lockRecipient(manager, found.application_id, found.recipient);
    const [otp] = (await manager.query(
      `SELECT id, company_id, application_id, recipient, status, code_hash, expires_at, message_id, failure_reason, error_code FROM otps WHERE id = $1 FOR UPDATE`,
      [found.id],
    )) as OtpRow[];
    const subject: OtpSubject = { otpId: otp.id, companyId, applicationId: otp.application_id, recipient: otp.recipient };
    const until = await recipientBlockedUntil(manager, otp.application_id, otp.recipient, now);
    if (until) {
      await recordOtpAttempt(manager, subject, 'blocked', now);
      return { outcome: 'blocked', retryAfterSeconds: retryAfterSeconds(until, now) };
    }
    return this.check(manager, otp, subject, code, now, events);
  }

  private async check(manager: EntityManager, otp: OtpRow, subject: OtpSubject, code: string, now: Date, events: OutboxJob[]): Promise<VerifyOutcome> {
    if (otp.status === 'verified') {
      await recordOtpAttempt(manager, subject, 'already_verified', now);
      return { outcome: 'already_verified', verificationId: otp.id };
    }
    if (otp.status === 'expired' || (otp.status === 'pending' && now >= new Date(otp.expires_at))) {
      if (otp.status === 'pending') {
        await manager.query(`UPDATE otps SET status = 'expired', updated_at = $2 WHERE id = $1`, [otp.id, now]);
        await recordOtpEvent(manager, subject, 'expired', now);
        events.push(otpEventJob(otp.id, 'otp.expired', now, otp.message_id));
      }
      await recordOtpAttempt(manager, subject, 'expired', now);
      return { outcome: 'expired', verificationId: otp.id };
    }
    if (otp.status === 'failed') {
      return { outcome: 'failed', verificationId: otp.id, reason: otp.failure_reason ?? 'too_many_attempts', errorCode: otp.error_code };
    }
    if (otp.status !== 'pending') return { outcome: 'no_longer_valid', verificationId: otp.id, status: otp.status };
    if (otpCodeMatches(this.hashKey, otp.id, code, otp.code_hash)) {
      await manager.query(`UPDATE otps SET status = 'verified', verified_at = $2, updated_at = $2 WHERE id = $1`, [otp.id, now]);
      await recordOtpAttempt(manager, subject, 'success', now);
      await recordOtpEvent(manager, subject, 'verified', now);
      events.push(otpEventJob(otp.id, 'otp.verified', now, otp.message_id));
      return { outcome: 'verified', verificationId: otp.id, recipient: otp.recipient, verifiedAt: now };
    }
    return this.wrongCode(manager, otp, subject, now, events);
  }

  private async wrongCode(manager: EntityManager, otp: OtpRow, subject: OtpSubject, now: Date, events: OutboxJob[]): Promise<VerifyOutcome> {
    await recordOtpAttempt(manager, subject, 'invalid_code', now);
    await recordOtpEvent(manager, subject, 'failed_attempt', now);
    const [{ failures }] = (await manager.query(
      `SELECT count(*)::int AS failures FROM otp_attempts
       WHERE application_id = $1 AND recipient = $2 AND outcome = 'invalid_code' AND created_at > $3`,
      [otp.application_id, otp.recipient, new Date(now.getTime() - OTP_BLOCK.windowMs)],
    )) as { failures: number }[];
    const attemptsRemaining = Math.max(0, OTP_BLOCK.failures - failures);
    if (attemptsRemaining === 0) {
      await manager.query(`UPDATE otps SET status = 'failed', failure_reason = 'too_many_attempts', updated_at = $2 WHERE id = $1 AND status = 'pending'`, [
        otp.id,
        now,
      ]);
      await recordOtpEvent(manager, subject, 'blocked', now, { until: new Date(now.getTime() + OTP_BLOCK.durationMs).toISOString() });
      events.push(otpEventJob(otp.id, 'otp.failed', now, otp.message_id, { reason: 'too_many_attempts', errorCode: null }));
    }
    return { outcome: 'invalid_code', verificationId: otp.id, attemptsRemaining };
  }
}
