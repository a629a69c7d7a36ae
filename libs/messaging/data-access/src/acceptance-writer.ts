import type { ItemOutcome } from '@mp/batching';
import { planCharges, type ChargeDecision, type Money } from '@mp/billing-domain';
import { LedgerRepository, MessageRepository, UnknownCompanyError, type DecidedCharge, type OutboxJob } from '@mp/persistence';
import type { DataSource, EntityManager } from 'typeorm';
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

/** The balances moved between the unlocked read and the lock: the plan no longer holds. */
class BalanceMovedError extends Error {}

/**
 * Charges and stores many sends in ONE transaction: each send is charged from a running balance
 * (one ledger entry per request) and refused alone if it does not fit; the messages, their parts
 * and their dispatch jobs go in with one multi-row statement. Either a send is wholly committed
 * or not at all.
 *
 * The balance rows are what concurrent transactions queue on, so they are locked as late as
 * possible: the charges are planned from an unlocked read, then the statement that inserts the
 * rows also locks the balances, and the plan is checked against them — the lock is held for that
 * statement's end, one more statement and the commit. If another transaction moved a balance so
 * that the plan no longer fits, the whole group is written again with the balances locked first.
 */
export async function writeAcceptances(db: DataSource, sends: readonly PreparedSend[]): Promise<WrittenAcceptances> {
  const writer = new AcceptanceWriter(db);
  try {
    return await db.transaction((manager) => writer.write(manager, sends, 'lock-late'));
  } catch (error) {
    if (!(error instanceof BalanceMovedError)) throw error;
    return db.transaction((manager) => writer.write(manager, sends, 'lock-first'));
  }
}

class AcceptanceWriter {
  private readonly ledger: LedgerRepository;
  private readonly messages: MessageRepository;

  constructor(db: DataSource) {
    this.ledger = new LedgerRepository(db);
    this.messages = new MessageRepository(db);
  }

  async write(manager: EntityManager, sends: readonly PreparedSend[], mode: 'lock-late' | 'lock-first'): Promise<WrittenAcceptances> {
    const companyIds = sends.map((send) => send.companyId);
    const charges = sends.map((send) => ({ companyId: send.companyId, amount: send.totalCost }));
    const plan = planCharges(await this.ledger.readBalances(manager, companyIds, { lock: mode === 'lock-first' }), charges);
    const accepted = sends.filter((_, i) => plan.decisions[i].ok);
    const rows = accepted.flatMap((send) => send.rows);
    const jobs = dispatchJobsFor(rows);
    let decisions = plan.decisions;
    let balancesAfter = plan.balancesAfter;
    // The insert statement also locks the balances: late, that saves a statement of its own
    // (lock-first holds them already).
    const inserted = rows.length > 0 ? await this.messages.insertWithJobsLockingBalances(manager, rows, jobs, companyIds) : null;
    if (inserted && mode === 'lock-late') {
      const locked = planCharges(inserted.balances, charges.filter((_, i) => plan.decisions[i].ok));
      if (locked.decisions.some((decision) => !decision.ok)) throw new BalanceMovedError();
      decisions = mergeDecisions(plan.decisions, locked.decisions);
      balancesAfter = locked.balancesAfter;
    }
    await this.ledger.writeCharges(manager, chargesToWrite(accepted, decisions.filter((d) => d.ok)), balancesAfter);
    return { outcomes: sends.map((send, i) => outcomeOf(send, decisions[i])), outbox: { ids: inserted?.outboxIds ?? [], jobs } };
  }
}

/** The planned refusals, with the accepted ones' balances as the locked rows make them. */
function mergeDecisions(planned: readonly ChargeDecision[], locked: readonly ChargeDecision[]): ChargeDecision[] {
  let next = 0;
  return planned.map((decision) => (decision.ok ? locked[next++] : decision));
}

function chargesToWrite(accepted: readonly PreparedSend[], decisions: readonly ChargeDecision[]): DecidedCharge[] {
  return accepted.map((send, i) => {
    const decision = decisions[i];
    if (!decision.ok) throw new Error('only accepted sends are written');
    return { companyId: send.companyId, amount: send.totalCost, balanceAfter: decision.balanceAfter, reference: `sms-request:${send.requestId}` };
  });
}

function outcomeOf(send: PreparedSend, decision: ChargeDecision): ItemOutcome<{ balance: Money }> {
  if (decision.ok) return { ok: true, value: { balance: decision.balanceAfter } };
  if (decision.reason === 'unknown-company') return { ok: false, error: new UnknownCompanyError(send.companyId) };
  return { ok: false, error: new SendNotAffordableError(decision.balance, send.totalCost) };
}
