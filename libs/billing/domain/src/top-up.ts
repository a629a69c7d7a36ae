import { Money, parseMoney } from './money';

/** An operator's top-up, checked: a positive exact amount, and an optional reference that makes it happen once. */
export interface TopUp {
  amount: Money;
  reference: string | null;
}

export class TopUpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TopUpError';
  }
}

const MAX_REFERENCE_LENGTH = 100;
/** Visible characters and spaces, no control characters: it is shown in the ledger and its CSV. */
const REFERENCE = /^[^\p{Cc}\p{Cf}]+$/u;

/**
 * Parses an amount text exactly ("10", "0.035"; at most 4 decimals, never a float): what is
 * credited. `field` names it in the error.
 */
export function parseCreditAmount(text: string, field = 'amount', { allowZero = false } = {}): Money {
  let amount: Money;
  try {
    amount = parseMoney(text);
  } catch {
    throw new TopUpError(`${field} must be a decimal with at most 4 decimals, e.g. 10 or 0.035`);
  }
  if (amount < 0n || (!allowZero && amount === 0n)) throw new TopUpError(`${field} must be ${allowZero ? 'zero or more' : 'more than zero'}`);
  return amount;
}

/** A top-up as an operator asks for it: `amount` a decimal string, `reference` optional (trimmed; empty is none). */
export function parseTopUp(input: { amount: string; reference?: string | null }): TopUp {
  const amount = parseCreditAmount(input.amount);
  const reference = input.reference?.trim() || null;
  if (reference !== null && (reference.length > MAX_REFERENCE_LENGTH || !REFERENCE.test(reference))) {
    throw new TopUpError(`reference must be 1 to ${MAX_REFERENCE_LENGTH} visible characters`);
  }
  return { amount, reference };
}
