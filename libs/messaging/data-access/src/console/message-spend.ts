import { parseMoney, type Money } from '@mp/billing-domain';
import { parsePhoneNumber } from '@mp/messaging-domain';
import type { DataSource } from 'typeorm';

export const SPEND_GROUPS = ['day', 'country', 'route'] as const;
export type SpendGroup = (typeof SPEND_GROUPS)[number];
/** The longest range a usage summary covers. */
export const USAGE_MAX_DAYS = 366;

/** The spend of one day (`YYYY-MM-DD`, UTC), country (ISO 3166-1 alpha-2; null: non-geographic) or route. */
export interface SpendLine extends SpendSums {
  key: string | null;
}

/** Exact: Money, for JSON (moneyToJson) or CSV (formatMoney). */
export interface SpendSums {
  messages: number;
  parts: number;
  charged: Money;
  refunded: Money;
  /** charged less refunded. */
  spent: Money;
}

export interface SpendSummary {
  lines: SpendLine[];
  total: SpendSums;
}

interface SumRow {
  key: string;
  /** A number of the group (country only): its country is this number's. */
  sample: string | null;
  messages: string;
  parts: string;
  charged: string;
  refunded: string;
}

type Sums = Omit<SpendSums, 'spent'>;

/**
 * SQL of the prefix a message's country is read from (`m`: a row with the message's recipient):
 * one number of each is classified by countryOfNumber. Shared with the margin report.
 */
export const COUNTRY_PREFIX_SQL = `left(m.recipient, 8)`;

/**
 * SQL of a group's key. A country is the recipient's by the numbering plan; PostgreSQL groups by
 * the number's first 7 digits (enough to tell apart the countries that share a calling code: +1
 * and its area codes, +44 7624 for the Isle of Man, +7 6/7 for Kazakhstan) and one number of each
 * prefix is classified here.
 */
const KEY: Record<SpendGroup, string> = {
  day: `to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
  country: COUNTRY_PREFIX_SQL,
  route: `m.route`,
};

/**
 * What the company's messages made in [from, before) cost, by day, country or route: charged
 * (their cost), refunded and spent, summed exactly (numeric in PostgreSQL, Money here) from
 * `messages_company_created_idx`'s range. OTP messages count; a campaign's messages count once its
 * batch has made them. Groups without messages are not listed.
 */
export async function spendBy(db: DataSource, companyId: string, group: SpendGroup, range: { from: Date; before: Date }): Promise<SpendSummary> {
  const rows: SumRow[] = await db.query(
    `SELECT ${KEY[group]} AS key, ${group === 'country' ? 'min(m.recipient)' : 'NULL'} AS sample, count(*)::text AS messages,
       sum(m.parts)::text AS parts, sum(m.cost)::text AS charged, sum(m.refunded)::text AS refunded
     FROM messages m
     WHERE m.company_id = $1 AND m.created_at >= $2 AND m.created_at < $3
     GROUP BY 1`,
    [companyId, range.from.toISOString(), range.before.toISOString()],
  );
  const byKey = new Map<string | null, Sums>();
  for (const row of rows) {
    const key = row.sample === null ? row.key : countryOfNumber(row.sample);
    byKey.set(key, add(byKey.get(key) ?? zero(), sumsOf(row)));
  }
  const lines = [...byKey].sort(([a], [b]) => (a ?? '~').localeCompare(b ?? '~')).map(([key, sums]) => ({ key, ...withSpent(sums) }));
  return { lines, total: withSpent([...byKey.values()].reduce(add, zero())) };
}

/** The country of a number (ISO 3166-1 alpha-2) by the numbering plan; null: non-geographic or not a number. */
export function countryOfNumber(number: string): string | null {
  const parsed = parsePhoneNumber(number);
  return parsed.ok ? parsed.country : null;
}

const zero = (): Sums => ({ messages: 0, parts: 0, charged: 0n, refunded: 0n });

function sumsOf(row: SumRow): Sums {
  return { messages: Number(row.messages), parts: Number(row.parts), charged: parseMoney(row.charged), refunded: parseMoney(row.refunded) };
}

function add(a: Sums, b: Sums): Sums {
  return { messages: a.messages + b.messages, parts: a.parts + b.parts, charged: a.charged + b.charged, refunded: a.refunded + b.refunded };
}

const withSpent = (sums: Sums): SpendSums => ({ ...sums, spent: sums.charged - sums.refunded });
