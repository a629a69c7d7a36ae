import type { ApplicationSettings } from '@mp/accounts-domain';
import { GroupCommit, InFlight } from '@mp/batching';
import type { LedgerRepository } from '@mp/billing';
import type { Money, PriceRule } from '@mp/billing-domain';
import { committedCharge, isOutcomeUnknown, type MessageRepository } from '@mp/messaging';
import { parsePhoneNumber } from '@mp/messaging-domain';
import { expiresAt, generateOtpCode, hashOtpCode, type OtpChannel } from '@mp/otp-domain';
import { timeOrderedUuid } from '@mp/persistence';
import type { OutboxJob } from '@mp/queue-runtime';
import type { DataSource } from 'typeorm';
import { composeOtpMessage, type OtpKeys, type OtpTextSpec } from './otp-message';
import { chargeOf, writeOtpSends, type PreparedOtp } from './otp-send-writer';

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
  /** The language of the text (what `{{lang}}` shows; on WhatsApp, that of Meta's template): see otpTemplateText. */
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
}

/** An OTP send about to be committed: its answer but the balance, which its ledger charge `chargeReference` will hold. */
export type PendingOtp = Omit<OtpSent, 'balance'> & { chargeReference: string };

/** Called with an OTP send before it is committed (an Idempotency-Key's answer is recorded then); a throw refuses the send. */
export type BeforeOtpCommit = (pending: PendingOtp) => Promise<void>;

function pendingOtp(command: OtpSendCommand, prepared: PreparedOtp): Omit<OtpSent, 'balance'> {
  return { verificationId: prepared.id, recipient: command.recipient, channel: command.channel, expiresAt: prepared.expiresAt, cost: prepared.message.cost };
}

/** Called once per committed group with its outbox rows, to enqueue them (the sweeper covers a failure). */
export type OnOtpCommitted = (outbox: { ids: string[]; jobs: OutboxJob[] }) => Promise<unknown>;

export interface OtpSenderOptions {
  now?: () => Date;
  onCommitted?: OnOtpCommitted;
  /** Sends one transaction carries at most. */
  maxBatch?: number;
}

/**
 * Creates OTPs and the messages that carry them. The code is generated here, hashed, and sealed
 * into the message at once; sends that arrive together are then written by one transaction (see
 * writeOtpSends): refused while the recipient is blocked, charged (never below zero), stored.
 * The plain code leaves this class only sealed.
 */
export class OtpSender {
  private readonly now: () => Date;
  private readonly batcher: GroupCommit<PreparedOtp, { balance: Money }>;
  private readonly relays = new InFlight();

  constructor(
    private readonly db: DataSource,
    messages: MessageRepository,
    ledger: LedgerRepository,
    private readonly keys: OtpKeys,
    options: OtpSenderOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    const onCommitted = options.onCommitted;
    this.batcher = new GroupCommit(
      async (sends) => {
        const written = await writeOtpSends(db, messages, ledger, sends);
        // Not awaited: the answer does not wait for Redis (the outbox already holds the jobs).
        if (onCommitted && written.outbox.jobs.length > 0) this.relays.track(onCommitted(written.outbox));
        return written.outcomes;
      },
      // One group in flight: a group holds the balance row from its charge to its COMMIT, so a
      // second one in flight mostly waited for it, and the groups were smaller. Each group then
      // waits for company after the previous commit (or after its first send when none was in
      // flight): twice as long as the previous group took to write, at most 4 ms, and not at
      // all when its first send came alone, over 4 ms after the one before it. Each group costs
      // a transaction, a queue job and the dispatcher's rounds for it, whatever its size; the cap
      // bounds what a send arriving just after a group left waits (the flush, the linger and its
      // own flush) (docs/decisions/0031-otp-group-linger.md).
      { maxBatch: options.maxBatch ?? 200, concurrency: 1, lingerMs: 4, lingerOnlyInBursts: true, lingerTimesLastFlush: 2 },
    );
  }

  /** Throws OtpBlockedError, OtpNotAffordableError or OtpNoPriceError when the send is refused. */
  async send(command: OtpSendCommand, prices: readonly PriceRule[], beforeCommit?: BeforeOtpCommit): Promise<OtpSent> {
    const prepared = this.prepare(command, prices);
    if (beforeCommit) await beforeCommit({ ...pendingOtp(command, prepared), chargeReference: chargeOf(prepared).reference });
    const balance = await this.batcher.submit(prepared).then(
      (written) => written.balance,
      (error: unknown) => this.committedDespite(error, prepared),
    );
    return { ...pendingOtp(command, prepared), balance };
  }

  /** A group whose statement lost its connection may have committed: the send is accepted if its charge is in the ledger (see commit-verification). */
  private async committedDespite(error: unknown, prepared: PreparedOtp): Promise<Money> {
    if (!isOutcomeUnknown(error)) throw error;
    const balance = await committedCharge(this.db, chargeOf(prepared));
    if (balance === null || balance === undefined) throw error;
    return balance;
  }

  /** Resolves when every send is committed and its jobs handed to the queue (shutdown). */
  async idle(): Promise<void> {
    await this.batcher.idle();
    await this.relays.settled();
  }

  private prepare(command: OtpSendCommand, prices: readonly PriceRule[]): PreparedOtp {
    const now = this.now();
    const id = timeOrderedUuid();
    const code = command.code ?? generateOtpCode(command.codeLength);
    const expiryMinutes = command.expiryMinutes ?? command.application.settings.otp_validity_minutes;
    const spec: OtpTextSpec = { ...command, verificationId: id, expiresAt: expiresAt(now, expiryMinutes), expiryMinutes };
    const message = composeOtpMessage(spec, code, prices, this.keys.text);
    return {
      id,
      companyId: command.companyId,
      applicationId: command.application.id,
      recipient: command.recipient,
      // Kept for the verification analytics by country: the numbering plan's compiled patterns
      // tell it in under a microsecond (0004), cheaper than reading it back from every number.
      country: recipientCountry(command.recipient),
      channel: command.channel,
      sender: command.sender,
      lang: command.lang,
      codeLength: code.length,
      codeHash: hashOtpCode(this.keys.hash, id, code),
      expiresAt: spec.expiresAt,
      sentAt: now,
      templateText: command.templateText,
      customVars: command.customVars,
      expiryMinutes,
      message,
    };
  }
}

/** The recipient's country (ISO 3166-1 alpha-2) by the numbering plan; null for a non-geographic number. */
export function recipientCountry(e164: string): string | null {
  const parsed = parsePhoneNumber(e164);
  return parsed.ok ? parsed.country : null;
}
