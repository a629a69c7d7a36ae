import { formatMoney, moneyToJson, type Money } from '@mp/billing-domain';
import { csvRecord, csvText } from '@mp/billing';

export const MARGIN_DIMENSIONS = ['day', 'country', 'carrier'] as const;
export type MarginDimension = (typeof MARGIN_DIMENSIONS)[number];
/** The longest range a margin report covers, in days. */
export const MARGIN_MAX_DAYS = 366;

/** A bad --from, --to or --by (a 400's `error`, the admin tool's exit 1). */
export class MarginReportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MarginReportError';
  }
}

/**
 * The group of a line: only the dimensions asked for are present. day is `YYYY-MM-DD` (UTC, the
 * message's acceptance), country ISO 3166-1 alpha-2 (null: non-geographic), carrier the name of
 * the carrier that took the part (null: none took it).
 */
export interface MarginKey {
  day?: string;
  country?: string | null;
  carrier?: string | null;
}

/** What one group's parts summed to in PostgreSQL, exact. */
export interface MarginCounts {
  parts: number;
  /** Their price, as charged when the message was accepted. */
  charged: Money;
  /** The part of that refunded since (a cancelled message, parts that never reached a carrier). */
  refunded: Money;
  /** What the carriers charge for the parts whose cost is known. */
  cost: Money;
  /** Parts with no known cost (a route without --cost, or not sent yet): left out of the margin. */
  uncostedParts: number;
  /** Their price net of refunds, also left out of the margin. */
  uncostedCharged: Money;
  /**
   * Parts whose submit to this group's carrier timed out before another carrier took them: the
   * carrier may still have taken and charged for them, a cost the report cannot know and leaves
   * out of `cost` and the margin. Not in `parts`, which are the parts the carrier took.
   */
  timedOutParts: number;
}

export interface MarginSums extends MarginCounts {
  /** charged less refunded. */
  netCharged: Money;
  /** Net charged of the parts with a known cost, less their cost. */
  margin: Money;
  /** margin over the net charged it is taken from, in hundredths of a percent, rounded half away from zero; null when that is 0. */
  marginHundredthsPercent: bigint | null;
}

export interface MarginLine extends MarginSums {
  key: MarginKey;
}

export interface MarginReport {
  by: MarginDimension[];
  lines: MarginLine[];
  total: MarginSums;
}

