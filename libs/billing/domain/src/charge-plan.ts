import type { Money } from './money';

export interface PlannedCharge {
  companyId: string;
  /** Positive: what is taken from the balance. */
  amount: Money;
}

export type ChargeDecision =
  | { ok: true; balanceAfter: Money }
  | { ok: false; reason: 'insufficient-balance'; balance: Money }
  | { ok: false; reason: 'unknown-company' };

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
