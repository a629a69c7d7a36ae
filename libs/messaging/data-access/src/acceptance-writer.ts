import type { ItemOutcome } from '@mp/batching';
import { isUncoveredCharge, LedgerRepository, UnknownCompanyError, type DecidedCharge, type GroupCharge } from '@mp/billing';
import { balancesAfterEach, planCharges, type ChargeDecision, type Money } from '@mp/billing-domain';
import type { OutboxJob } from '@mp/queue-runtime';
import type { DataSource, EntityManager } from 'typeorm';
import { dispatchJobsFor } from './dispatch-jobs';
import { MessageRepository } from './message.repository';
import type { PreparedSend } from './send-preparation';

/** The balance does not cover the send: nothing was stored, queued or charged. */
export class SendNotAffordableError extends Error {
  constructor(
    readonly balance: Money,
    readonly cost: Money,
  ) {
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
 * Charges and stores many sends at once. Either a send is wholly committed (its messages, parts,
 * dispatch jobs and one ledger entry) or not at all.
 *
 * Most groups fit their balances, and go as ONE statement in autocommit (one round trip; the
 * balance rows, which concurrent groups queue on, are locked only to its end): the inserts, and
 * each company's balance debited by its sends' total. If a balance does not cover its group
 * total, that statement fails and writes nothing, and the group is written again charge by
 * charge in a transaction with the balances locked first, each send refused alone if what is
 * left does not cover it.
 */
export async function writeAcceptances(
  db: DataSource,
  messages: MessageRepository,
  ledger: LedgerRepository,
  sends: readonly PreparedSend[],
): Promise<WrittenAcceptances> {
  try {
    return await writeAllCharged(db.manager, messages, sends);
  } catch (error) {
    if (!isUncoveredCharge(error)) throw error;
    return db.transaction((manager) => writeLockedAcceptances(manager, ledger, messages, sends));
  }
}

async function writeAllCharged(manager: EntityManager, messages: MessageRepository, sends: readonly PreparedSend[]): Promise<WrittenAcceptances> {
  const rows = sends.flatMap((send) => send.rows);
  const jobs = dispatchJobsFor(rows);
  const charges = sends.map(chargeOf);
  const written = await messages.insertWithJobsCharging(manager, rows, jobs, charges);
  const balances = balancesAfterEach(charges, written.balances);
  return { outcomes: balances.map((balance) => ({ ok: true, value: { balance } })), outbox: { ids: written.outboxIds, jobs } };
}

/**
 * Writes sends charge by charge in the caller's transaction, with the balances locked first: each
 * send refused alone (its outcome) if what is left does not cover it.
 */
export async function writeLockedAcceptances(
  manager: EntityManager,
  ledger: LedgerRepository,
  messages: MessageRepository,
  sends: readonly PreparedSend[],
): Promise<WrittenAcceptances> {
  const charges = sends.map(chargeOf);
  const plan = planCharges(
    await ledger.readBalances(
      manager,
      charges.map((c) => c.companyId),
      { lock: true },
    ),
    charges,
  );
  const accepted = sends.filter((_, i) => plan.decisions[i].ok);
  const rows = accepted.flatMap((send) => send.rows);
  const jobs = dispatchJobsFor(rows);
  const outboxIds = rows.length > 0 ? await messages.insertWithJobs(manager, rows, jobs) : [];
  await ledger.writeCharges(
    manager,
    chargesToWrite(
      accepted,
      plan.decisions.filter((d) => d.ok),
    ),
    plan.balancesAfter,
  );
  return { outcomes: sends.map((send, i) => outcomeOf(send, plan.decisions[i])), outbox: { ids: outboxIds, jobs } };
}

export function chargeOf(send: PreparedSend): GroupCharge {
  return { companyId: send.companyId, amount: send.totalCost, reference: `sms-request:${send.requestId}` };
}

function chargesToWrite(accepted: readonly PreparedSend[], decisions: readonly ChargeDecision[]): DecidedCharge[] {
  return accepted.map((send, i) => {
    const decision = decisions[i];
    if (!decision.ok) throw new Error('only accepted sends are written');
    return { ...chargeOf(send), balanceAfter: decision.balanceAfter };
  });
}

function outcomeOf(send: PreparedSend, decision: ChargeDecision): ItemOutcome<{ balance: Money }> {
  if (decision.ok) return { ok: true, value: { balance: decision.balanceAfter } };
  if (decision.reason === 'unknown-company') return { ok: false, error: new UnknownCompanyError(send.companyId) };
  return { ok: false, error: new SendNotAffordableError(decision.balance, send.totalCost) };
}
