import { QueryError, type QueryReader } from '@mp/http-kit';

const DAY_MS = 86_400_000;
/** A keyset cursor: base64url of the last row's key, longer than the usual query text. */
const CURSOR = /^[A-Za-z0-9_-]{1,512}$/;

/** The console's charts cover this many UTC days, up to today, unless the query says otherwise. */
export const CHART_DEFAULT_DAYS = 30;
export const LIST_DEFAULT_LIMIT = 50;

/**
 * `from` and `to` (dates or timestamps; a date `to` covers its whole UTC day) as [from, before):
 * by default the `CHART_DEFAULT_DAYS` UTC days that end with today (or with `to`).
 */
export function chartRange(q: QueryReader, now: Date): { from: Date; before: Date } {
  const range = q.range();
  const before = range.before ?? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const from = range.from ?? new Date(before.getTime() - CHART_DEFAULT_DAYS * DAY_MS);
  if (from >= before) throw new QueryError('from must be before to');
  return { from, before };
}

/** `cursor`: the `next_cursor` of the page before, or null for the first page. */
export function cursorParameter(q: QueryReader): string | null {
  return q.parsed('cursor', 'the next_cursor of the previous page', (text) => (CURSOR.test(text) ? text : null));
}
