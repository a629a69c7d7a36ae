import { otpFailureOf } from '@mp/otp-domain';
import { QueueName, type OtpEventType, type OtpFailure } from '@mp/queue-contracts';
import type { OutboxJob, OutboxRepository } from '@mp/queue-runtime';
import type { DataSource, EntityManager } from 'typeorm';
import { recordOtpEvent } from './otp-journal';

export interface Committed {
  outbox: { ids: string[]; jobs: OutboxJob[] };
}

/** The webhook event of an OTP: one job per (OTP, event, message), so a replay is a no-op. */
export function otpEventJob(otpId: string, type: OtpEventType, at: Date, messageId: string, failure?: OtpFailure): OutboxJob {
  return {
    queue: QueueName.DeliveryEvents,
    jobName: 'otp.event',
    jobId: `otp-evt-${otpId}-${type}-${messageId}`,
    data: { otpId, type, occurredAt: at.toISOString(), messageId, ...(failure ? { failure } : {}) },
    notBefore: at,
    priority: null,
  };
}

/** Inserts the jobs in the caller's transaction; returns what to relay after commit. */
export async function commitJobs(outbox: OutboxRepository, manager: EntityManager, jobs: OutboxJob[]): Promise<Committed> {
  return { outbox: { ids: await outbox.insertMany(manager, jobs), jobs } };
}

/**
 * What happens to an OTP after it is sent: its message delivered or failed, its validity over.
 * Each change is logged (/otp/logs) and its webhook event committed with it, in one transaction.
 */
export class OtpLifecycle {
  constructor(
    private readonly db: DataSource,
    private readonly outbox: OutboxRepository,
  ) {}

  /**
   * The carrier delivered an OTP's message: logged once (`delivered` in /otp/logs) and its webhook
   * event committed with it. A message that carries no OTP, or a replay, does nothing.
   */
  async delivered(messageId: string, at: Date): Promise<Committed> {
    return this.db.transaction(async (manager) => {
      const rows: { id: string; company_id: string; application_id: string; recipient: string }[] = await manager.query(
        `SELECT o.id, o.company_id, o.application_id, o.recipient FROM messages m JOIN otps o ON o.id = m.otp_id WHERE m.id = $1 FOR UPDATE OF o`,
        [messageId],
      );
      if (rows.length === 0) return { outbox: { ids: [], jobs: [] } };
      const [otp] = rows;
      const logged: unknown[] = await manager.query(`SELECT 1 FROM otp_events WHERE otp_id = $1 AND event = 'delivered' AND detail->>'message_id' = $2`, [
        otp.id,
        messageId,
      ]);
      if (logged.length > 0) return { outbox: { ids: [], jobs: [] } };
      const subject = { otpId: otp.id, companyId: otp.company_id, applicationId: otp.application_id, recipient: otp.recipient };
      await recordOtpEvent(manager, subject, 'delivered', at, { message_id: messageId });
      return commitJobs(this.outbox, manager, [otpEventJob(otp.id, 'otp.delivered', at, messageId)]);
    });
  }

  /**
   * The message carrying an OTP's code ended without reaching the handset (`status`: undelivered,
   * rejected, expired, or failed: it never reached a carrier). If it is still the OTP's latest
   * message (a resend has not replaced it) and the OTP was pending and valid when that happened,
   * the OTP becomes `failed` with the reason and the carrier's error code: logged (`failed` in
   * /otp/logs) and its `otp.failed` webhook event committed with it. A code sent for it no longer
   * verifies; a resend sends a new one. Anything else (a message that carries no OTP, a state
   * that does not fail one, a replay) does nothing.
   */
  async messageFailed(messageId: string, status: string, at: Date): Promise<Committed> {
    const reason = otpFailureOf(status);
    if (reason === null) return { outbox: { ids: [], jobs: [] } };
    return this.db.transaction(async (manager) => {
      const rows: { id: string; company_id: string; application_id: string; recipient: string; error_code: string | null }[] = await manager.query(
        `SELECT o.id, o.company_id, o.application_id, o.recipient, m.error_code
         FROM messages m JOIN otps o ON o.id = m.otp_id
         WHERE m.id = $1 AND o.message_id = m.id AND o.status = 'pending' AND o.expires_at > $2
         FOR UPDATE OF o`,
        [messageId, at],
      );
      if (rows.length === 0) return { outbox: { ids: [], jobs: [] } };
      const [otp] = rows;
      const failure: OtpFailure = { reason, errorCode: otp.error_code };
      await manager.query(`UPDATE otps SET status = 'failed', failure_reason = $2, error_code = $3, updated_at = $4 WHERE id = $1`, [
        otp.id,
        reason,
        failure.errorCode,
        at,
      ]);
      const subject = { otpId: otp.id, companyId: otp.company_id, applicationId: otp.application_id, recipient: otp.recipient };
      await recordOtpEvent(manager, subject, 'failed', at, { message_id: messageId, reason, error_code: failure.errorCode });
      return commitJobs(this.outbox, manager, [otpEventJob(otp.id, 'otp.failed', at, messageId, failure)]);
    });
  }

  /**
   * Pending OTPs past their expiry become `expired` (logged, and their webhook event committed),
   * so /otp/list and webhooks tell the truth without waiting for someone to try the code.
   */
  async expireDue(now: Date, limit = 500): Promise<Committed & { expired: number }> {
    return this.db.transaction(async (manager) => {
      const expired: { id: string; company_id: string; application_id: string; recipient: string; message_id: string }[] = await manager.query(
        `WITH due AS (
           SELECT id FROM otps WHERE status = 'pending' AND expires_at <= $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED),
         done AS (
           UPDATE otps o SET status = 'expired', updated_at = $1 FROM due WHERE o.id = due.id
           RETURNING o.id, o.company_id, o.application_id, o.recipient, o.message_id)
         SELECT * FROM done`,
        [now, limit],
      );
      for (const otp of expired) {
        await recordOtpEvent(
          manager,
          { otpId: otp.id, companyId: otp.company_id, applicationId: otp.application_id, recipient: otp.recipient },
          'expired',
          now,
        );
      }
      const committed = await commitJobs(
        this.outbox,
        manager,
        expired.map((otp) => otpEventJob(otp.id, 'otp.expired', now, otp.message_id)),
      );
      return { ...committed, expired: expired.length };
    });
  }

  /** The language of the OTP a message carries (the Cloud API template's), or null when it carries none. */
  async languageOfMessage(messageId: string): Promise<string | null> {
    const rows: { lang: string }[] = await this.db.query(`SELECT o.lang FROM otps o JOIN messages m ON m.otp_id = o.id WHERE m.id = $1`, [messageId]);
    return rows[0]?.lang ?? null;
  }
}
