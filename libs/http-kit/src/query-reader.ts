import type { Result } from './result';

/** The query string as Fastify parses it: a repeated parameter arrives as an array. */
export type RawQuery = Record<string, unknown>;

/** Which page of a list: `page` from 1, `limit` items per page. */
export interface PageRequest {
  page: number;
  limit: number;
}

/** A list's `page` and `limit` when absent, and the largest `limit` accepted. */
export interface PageDefaults {
  page: number;
  limit: number;
  maxLimit: number;
}

/** `[from, before)`: null where the query gave no bound. */
export interface DateRange {
  from: Date | null;
  before: Date | null;
}

/** The longest text any query parameter takes. */
export const MAX_QUERY_TEXT = 100;

const DAY_MS = 86_400_000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** A bad query parameter; its message is the 400's `error`. Thrown inside readQuery's parse. */
export class QueryError extends Error {}

/** Reads one query string, throwing a QueryError that names the first bad parameter. */
export class QueryReader {
  constructor(private readonly query: RawQuery) {}

  /** Trimmed text, or null when absent or empty. */
  text(name: string): string | null {
    const value = this.query[name];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') throw new QueryError(`${name} must be given once, as text`);
    const text = value.trim();
    if (text.length > MAX_QUERY_TEXT) throw new QueryError(`${name} is too long`);
    return text === '' ? null : text;
  }

  /** Text that must be given. */
  required(name: string): string {
    const text = this.text(name);
    if (text === null) throw new QueryError(`${name} is required`);
    return text;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | null {
    const text = this.text(name);
    if (text === null) return null;
    if (!(allowed as readonly string[]).includes(text)) throw new QueryError(`${name} must be one of ${allowed.join(', ')}`);
    return text as T;
  }

  /** Text turned into a value by `parse`; refused as "`name` must be `what`" when parse answers null. */
  parsed<T>(name: string, what: string, parse: (text: string) => T | null): T | null {
    const text = this.text(name);
    if (text === null) return null;
    const value = parse(text);
    if (value === null) throw new QueryError(`${name} must be ${what}`);
    return value;
  }

  /** Decimal digits from `min` to `max` (Number.MAX_SAFE_INTEGER: no upper bound), or `fallback` when absent. */
  integer(name: string, min: number, max: number, fallback: number): number {
    const text = this.text(name);
    if (text === null) return fallback;
    const value = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      throw new QueryError(
        max === Number.MAX_SAFE_INTEGER ? `${name} must be an integer of at least ${min}` : `${name} must be an integer from ${min} to ${max}`,
      );
    }
    return value;
  }

  /** `page` (from 1) and `limit` (1 to `defaults.maxLimit`). */
  page(defaults: PageDefaults): PageRequest {
    return {
      page: this.integer('page', 1, Number.MAX_SAFE_INTEGER, defaults.page),
      limit: this.integer('limit', 1, defaults.maxLimit, defaults.limit),
    };
  }

  /** `from` (inclusive) and `to` (inclusive: a date covers its whole UTC day) as [from, before). */
  range(): DateRange {
    const from = this.date('from', 'start');
    const before = this.date('to', 'end');
    if (from && before && from >= before) throw new QueryError('from must be before to');
    return { from, before };
  }

  private date(name: string, edge: 'start' | 'end'): Date | null {
    const date = this.parsed(name, 'an ISO 8601 date', parseIsoDate);
    if (date === null) return null;
    if (edge === 'start') return date.at;
    return new Date(date.at.getTime() + (date.dateOnly ? DAY_MS : 1));
  }
}

/**
 * Reads a query string with `parse`: a parameter not in `known`, or a QueryError that `parse`
 * throws, is the Result's error. An absent query string reads as an empty one.
 */
export function readQuery<T>(query: unknown, known: readonly string[], parse: (reader: QueryReader) => T): Result<T> {
  const raw = rawQuery(query);
  const unknown = Object.keys(raw).find((name) => !known.includes(name));
  if (unknown !== undefined) return { ok: false, error: `${unknown} is not a known query parameter` };
  try {
    return { ok: true, value: parse(new QueryReader(raw)) };
  } catch (error) {
    if (error instanceof QueryError) return { ok: false, error: error.message };
    throw error;
  }
}

/** Also empty query strings: Fastify answers an object without a prototype, or undefined. */
export function rawQuery(query: unknown): RawQuery {
  return query !== null && typeof query === 'object' ? { ...(query as RawQuery) } : {};
}

/** `2026-11-22` (midnight UTC) or a timestamp with its offset (`2026-11-22T10:00:00Z`); null otherwise. */
export function parseIsoDate(text: string): { at: Date; dateOnly: boolean } | null {
  const dateOnly = DATE_ONLY.test(text);
  if (!dateOnly && !TIMESTAMP.test(text)) return null;
  const at = new Date(dateOnly ? `${text}T00:00:00Z` : text);
  // Date rolls 2026-02-30 over into March: refuse a day the calendar does not have.
  if (Number.isNaN(at.getTime()) || !calendarDayExists(text.slice(0, 10))) return null;
  return { at, dateOnly };
}

function calendarDayExists(day: string): boolean {
  const [, year, month, date] = DATE_ONLY.exec(day) ?? [];
  const utc = new Date(Date.UTC(Number(year), Number(month) - 1, Number(date)));
  return utc.getUTCFullYear() === Number(year) && utc.getUTCMonth() === Number(month) - 1 && utc.getUTCDate() === Number(date);
}