/** `day`, `country,carrier`…: each dimension known and once, in the report's order; null for anything else. */
export function parseMarginDimensions(text: string): MarginDimension[] | null {
  const words = text.split(',').map((word) => word.trim());
  if (words.length === 0 || !words.every((word) => (MARGIN_DIMENSIONS as readonly string[]).includes(word))) return null;
  if (new Set(words).size !== words.length) return null;
  return MARGIN_DIMENSIONS.filter((dimension) => words.includes(dimension));
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayStart(name: string, text: string): Date {
  const match = DAY.exec(text);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (!date || date.toISOString().slice(0, 10) !== text) throw new MarginReportError(`${name} must be a date YYYY-MM-DD`);
  return date;
}

/** The UTC days from `from` to `to`, both included, as [from, before). */
export function marginRange(from: string, to: string): { from: Date; before: Date } {
  const start = dayStart('from', from);
  const before = new Date(dayStart('to', to).getTime() + 86_400_000);
  if (before <= start) throw new MarginReportError('from must not be after to');
  if (before.getTime() - start.getTime() > MARGIN_MAX_DAYS * 86_400_000) throw new MarginReportError(`the range must be at most ${MARGIN_MAX_DAYS} days`);
  return { from: start, before };
}

const zero = (): MarginCounts => ({ parts: 0, charged: 0n, refunded: 0n, cost: 0n, uncostedParts: 0, uncostedCharged: 0n, timedOutParts: 0 });

function add(a: MarginCounts, b: MarginCounts): MarginCounts {
  return {
    parts: a.parts + b.parts,
    charged: a.charged + b.charged,
    refunded: a.refunded + b.refunded,
    cost: a.cost + b.cost,
    uncostedParts: a.uncostedParts + b.uncostedParts,
    uncostedCharged: a.uncostedCharged + b.uncostedCharged,
    timedOutParts: a.timedOutParts + b.timedOutParts,
  };
}

/** a / b rounded half away from zero. */
function roundedQuotient(a: bigint, b: bigint): bigint {
  const negative = a < 0n !== b < 0n;
  const [n, d] = [a < 0n ? -a : a, b < 0n ? -b : b];
  const q = (2n * n + d) / (2n * d);
  return negative ? -q : q;
}

/** The margin of summed parts: only parts whose cost is known, so an unknown cost never reads as profit. */
export function withMargin(counts: MarginCounts): MarginSums {
  const netCharged = counts.charged - counts.refunded;
  const basis = netCharged - counts.uncostedCharged;
  const margin = basis - counts.cost;
  return { ...counts, netCharged, margin, marginHundredthsPercent: basis === 0n ? null : roundedQuotient(margin * 10_000n, basis) };
}

const keyText = (key: MarginKey) => JSON.stringify([key.day ?? null, key.country ?? null, key.carrier ?? null]);
/** Days, countries and carriers in order, the nulls (no country, no carrier) last. */
const sortText = (key: MarginKey) => [key.day, key.country, key.carrier].map((value) => (value === null ? '~' : (value ?? ''))).join('\u0000');

/** Groups that came apart in SQL (a country's prefixes) summed into one line each, in order, with their total. */
export function marginReport(by: MarginDimension[], groups: { key: MarginKey; counts: MarginCounts }[]): MarginReport {
  const byKey = new Map<string, { key: MarginKey; counts: MarginCounts }>();
  for (const group of groups) {
    const text = keyText(group.key);
    const seen = byKey.get(text);
    byKey.set(text, { key: group.key, counts: seen ? add(seen.counts, group.counts) : group.counts });
  }
  const lines = [...byKey.values()]
    .sort((a, b) => (sortText(a.key) < sortText(b.key) ? -1 : sortText(a.key) > sortText(b.key) ? 1 : 0))
    .map(({ key, counts }) => ({ key, ...withMargin(counts) }));
  return { by, lines, total: withMargin(groups.map((group) => group.counts).reduce(add, zero())) };
}

/** A percentage as a JSON number with 2 decimals (display only: every amount it comes from is exact). */
const percentJson = (hundredths: bigint | null) => (hundredths === null ? null : Number(hundredths) / 100);

function sumsJson(sums: MarginSums) {
  return {
    parts: sums.parts,
    charged: moneyToJson(sums.charged),
    refunded: moneyToJson(sums.refunded),
    net_charged: moneyToJson(sums.netCharged),
    cost: moneyToJson(sums.cost),
    uncosted_parts: sums.uncostedParts,
    uncosted_charged: moneyToJson(sums.uncostedCharged),
    margin: moneyToJson(sums.margin),
    margin_percent: percentJson(sums.marginHundredthsPercent),
    timed_out_parts: sums.timedOutParts,
  };
}

/** The report as the admin tool and the operators' API answer it: amounts as JSON numbers of at most 4 decimals. */
export function marginReportJson(report: MarginReport, range: { from: string; to: string }) {
  return {
    from: range.from,
    to: range.to,
    by: report.by,
    lines: report.lines.map((line) => ({ ...line.key, ...sumsJson(line) })),
    total: sumsJson(report.total),
  };
}

export const MARGIN_CSV_AMOUNTS = [
  'parts',
  'charged',
  'refunded',
  'net_charged',
  'cost',
  'uncosted_parts',
  'uncosted_charged',
  'margin',
  'margin_percent',
  'timed_out_parts',
];

function percentText(hundredths: bigint | null): string | null {
  if (hundredths === null) return null;
  const magnitude = hundredths < 0n ? -hundredths : hundredths;
  return `${hundredths < 0n ? '-' : ''}${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, '0')}`;
}

const sumsCsv = (sums: MarginSums) => [
  String(sums.parts),
  formatMoney(sums.charged),
  formatMoney(sums.refunded),
  formatMoney(sums.netCharged),
  formatMoney(sums.cost),
  String(sums.uncostedParts),
  formatMoney(sums.uncostedCharged),
  formatMoney(sums.margin),
  percentText(sums.marginHundredthsPercent),
  String(sums.timedOutParts),
];

/**
 * The report as RFC 4180 CSV: a header of the dimensions and amounts, a line per group (an empty
 * country or carrier: none), and last the total, whose dimension fields read `total`. Amounts are
 * exact decimal text with 4 places.
 */
export function marginReportCsv(report: MarginReport): string {
  const header = csvRecord([...report.by, ...MARGIN_CSV_AMOUNTS]);
  const lines = report.lines.map((line) => csvRecord([...report.by.map((dimension) => csvText(line.key[dimension] ?? null)), ...sumsCsv(line)]));
  const total = csvRecord([...report.by.map(() => 'total'), ...sumsCsv(report.total)]);
  return header + lines.join('') + total;
}
