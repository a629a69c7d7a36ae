// What every fault test checks afterwards, and the figures it prints for the README's table:
// each accepted message in exactly one final state, nothing submitted twice, the money exact.
import { parseMoney } from '@mp/billing-domain';
import type { Client } from 'pg';
import { FINAL_STATES, ledgerTotals, messagesWithTwoFinalEvents, wrongCopies, type Handset, type SimulatorStats } from '../../support/dispatcher-fault';
import type { Accepted } from './load';
import { waitFor } from './load';

export interface Settled {
  /** Messages of the company by status. */
  byStatus: Record<string, number>;
  /** Messages the database holds for the company (a send committed twice would show here). */
  stored: number;
  notFinal: number;
  /** Accepted message ids the database does not hold. */
  missing: number;
}

export async function settledState(db: Client, companyId: string, accepted: Accepted[]): Promise<Settled> {
  const { rows } = await db.query<{ status: string; n: string }>(`SELECT status, count(*) AS n FROM messages WHERE company_id = $1 GROUP BY status`, [
    companyId,
  ]);
  const byStatus = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  const stored = Object.values(byStatus).reduce((a, b) => a + b, 0);
  const notFinal = rows.filter((r) => !FINAL_STATES.includes(r.status)).reduce((a, r) => a + Number(r.n), 0);
  const { rows: found } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM messages WHERE company_id = $1 AND id = ANY($2::uuid[])`, [
    companyId,
    accepted.map((a) => a.messageId),
  ]);
  return { byStatus, stored, notFinal, missing: accepted.length - Number(found[0].n) };
}

/** Waits until every message of the company is final (the database is read afresh each time). */
export async function waitUntilSettled(connect: () => Promise<Client>, companyId: string, accepted: Accepted[], timeoutMs: number): Promise<Settled> {
  let last: Settled | undefined;
  await waitFor(async () => {
    const db = await connect();
    try {
      last = await settledState(db, companyId, accepted);
      return last.notFinal === 0 && last.stored >= accepted.length;
    } finally {
      await db.end();
    }
  }, timeoutMs);
  if (!last) throw new Error('the database never answered');
  return last;
}

export interface Copies {
  /** Accepted messages delivered. */
  delivered: number;
  /** Numbers whose handset shows the text once. */
  once: number;
  /** Delivered messages whose handset shows anything but one copy of the text. */
  wrong: { to: string; copies: string[] }[];
  /** Messages not delivered (refused by the carrier) that a handset shows anyway. */
  undeliveredShown: number;
}

/** What the carrier's handsets show for the accepted messages, by their final status. */
export async function handsetCopies(db: Client, accepted: Accepted[], handsets: Handset[]): Promise<Copies> {
  const { rows } = await db.query<{ id: string; status: string }>(`SELECT id, status FROM messages WHERE id = ANY($1::uuid[])`, [
    accepted.map((a) => a.messageId),
  ]);
  const status = new Map(rows.map((r) => [r.id, r.status]));
  const ours = new Set(accepted.map((a) => a.to));
  const received = handsets.filter((h) => ours.has(h.to));
  const delivered = accepted.filter((a) => status.get(a.messageId) === 'delivered');
  const notDelivered = new Set(accepted.filter((a) => status.get(a.messageId) !== 'delivered').map((a) => a.to));
  const wrong = wrongCopies(
    received.filter((h) => !notDelivered.has(h.to)),
    delivered,
  );
  return { delivered: delivered.length, once: delivered.length - wrong.length, wrong, undeliveredShown: received.filter((h) => notDelivered.has(h.to)).length };
}

export interface Money {
  start: string;
  charges: string;
  refunds: string;
  balance: string;
  /** balance === start − charges + refunds, to the unit, and the last ledger entry's running balance agrees. */
  exact: boolean;
  /** Charges equal the messages' costs, refunds their refunded amounts. */
  matchesMessages: boolean;
}

export async function moneyOf(db: Client, companyId: string): Promise<Money> {
  const ledger = await ledgerTotals(db, companyId);
  const { rows } = await db.query<{ cost: string; refunded: string }>(
    `SELECT coalesce(sum(cost), 0)::text AS cost, coalesce(sum(refunded), 0)::text AS refunded FROM messages WHERE company_id = $1`,
    [companyId],
  );
  const exact =
    parseMoney(ledger.balance) === parseMoney(ledger.start) - parseMoney(ledger.charges) + parseMoney(ledger.refunds) &&
    ledger.expected === ledger.balance &&
    ledger.last_balance_after === ledger.balance;
  const matchesMessages = parseMoney(rows[0].cost) === parseMoney(ledger.charges) && parseMoney(rows[0].refunded) === parseMoney(ledger.refunds);
  return { start: ledger.start, charges: ledger.charges, refunds: ledger.refunds, balance: ledger.balance, exact, matchesMessages };
}

export interface FaultFigures {
  fault: string;
  accepted: number;
  finalStates: Record<string, number>;
  notFinal: number;
  handsetsOnce: number;
  duplicatesAtHandsets: number;
  resubmitsDroppedByCarrier: number;
  answers: Record<string, number>;
  answersDuringFault: Record<string, unknown>;
  secondsToResume?: number;
  money: Pick<Money, 'start' | 'charges' | 'refunds' | 'balance' | 'exact'>;
  [more: string]: unknown;
}

/** One line the README's table is written from. */
export function printFigures(figures: FaultFigures): void {
  console.log(`FAULT FIGURES ${JSON.stringify(figures)}`);
}

export async function twoFinalEvents(db: Client, companyId: string): Promise<number> {
  return (await messagesWithTwoFinalEvents(db, { column: 'company_id', id: companyId })).length;
}

export type { SimulatorStats };
