import { findPrice, type Money, type PriceRoute, type PriceRule } from '@mp/billing-domain';
import { splitSms, type SmsEncoding } from '@mp/messaging-domain';
import {
  InsufficientBalanceError,
  LedgerRepository,
  MessageRepository,
  OutboxRepository,
  type NewMessage,
  type OutboxJob,
} from '@mp/persistence';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { userMessageReferences } from './part-references';

export type SmsRoute = Exclude<PriceRoute, 'whatsapp'>;

export interface SmsSendCommand {
  companyId: string;
  sender: string;
  route: SmsRoute;
  body: string;
  /** Valid E.164 numbers, already deduplicated, in request order. */
  recipients: readonly string[];
  reference: string | null;
  webhookUrl: string | null;
  scheduledAt: Date | null;
}

export interface AcceptedMessage {
  messageId: string;
  to: string;
  parts: number;
  cost: Money;
}

export interface SmsAcceptance {
  requestId: string;
  encoding: SmsEncoding;
  messages: AcceptedMessage[];
  totalCost: Money;
  /** The balance right after this charge. */
  balance: Money;
  status: 'queued' | 'scheduled';
  /** Outbox rows committed with the messages, to enqueue now and mark. */
  outbox: { ids: string[]; jobs: OutboxJob[] };
}

export class NoPriceError extends Error {
  constructor(readonly recipient: string, readonly route: string) {
    super(`No price is set for ${recipient} on route ${route}`);
    this.name = 'NoPriceError';
  }
}

/** The balance does not cover the send: nothing was stored, queued or charged. */
export class SendNotAffordableError extends Error {
  constructor(readonly balance: Money, readonly cost: Money) {
    super('Insufficient balance');
    this.name = 'SendNotAffordableError';
  }
}

/** Builds the queue job for a message; the caller decides which queue and job (contracts live there). */
export type DispatchJobFactory = (messageId: string, notBefore: Date) => Omit<OutboxJob, 'notBefore'>;

/**
 * Accepts a send: prices every recipient, then in ONE transaction debits the balance (never below
 * zero, one ledger entry for the request), inserts the messages with their parts, and the outbox
 * jobs that will dispatch them. Either all of it is committed or none of it.
 */
export class SmsAcceptanceService {
  private readonly ledger: LedgerRepository;
  private readonly messages: MessageRepository;
  private readonly outbox: OutboxRepository;

  constructor(private readonly db: DataSource) {
    this.ledger = new LedgerRepository(db);
    this.messages = new MessageRepository(db);
    this.outbox = new OutboxRepository(db);
  }

  async accept(command: SmsSendCommand, prices: readonly PriceRule[], dispatchJob: DispatchJobFactory): Promise<SmsAcceptance> {
    const split = splitSms(command.body);
    const requestId = randomUUID();
    const status = command.scheduledAt ? 'scheduled' : 'queued';
    const notBefore = command.scheduledAt ?? new Date();
    const rows: NewMessage[] = command.recipients.map((recipient) => {
      const rule = findPrice(prices, recipient, command.route);
      if (!rule) throw new NoPriceError(recipient, command.route);
      const id = randomUUID();
      const parts = split.parts.length;
      return {
        id,
        companyId: command.companyId,
        requestId,
        route: command.route,
        sender: command.sender,
        recipient,
        body: command.body,
        encoding: split.encoding,
        parts,
        pricePerPart: rule.price,
        cost: rule.price * BigInt(parts),
        reference: command.reference,
        webhookUrl: command.webhookUrl,
        status,
        scheduledAt: command.scheduledAt,
        partReferences: userMessageReferences(id, parts),
      };
    });
    const totalCost = rows.reduce((sum, row) => sum + row.cost, 0n);
    const jobs: OutboxJob[] = rows.map((row) => ({ ...dispatchJob(row.id, notBefore), notBefore }));
    const { balance, ids } = await this.db
      .transaction(async (manager) => {
        const after = await this.ledger.apply(
          { companyId: command.companyId, kind: 'charge', amount: -totalCost, reference: `sms-request:${requestId}` },
          manager,
        );
        await this.messages.insertMany(manager, rows);
        return { balance: after, ids: await this.outbox.insertMany(manager, jobs) };
      })
      .catch((error: unknown) => {
        if (error instanceof InsufficientBalanceError) throw new SendNotAffordableError(error.balance, totalCost);
        throw error;
      });
    return {
      requestId,
      encoding: split.encoding,
      messages: rows.map((row) => ({ messageId: row.id, to: row.recipient, parts: row.parts, cost: row.cost })),
      totalCost,
      balance,
      status,
      outbox: { ids, jobs },
    };
  }
}
