import type { Money } from './money';

export interface PlannedCharge {
  companyId: string;
  /** Positive: what is taken from the balance. */
  amount: Money;
}

export type ChargeDecision =
  { ok: true; balanceAfter: Money } | { ok: false; reason: 'insufficient-balance'; balance: Money } | { ok: false; reason: 'unknown-company' };

/**
 * Takes charges, in order, from running balances: each is charged if what is left covers it,
 * and refused otherwise, leaving the balance to the charges after it. Returns one decision per
 * charge and the balances after all of them.
 */
export function planCharges(
  balances: ReadonlyMap<string, Money>,
  charges: readonly PlannedCharge[],
): { decisions: ChargeDecision[]; balancesAfter: Map<string, Money> } {
  const running = new Map(balances);
  const decisions = charges.map((charge): ChargeDecision => {
    const balance = running.get(charge.companyId);
    if (balance === undefined) return { ok: false, reason: 'unknown-company' };
    if (balance < charge.amount) return { ok: false, reason: 'insufficient-balance', balance };
    const balanceAfter = balance - charge.amount;
    running.set(charge.companyId, balanceAfter);
    return { ok: true, balanceAfter };
  });
  return { decisions, balancesAfter: running };
}

/** What each company's charges add up to, in the order the companies first appear. */
export function totalsByCompany(charges: readonly PlannedCharge[]): Map<string, Money> {
  const totals = new Map<string, Money>();
  for (const charge of charges) totals.set(charge.companyId, (totals.get(charge.companyId) ?? 0n) + charge.amount);
  return totals;
}

/**
 * The balance right after each charge, in order, when all of them were taken at once and left
 * `balancesAfter`: a charge's balance is the final one plus the company's charges after it.
 */
export function balancesAfterEach(charges: readonly PlannedCharge[], balancesAfter: ReadonlyMap<string, Money>): Money[] {
  const running = new Map(balancesAfter);
  const after: Money[] = new Array(charges.length);
  for (let i = charges.length - 1; i >= 0; i -= 1) {
    const { companyId, amount } = charges[i];
    const balance = running.get(companyId);
    if (balance === undefined) throw new Error(`no balance after the charges of company ${companyId}`);
    after[i] = balance;
    running.set(companyId, balance + amount);
  }
  return after;
}
