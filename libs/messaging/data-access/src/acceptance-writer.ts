import type { ItemOutcome } from '@mp/batching';
import type { Money } from '@mp/billing-domain';
import { InsufficientBalanceError, LedgerRepository, MessageRepository, OutboxRepository, type OutboxJob } from '@mp/persistence';
import type { DataSource } from 'typeorm';
import { dispatchJobsFor } from './dispatch-jobs';
import type { PreparedSend } from './send-preparation';

/** The balance does not cover the send: nothing was stored, queued or charged. */
export class SendNotAffordableError extends Error {
  constructor(readonly balance: Money, readonly cost: Money) {
    super('Insufficient balance');
    this.name = 'SendNotAffordableError';
  }
}

export interface WrittenAcceptances {
  /** Per send, in order: the balance right after its charge, or why it was refused. */
  outcomes: ItemOutcome<{ balance: Money }>[];
  /** Outbox rows committed with the messages, to enqueue now and mark. */
  outbox: { ids: string[]; jobs: OutboxJob[] };
}

/**
 * Charges and stores many sends in ONE transaction: the balances are locked once, each send is
 * charged from a running balance (one ledger entry per request), and the messages, their parts
 * and their dispatch jobs go in with multi-row inserts. A send the balance cannot cover is
 * refused alone; the others commit. Either a send is wholly committed or not at all.
 */
export async function writeAcceptances(db: DataSource, sends: readonly PreparedSend[]): Promise<WrittenAcceptances> {
  const ledger = new LedgerRepository(db);
  const messages = new MessageRepository(db);
  const outbox = new OutboxRepository(db);
  return db.transaction(async (manager) => {
    const charges = await ledger.chargeMany(
      manager,
      sends.map((send) => ({ companyId: send.companyId, amount: send.totalCost, reference: `sms-request:${send.requestId}` })),
    );
    const outcomes = charges.map((charge, i): ItemOutcome<{ balance: Money }> => {
      if (charge.ok) return { ok: true, value: { balance: charge.balanceAfter } };
      const error = charge.error instanceof InsufficientBalanceError ? new SendNotAffordableError(charge.error.balance, sends[i].totalCost) : charge.error;
      return { ok: false, error };
    });
    const rows = sends.filter((_, i) => charges[i].ok).flatMap((send) => send.rows);
    if (rows.length === 0) return { outcomes, outbox: { ids: [], jobs: [] } };
    await messages.insertMany(manager, rows);
    const jobs = dispatchJobsFor(rows);
    return { outcomes, outbox: { ids: await outbox.insertMany(manager, jobs), jobs } };
  });
}
