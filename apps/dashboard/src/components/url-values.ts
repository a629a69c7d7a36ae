// Values read from a URL's search parameters: whatever a URL holds, only what can be read is kept.

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_TEXT = 100;

/** Trimmed text, or undefined when absent or empty. */
export function urlText(value: unknown, max = MAX_TEXT): string | undefined {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed.slice(0, max);
}

/** A calendar day as YYYY-MM-DD; 2026-02-30 is none. */
export function urlDay(value: unknown): string | undefined {
  const given = urlText(value);
  if (!given || !DAY.test(given)) return undefined;
  const date = new Date(`${given}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === given ? given : undefined;
}

/** `from` and `to` days, `to` dropped when it comes before `from`. */
export function urlDayRange(search: Record<string, unknown>): { from?: string; to?: string } {
  const from = urlDay(search['from']);
  const to = urlDay(search['to']);
  return { from, to: from && to && to < from ? undefined : to };
}

/** The object without its undefined fields: what the router puts in the URL. */
export function withoutEmpty<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
