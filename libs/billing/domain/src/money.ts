/**
 * Money is an integer count of ten-thousandths of the currency unit: the API promises at most
 * four decimals, and integers add and compare exactly. Postgres stores it as numeric(20,4).
 */
export type Money = bigint;

export const MONEY_DECIMALS = 4;
const SCALE = 10n ** BigInt(MONEY_DECIMALS);
const DECIMAL = /^(-)?(\d{1,16})(?:\.(\d{1,4}))?$/;

export class MoneyFormatError extends Error {
  constructor(text: string) {
    super(`"${text}" is not an amount with at most ${MONEY_DECIMALS} decimals`);
    this.name = 'MoneyFormatError';
  }
}

/** Parses "10", "0.035" or Postgres's "12.3400" into exact units; refuses more than 4 decimals. */
export function parseMoney(text: string): Money {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new MoneyFormatError(text);
  const [, minus, whole, fraction = ''] = match;
  const units = BigInt(whole) * SCALE + BigInt(fraction.padEnd(MONEY_DECIMALS, '0'));
  return minus ? -units : units;
}

/** Exact decimal text with four decimals, as Postgres numeric accepts it: 100n → "0.0100". */
export function formatMoney(units: Money): string {
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const whole = magnitude / SCALE;
  const fraction = (magnitude % SCALE).toString().padStart(MONEY_DECIMALS, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/**
 * The JSON number for an amount. A decimal with at most 4 places and 16 digits round-trips
 * through a double exactly, so clients parsing the number get the stored value back.
 */
export function moneyToJson(units: Money): number {
  return Number(formatMoney(units));
}
