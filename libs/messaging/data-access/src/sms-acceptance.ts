import { GroupCommit, InFlight } from '@mp/batching';
import type { LedgerRepository } from '@mp/billing';
import type { Money, PriceRule } from '@mp/billing-domain';
import type { SmsEncoding } from '@mp/messaging-domain';
import type { OutboxJob } from '@mp/queue-runtime';
import type { DataSource } from 'typeorm';
import { chargeOf, writeAcceptances } from './acceptance-writer';
import { COMMIT_VERIFICATION, committedCharge, isOutcomeUnknown, type VerificationOptions } from './commit-verification';
import type { MessageRepository } from './message.repository';
import { prepareSend, type PreparedSend, type SmsSendCommand } from './send-preparation';

export { SendNotAffordableError } from './acceptance-writer';
export { NoPriceError, type SmsRoute, type SmsSendCommand } from './send-preparation';

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
}

/** Called once per committed group with its outbox rows, to enqueue them (the sweeper covers a failure). */
export type OnCommitted = (outbox: { ids: string[]; jobs: OutboxJob[] }) => Promise<unknown>;

export interface SmsAcceptanceOptions {
  onCommitted?: OnCommitted;
  /** Sends one transaction carries at most. */
  maxBatch?: number;
  /**
   * Groups in flight at once (default 1). A group's statement holds its balance rows until it
   * commits, so a second group in flight mostly waits for the first, and one at a time each
   * group is bigger and cheaper per send (docs/decisions/0022-acceptance-in-one-statement.md).
   */
  concurrency?: number;
  /** How long a send whose statement lost its connection asks whether it committed. */
  verification?: VerificationOptions;
}

/** A send about to be committed: its answer but the balance, which its ledger charge `chargeReference` will hold. */
export type PendingAcceptance = Omit<SmsAcceptance, 'balance'> & { chargeReference: string };

/** Called with a send before it is committed (an Idempotency-Key's answer is recorded then); a throw refuses the send. */
export type BeforeCommit = (pending: PendingAcceptance) => Promise<void>;

function pendingAcceptance(send: PreparedSend): PendingAcceptance {
  return {
    requestId: send.requestId,
    encoding: send.encoding,
    messages: send.rows.map((row) => ({ messageId: row.id, to: row.recipient, parts: row.parts, cost: row.cost })),
    totalCost: send.totalCost,
    status: send.status,
    chargeReference: chargeOf(send).reference,
  };
}

/**
 * Accepts sends. Sends that arrive together are charged and stored by one transaction (a group
 * commit): one lock of the balance row and one commit for many requests, instead of one each,
 * which on a hot balance row is the difference between hundreds and thousands per second.
 */
export class SmsAcceptanceService {
  private readonly batcher: GroupCommit<PreparedSend, { balance: Money }>;
  private readonly relays = new InFlight();
  private readonly verification: VerificationOptions;

  constructor(
    private readonly db: DataSource,
    messages: MessageRepository,
    ledger: LedgerRepository,
    options: SmsAcceptanceOptions = {},
  ) {
    this.verification = options.verification ?? COMMIT_VERIFICATION;
    const onCommitted = options.onCommitted;
    this.batcher = new GroupCommit(
      async (sends) => {
        const written = await writeAcceptances(db, messages, ledger, sends);
        if (onCommitted && written.outbox.jobs.length > 0) this.relays.track(onCommitted(written.outbox));
        return written.outcomes;
      },
      { maxBatch: options.maxBatch ?? 256, concurrency: options.concurrency ?? 1 },
    );
  }

  /**
   * Prices and splits first (throwing SmsTextError or NoPriceError before anything is stored),
   * then charges and stores with the group. Throws SendNotAffordableError if the balance, at
   * this send's turn, does not cover it.
   */
  async accept(command: SmsSendCommand, prices: readonly PriceRule[], beforeCommit?: BeforeCommit): Promise<SmsAcceptance> {
    const send = prepareSend(command, prices);
    if (beforeCommit) await beforeCommit(pendingAcceptance(send));
    const balance = await this.batcher.submit(send).then(
      (written) => written.balance,
      (error: unknown) => this.committedDespite(error, send),
    );
    return {
      requestId: send.requestId,
      encoding: send.encoding,
      messages: send.rows.map((row) => ({ messageId: row.id, to: row.recipient, parts: row.parts, cost: row.cost })),
      totalCost: send.totalCost,
      balance,
      status: send.status,
    };
  }

  /**
   * The group's statement failed. If its connection was lost while it ran, it may have committed:
   * the send is accepted if its charge is in the ledger (its jobs are in the outbox, which the
   * dispatcher's sweeper enqueues), refused with the error if not, and refused too if the
   * database does not answer in time.
   */
  private async committedDespite(error: unknown, send: PreparedSend): Promise<Money> {
    if (!isOutcomeUnknown(error)) throw error;
    const balance = await committedCharge(this.db, chargeOf(send), this.verification);
    if (balance === null || balance === undefined) throw error;
    return balance;
  }

  /** Resolves when every accepted send is committed and its jobs handed to the queue (shutdown). */
  async idle(): Promise<void> {
    await this.batcher.idle();
    await this.relays.settled();
  }
}
