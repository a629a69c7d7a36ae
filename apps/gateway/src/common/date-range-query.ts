import { parseIsoDate, QueryError, type DateRange, type QueryReader } from '@mp/http-kit';

const DAY_MS = 86_400_000;
/** A keyset cursor: base64url of the last row's key. */
const CURSOR = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * The public lists' `date_from` and `date_to` (their `from` and `to` are numbers): ISO 8601 dates
 * or timestamps with an offset, as [from, before); a date `date_to` covers its whole UTC day.
 */
export function dateRange(q: QueryReader): DateRange {
  const from = q.parsed('date_from', 'an ISO 8601 date or timestamp with its offset', parseIsoDate);
  const to = q.parsed('date_to', 'an ISO 8601 date or timestamp with its offset', parseIsoDate);
  const before = to === null ? null : new Date(to.at.getTime() + (to.dateOnly ? DAY_MS : 1));
  if (from !== null && before !== null && from.at >= before) throw new QueryError('date_from must be before date_to');
  return { from: from?.at ?? null, before };
}

/** dateRange with defaults: the `days` UTC days that end with today (or with `date_to`), at most `maxDays`. */
export function boundedDateRange(q: QueryReader, now: Date, days: number, maxDays: number): { from: Date; before: Date } {
  const range = dateRange(q);
  const before = range.before ?? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const from = range.from ?? new Date(before.getTime() - days * DAY_MS);
  if (from >= before) throw new QueryError('date_from must be before date_to');
  if (before.getTime() - from.getTime() > maxDays * DAY_MS) throw new QueryError(`the range must be at most ${maxDays} days`);
  return { from, before };
}

/** `cursor`: the `next_cursor` of the page before, or null for the first page. */
export function cursorQuery(q: QueryReader): string | null {
  return q.parsed('cursor', 'the next_cursor of the previous page', (text) => (CURSOR.test(text) ? text : null));
}

/** `format=json|csv`, else the Accept header: CSV when it names text/csv and not application/json first. */
export function wantsCsv(format: 'json' | 'csv' | null, accept: string | undefined): boolean {
  if (format !== null) return format === 'csv';
  const types = (accept ?? '').split(',').map((type) => type.split(';')[0].trim().toLowerCase());
  const csv = types.indexOf('text/csv');
  const json = types.indexOf('application/json');
  return csv !== -1 && (json === -1 || csv < json);
}
