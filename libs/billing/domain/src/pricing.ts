import { Money, parseMoney } from './money';

/** Routes a price can be set for: the SMS routes of the API, and WhatsApp messages. */
export const PRICE_ROUTES = ['auto', 'standard', 'premium', 'whatsapp'] as const;
export type PriceRoute = (typeof PRICE_ROUTES)[number];

/** A destination prefix: "+" alone matches every number; "+44" matches the UK. */
const PREFIX = /^\+\d{0,15}$/;

export interface PriceRule {
  prefix: string;
  route: PriceRoute;
  price: Money;
}

/** The prices of a fresh install (decisions.md): 0.0100 per part, 0.0150 premium, 0.0100 WhatsApp. */
export const DEFAULT_PRICES: readonly PriceRule[] = Object.freeze([
  { prefix: '+', route: 'auto', price: parseMoney('0.0100') },
  { prefix: '+', route: 'standard', price: parseMoney('0.0100') },
  { prefix: '+', route: 'premium', price: parseMoney('0.0150') },
  { prefix: '+', route: 'whatsapp', price: parseMoney('0.0100') },
]);

export class PriceRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PriceRuleError';
  }
}

export function isPriceRoute(value: string): value is PriceRoute {
  return (PRICE_ROUTES as readonly string[]).includes(value);
}

/** Checks an operator's price rule; each error names the part that is wrong. */
export function parsePriceRule(input: { prefix: string; route: string; price: string }): PriceRule {
  if (!PREFIX.test(input.prefix)) throw new PriceRuleError('prefix must be "+" followed by up to 15 digits, e.g. +44');
  if (!isPriceRoute(input.route)) throw new PriceRuleError(`route must be one of ${PRICE_ROUTES.join(', ')}`);
  let price: Money;
  try {
    price = parseMoney(input.price);
  } catch {
    throw new PriceRuleError('price must be a decimal with at most 4 decimals, e.g. 0.035');
  }
  if (price < 0n) throw new PriceRuleError('price must not be negative');
  return { prefix: input.prefix, route: input.route, price };
}

/** The rule of the longest prefix that matches an E.164 number on a route, if any. */
export function findPrice(rules: readonly PriceRule[], e164: string, route: PriceRoute): PriceRule | undefined {
  let best: PriceRule | undefined;
  for (const rule of rules) {
    if (rule.route !== route || !e164.startsWith(rule.prefix)) continue;
    if (!best || rule.prefix.length > best.prefix.length) best = rule;
  }
  return best;
}

/**
 * findPrice for many numbers: the rules of one route by prefix, looked up from the longest prefix
 * of the number down (at most 16 map lookups), instead of scanning every rule per number.
 */
export function priceIndex(rules: readonly PriceRule[], route: PriceRoute): (e164: string) => PriceRule | undefined {
  const byPrefix = new Map<string, PriceRule>();
  for (const rule of rules) if (rule.route === route) byPrefix.set(rule.prefix, rule);
  return (e164) => {
    for (let length = e164.length; length >= 1; length--) {
      const rule = byPrefix.get(e164.slice(0, length));
      if (rule) return rule;
    }
    return undefined;
  };
}
