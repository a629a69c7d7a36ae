import type { ApplicationSettings } from '@mp/accounts-domain';
import { formatMoney, type Money, type PriceRule } from '@mp/billing-domain';
import { expiresAt, generateOtpCode, hashOtpCode, type OtpChannel } from '@mp/otp-domain';
import { MessageRepository, type OutboxJob } from '@mp/persistence';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { chargeOtp } from './otp-charge';
import { recordOtpEvent, type OtpSubject } from './otp-journal';
import { composeOtpMessage, otpDeliveryJob, type OtpKeys, type OtpTextSpec } from './otp-message';
import { refuseIfBlocked } from './otp-recipient-lock';

export { otpDeliveryJob, type OtpKeys } from './otp-message';

export interface OtpSendCommand {
  companyId: string;
  application: { id: string; name: string; settings: ApplicationSettings };
  /** E.164, already parsed. */
  recipient: string;
  channel: OtpChannel;
  sender: string;
  codeLength: number;
  /** The caller's own code, already checked (4 to 8 digits); null to generate one. */
  code: string | null;
  templateText: string;
  lang: string;
  customVars: Record<string, string | number | boolean>;
  /** Overrides the application's validity (1 to 60). */
  expiryMinutes: number | null;
}

export interface OtpSent {
  verificationId: string;
  recipient: string;
  channel: OtpChannel;
  expiresAt: Date;
  cost: Money;
  balance: Money;
  outbox: { ids: string[]; jobs: OutboxJob[] };
}

/**
 * Creates an OTP and the message that carries it, in ONE transaction: refused while the recipient
 * is blocked, charged (never below zero), the code stored only as its keyed hash, the text sealed
 * in the message row with its dispatch job. The plain code leaves this class only sealed.
 */
export class OtpSender {
  constructor(
    private readonly db: DataSource,
    private readonly keys: OtpKeys,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async send(command: OtpSendCommand, prices: readonly PriceRule[]): Promise<OtpSent> {
    const now = this.now();
    const verificationId = randomUUID();
    const code = command.code ?? generateOtpCode(command.codeLength);
    const expiryMinutes = command.expiryMinutes ?? command.application.settings.otp_validity_minutes;
    const spec: OtpTextSpec = { ...command, verificationId, expiresAt: expiresAt(now, expiryMinutes), expiryMinutes };
    const message = composeOtpMessage(spec, code, prices, this.keys.text);
    const subject: OtpSubject = { otpId: verificationId, companyId: command.companyId, applicationId: command.application.id, recipient: command.recipient };
    return this.db.transaction(async (manager) => {
      await refuseIfBlocked(manager, command.application.id, command.recipient, now);
      const balance = await chargeOtp(this.db, manager, command.companyId, message.cost, `otp:${verificationId}`);
      const jobs = [otpDeliveryJob(command.channel, message.id, now)];
      const ids = await new MessageRepository(this.db).insertWithJobs(manager, [message], jobs);
      await manager.query(
        `INSERT INTO otps (id, company_id, application_id, recipient, channel, sender, lang, code_length, code_hash, expires_at,
           last_sent_at, message_id, cost, template_text, custom_vars, expiry_minutes, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $11)`,
        [
          verificationId, command.companyId, command.application.id, command.recipient, command.channel, command.sender, command.lang,
          code.length, hashOtpCode(this.keys.hash, verificationId, code), spec.expiresAt, now, message.id, formatMoney(message.cost),
          command.templateText, JSON.stringify(command.customVars), expiryMinutes,
        ],
      );
      await recordOtpEvent(manager, subject, 'sent', now, { channel: command.channel });
      return { verificationId, recipient: command.recipient, channel: command.channel, expiresAt: spec.expiresAt, cost: message.cost, balance, outbox: { ids, jobs } };
    });
  }
}
