import { resolveApplicationSettings, type ApplicationSettings } from '@mp/accounts-domain';
import type { LedgerRepository } from '@mp/billing';
import { formatMoney, type PriceRule } from '@mp/billing-domain';
import { checkResend, expiresAt, generateOtpCode, hashOtpCode, resendableAfterFailure, type OtpChannel, type OtpFailureReason } from '@mp/otp-domain';
import type { MessageRepository } from '@mp/messaging';
import type { DataSource, EntityManager } from 'typeorm';
import { chargeOtp } from './otp-charge';
import { OtpNotFoundError, OtpNotResendableError, OtpResendRefusedError } from './otp-errors';
import { recordOtpEvent, type OtpSubject } from './otp-journal';
import { findOtp, type FoundOtp, type OtpTarget } from './otp-lookup';
import { composeOtpMessage, otpDeliveryJob, type OtpKeys } from './otp-message';
import { refuseIfBlocked } from './otp-recipient-lock';
import type { OnOtpCommitted, OtpSent } from './otp-sender';

interface ResendRow {
  id: string;
  company_id: string;
  application_id: string;
  app_name: string;
  app_settings: Partial<ApplicationSettings>;
  recipient: string;
  channel: OtpChannel;
  sender: string;
  lang: string;
  code_length: number;
  status: string;
  failure_reason: OtpFailureReason | null;
  resends: number;
  last_sent_at: Date;
  template_text: string;
  custom_vars: Record<string, string | number | boolean>;
  expiry_minutes: number;
}

export interface OtpResenderOptions {
  now?: () => Date;
  /** Called after commit with the outbox rows of the new message's job, to enqueue them (the sweeper covers a failure). */
  onCommitted?: OnOtpCommitted;
}

/**
 * Sends an OTP again with a new code under the same verification id: the old code stops working,
 * the validity restarts, and it is charged like a send. Refused within 30 s of the last send, after
 * 5 resends, and while the recipient is blocked; a resend never resets the count of wrong codes.
 * A pending or expired OTP may be resent, and a failed one whose code never reached the handset
 * (it is pending again, its failure cleared); not one verified, cancelled, or failed on wrong codes.
 */
export class OtpResender {
  private readonly now: () => Date;
  private readonly onCommitted: OnOtpCommitted;

  constructor(
    private readonly db: DataSource,
    private readonly messages: MessageRepository,
    private readonly ledger: LedgerRepository,
    private readonly keys: OtpKeys,
    options: OtpResenderOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.onCommitted = options.onCommitted ?? (async () => undefined);
  }

  /**
   * The OTP a resend of `target` would send again (null: none of this company's), so that the
   * caller can check its recipient before any slot or charge is taken; then resend it by its id.
   */
  async find(companyId: string, target: OtpTarget): Promise<FoundOtp | null> {
    return findOtp(this.db.manager, companyId, target);
  }

  async resend(companyId: string, target: OtpTarget, prices: readonly PriceRule[]): Promise<OtpSent> {
    const { sent, outbox } = await this.write(companyId, target, prices);
    await this.onCommitted(outbox).catch(() => undefined);
    return sent;
  }

  private write(companyId: string, target: OtpTarget, prices: readonly PriceRule[]) {
    const now = this.now();
    return this.db.transaction(async (manager) => {
      const found = await findOtp(manager, companyId, target);
      if (!found) throw new OtpNotFoundError();
      await refuseIfBlocked(manager, found.application_id, found.recipient, now);
      const otp = await lockOtp(manager, found.id);
      if (!resendable(otp)) throw new OtpNotResendableError(otp.status, otp.failure_reason);
      const allowed = checkResend({ lastSentAt: new Date(otp.last_sent_at), resends: otp.resends, now });
      if (!allowed.ok) throw new OtpResendRefusedError(allowed.reason, allowed.reason === 'too-soon' ? allowed.retryAfterSeconds : null);
      const code = generateOtpCode(otp.code_length);
      const expiry = expiresAt(now, otp.expiry_minutes);
      const message = composeOtpMessage(
        {
          companyId,
          verificationId: otp.id,
          application: { name: otp.app_name, settings: resolveApplicationSettings(otp.app_settings) },
          recipient: otp.recipient,
          channel: otp.channel,
          sender: otp.sender,
          templateText: otp.template_text,
          lang: otp.lang,
          customVars: otp.custom_vars,
          expiresAt: expiry,
          expiryMinutes: otp.expiry_minutes,
        },
        code,
        prices,
        this.keys.text,
      );
      const jobs = [otpDeliveryJob(otp.channel, message.id, now)];
      const ids = await this.messages.insertWithJobs(manager, [message], jobs);
      await manager.query(
        `UPDATE otps SET code_hash = $2, expires_at = $3, status = 'pending', failure_reason = NULL, error_code = NULL, resends = resends + 1,
           last_sent_at = $4, message_id = $5, cost = cost + $6::numeric, updated_at = $4
         WHERE id = $1`,
        [otp.id, hashOtpCode(this.keys.hash, otp.id, code), expiry, now, message.id, formatMoney(message.cost)],
      );
      const subject: OtpSubject = { otpId: otp.id, companyId, applicationId: otp.application_id, recipient: otp.recipient };
      await recordOtpEvent(manager, subject, 'resent', now, { resend: otp.resends + 1 });
      // The balance row last: every send of the company waits for it, so it is held only for this
      // statement and the commit (an unaffordable send rolls everything above back).
      const balance = await chargeOtp(this.ledger, manager, companyId, message.cost, `otp:${otp.id}:resend:${otp.resends + 1}`);
      const sent: OtpSent = { verificationId: otp.id, recipient: otp.recipient, channel: otp.channel, expiresAt: expiry, cost: message.cost, balance };
      return { sent, outbox: { ids, jobs } };
    });
  }
}

function resendable(otp: ResendRow): boolean {
  return otp.status === 'pending' || otp.status === 'expired' || (otp.status === 'failed' && resendableAfterFailure(otp.failure_reason));
}

async function lockOtp(manager: EntityManager, id: string): Promise<ResendRow> {
  const rows: ResendRow[] = await manager.query(
    `SELECT o.id, o.company_id, o.application_id, a.name AS app_name, a.settings AS app_settings, o.recipient, o.channel, o.sender,
       o.lang, o.code_length, o.status, o.failure_reason, o.resends, o.last_sent_at, o.template_text, o.custom_vars, o.expiry_minutes
     FROM otps o JOIN applications a ON a.id = o.application_id
     WHERE o.id = $1 FOR UPDATE OF o`,
    [id],
  );
  return rows[0];
}
