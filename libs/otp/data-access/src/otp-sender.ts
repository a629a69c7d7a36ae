import type { ApplicationSettings } from '@mp/accounts-domain';
import { findPrice, formatMoney, type Money, type PriceRule } from '@mp/billing-domain';
import { splitSms } from '@mp/messaging-domain';
import { userMessageReferences } from '@mp/messaging';
import {
  expiresAt,
  generateOtpCode,
  hashOtpCode,
  otpTemplateVariables,
  renderOtpTemplate,
  retryAfterSeconds,
  sealText,
  type OtpChannel,
} from '@mp/otp-domain';
import { InsufficientBalanceError, LedgerRepository, MessageRepository, type NewMessage, type OutboxJob } from '@mp/persistence';
import { QueueName } from '@mp/queue-contracts';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { OtpBlockedError, OtpNoPriceError, OtpNotAffordableError } from './otp-errors';
import { recordOtpEvent, type OtpSubject } from './otp-journal';
import { lockRecipient, recipientBlockedUntil } from './otp-recipient-lock';

export interface OtpKeys {
  /** HMAC key of stored codes. */
  hash: Buffer;
  /** AES-256-GCM key of texts that carry a code. */
  text: Buffer;
}

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

/** The job that submits an OTP text: the OTP queue, so codes never wait behind campaigns. */
export function otpDispatchJob(messageId: string, at: Date): OutboxJob {
  return { queue: QueueName.OtpDispatch, jobName: 'sms.submit', jobId: `otp-${messageId}`, data: { messageIds: [messageId] }, notBefore: at, priority: null };
}

/**
 * Creates an OTP and the message that carries it, in ONE transaction: refused while the recipient
 * is blocked, charged (never below zero), the code stored only as its keyed hash, the text sealed
 * in the message row and its dispatch job. The plain code leaves this function only inside the
 * sealed text.
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
    const minutes = command.expiryMinutes ?? command.application.settings.otp_validity_minutes;
    const expiry = expiresAt(now, minutes);
    const text = renderOtpTemplate(
      command.templateText,
      otpTemplateVariables({
        code,
        appName: command.application.name,
        expiresAt: expiry,
        expiryMinutes: minutes,
        timeZone: command.application.settings.timezone,
        recipient: command.recipient,
        channel: command.channel,
        lang: command.lang,
        customVars: command.customVars,
      }),
    );
    const message = this.messageFor(command, verificationId, text, prices);
    const subject: OtpSubject = { otpId: verificationId, companyId: command.companyId, applicationId: command.application.id, recipient: command.recipient };
    return this.db.transaction(async (manager) => {
      await this.refuseIfBlocked(manager, subject, now);
      const balance = await this.charge(manager, command.companyId, message.cost, verificationId);
      const jobs = [otpDispatchJob(message.id, now)];
      const ids = await new MessageRepository(this.db).insertWithJobs(manager, [message], jobs);
      await manager.query(
        `INSERT INTO otps (id, company_id, application_id, recipient, channel, sender, lang, code_length, code_hash, expires_at,
           last_sent_at, message_id, cost, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $11)`,
        [
          verificationId, command.companyId, command.application.id, command.recipient, command.channel, command.sender, command.lang,
          code.length, hashOtpCode(this.keys.hash, verificationId, code), expiry, now, message.id, formatMoney(message.cost),
        ],
      );
      await recordOtpEvent(manager, subject, 'sent', now, { channel: command.channel });
      return { verificationId, recipient: command.recipient, channel: command.channel, expiresAt: expiry, cost: message.cost, balance, outbox: { ids, jobs } };
    });
  }

  /** The message that carries the code: priced per part (per message on WhatsApp), its text sealed. */
  private messageFor(command: OtpSendCommand, verificationId: string, text: string, prices: readonly PriceRule[]): NewMessage {
    const route = command.channel === 'whatsapp' ? 'whatsapp' : 'auto';
    const rule = findPrice(prices, command.recipient, route);
    if (!rule) throw new OtpNoPriceError(command.recipient, route);
    const split = splitSms(text);
    const parts = command.channel === 'whatsapp' ? 1 : split.parts.length;
    const id = randomUUID();
    return {
      id,
      companyId: command.companyId,
      requestId: verificationId,
      route,
      sender: command.sender,
      recipient: command.recipient,
      body: sealText(this.keys.text, text),
      encoding: split.encoding,
      parts,
      pricePerPart: rule.price,
      cost: rule.price * BigInt(parts),
      reference: null,
      webhookUrl: null,
      status: 'queued',
      scheduledAt: null,
      partReferences: userMessageReferences(id, parts),
      channel: command.channel,
      otpId: verificationId,
      bodySealed: true,
    };
  }

  private async refuseIfBlocked(manager: EntityManager, subject: OtpSubject, now: Date): Promise<void> {
    await lockRecipient(manager, subject.applicationId, subject.recipient);
    const until = await recipientBlockedUntil(manager, subject.applicationId, subject.recipient, now);
    if (until) throw new OtpBlockedError(until, retryAfterSeconds(until, now));
  }

  private async charge(manager: EntityManager, companyId: string, cost: Money, verificationId: string): Promise<Money> {
    try {
      return await new LedgerRepository(this.db).apply(
        { companyId, kind: 'charge', amount: -cost, reference: `otp:${verificationId}`, description: 'OTP send' },
        manager,
      );
    } catch (error) {
      if (error instanceof InsufficientBalanceError) throw new OtpNotAffordableError(error.balance, cost);
      throw error;
    }
  }
}
