import { parsePhoneNumber } from '@mp/messaging-domain';
import { OTP_LOG_ENTRY_EVENTS, type CreatedRange, type OtpLogEntryEvent, type PageRequest } from '@mp/otp';
import { OTP_ATTEMPT_OUTCOMES, OTP_STATES, type OtpAttemptOutcome, type OtpChannel, type OtpState } from '@mp/otp-domain';

/** The query string as Fastify parses it: a repeated parameter arrives as an array. */
export type RawQuery = Record<string, unknown>;
type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export const PAGE_DEFAULTS = { page: 1, limit: 20, maxLimit: 100 } as const;
export const REPORT_DEFAULT_DAYS = 30;
export const REPORT_MAX_DAYS = 366;
const DAY_MS = 86_400_000;
const OTP_CHANNELS: readonly OtpChannel[] = ['sms', 'whatsapp'];
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

export interface OtpListQuery {
  appid: string | null;
  recipient: string | null;
  status: OtpState | null;
  channel: OtpChannel | null;
  range: CreatedRange;
  page: PageRequest;
}

export interface OtpLogQuery {
  verificationId: string | null;
  appid: string | null;
  recipient: string | null;
  event: OtpLogEntryEvent | null;
  range: CreatedRange;
  page: PageRequest;
}

export interface OtpAttemptQuery {
  verificationId: string | null;
  appid: string | null;
  recipient: string | null;
  outcome: OtpAttemptOutcome | null;
  range: CreatedRange;
  page: PageRequest;
}

export interface OtpReportQuery {
  appid: string | null;
  channel: OtpChannel | null;
  from: Date;
  /** Exclusive end of the range. */
  before: Date;
}

class QueryError extends Error {}

/** Reads one query string, throwing a QueryError that names the first bad parameter. */
class QueryReader {
  constructor(private readonly query: RawQuery) {}

  /** Trimmed text, or null when absent or empty. */
  text(name: string): string | null {
    const value = this.query[name];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') throw new QueryError(`${name} must be given once, as text`);
    const text = value.trim();
    if (text.length > 100) throw new QueryError(`${name} is too long`);
    return text === '' ? null : text;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | null {
    const text = this.text(name);
    if (text === null) return null;
    if (!(allowed as readonly string[]).includes(text)) throw new QueryError(`${name} must be one of ${allowed.join(', ')}`);
    return text as T;
  }

  /** An E.164 number; a `+` sent unencoded arrives as a space, so a number without it is accepted too. */
  phone(name: string): string | null {
    const text = this.text(name);
    if (text === null) return null;
    const phone = parsePhoneNumber(text, { allowMissingPlus: true });
    if (!phone.ok) throw new QueryError(`${name} must be a phone number in E.164 format, such as +447911123456`);
    return phone.e164;
  }

  integer(name: string, min: number, max: number, fallback: number): number {
    const text = this.text(name);
    if (text === null) return fallback;
    const value = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      throw new QueryError(max === Number.MAX_SAFE_INTEGER ? `${name} must be an integer of at least ${min}` : `${name} must be an integer from ${min} to ${max}`);
    }
    return value;
  }

  page(): PageRequest {
    return {
      page: this.integer('page', 1, Number.MAX_SAFE_INTEGER, PAGE_DEFAULTS.page),
      limit: this.integer('limit', 1, PAGE_DEFAULTS.maxLimit, PAGE_DEFAULTS.limit),
    };
  }

  /** `from` (inclusive) and `to` (inclusive: a date covers its whole UTC day) as [from, before). */
  range(): CreatedRange {
    const from = this.date('from', 'start');
    const before = this.date('to', 'end');
    if (from && before && from >= before) throw new QueryError('from must be before to');
    return { from, before };
  }

  private date(name: string, edge: 'start' | 'end'): Date | null {
    const text = this.text(name);
    if (text === null) return null;
    const date = parseIsoDate(text);
    if (!date) throw new QueryError(`${name} must be an ISO 8601 date`);
    if (edge === 'start') return date.at;
    return new Date(date.at.getTime() + (date.dateOnly ? DAY_MS : 1));
  }
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

function read<T>(query: RawQuery, known: readonly string[], parse: (reader: QueryReader) => T): Result<T> {
  const unknown = Object.keys(query).find((name) => !known.includes(name));
  if (unknown !== undefined) return { ok: false, error: `${unknown} is not a known query parameter` };
  try {
    return { ok: true, value: parse(new QueryReader(query)) };
  } catch (error) {
    if (error instanceof QueryError) return { ok: false, error: error.message };
    throw error;
  }
}

/** GET /otp/status: `verification_id` (required). */
export function parseOtpStatusQuery(query: RawQuery): Result<{ verificationId: string }> {
  return read(query, ['verification_id'], (q) => {
    const verificationId = q.text('verification_id');
    if (verificationId === null) throw new QueryError('verification_id is required');
    return { verificationId };
  });
}

/** GET /otp/list. */
export function parseOtpListQuery(query: RawQuery): Result<OtpListQuery> {
  return read(query, ['appid', 'recipient', 'status', 'channel', 'from', 'to', 'page', 'limit'], (q) => ({
    appid: q.text('appid'),
    recipient: q.phone('recipient'),
    status: q.oneOf('status', OTP_STATES),
    channel: q.oneOf('channel', OTP_CHANNELS),
    range: q.range(),
    page: q.page(),
  }));
}

/** GET /otp/logs. */
export function parseOtpLogQuery(query: RawQuery): Result<OtpLogQuery> {
  return read(query, ['verification_id', 'appid', 'recipient', 'event', 'from', 'to', 'page', 'limit'], (q) => ({
    verificationId: q.text('verification_id'),
    appid: q.text('appid'),
    recipient: q.phone('recipient'),
    event: q.oneOf('event', OTP_LOG_ENTRY_EVENTS),
    range: q.range(),
    page: q.page(),
  }));
}

/** GET /otp/attempts. */
export function parseOtpAttemptQuery(query: RawQuery): Result<OtpAttemptQuery> {
  return read(query, ['verification_id', 'appid', 'recipient', 'outcome', 'from', 'to', 'page', 'limit'], (q) => ({
    verificationId: q.text('verification_id'),
    appid: q.text('appid'),
    recipient: q.phone('recipient'),
    outcome: q.oneOf('outcome', OTP_ATTEMPT_OUTCOMES),
    range: q.range(),
    page: q.page(),
  }));
}

/** GET /otp/reports: the range defaults to the 30 days up to `now` (or up to `to`), at most 366 days. */
export function parseOtpReportQuery(query: RawQuery, now: Date): Result<OtpReportQuery> {
  return read(query, ['appid', 'channel', 'from', 'to'], (q) => {
    const appid = q.text('appid');
    const channel = q.oneOf('channel', OTP_CHANNELS);
    const range = q.range();
    const before = range.before ?? new Date(now.getTime() + 1);
    const from = range.from ?? new Date((range.before ?? now).getTime() - REPORT_DEFAULT_DAYS * DAY_MS);
    if (from >= before) throw new QueryError('from must be before to');
    if (before.getTime() - from.getTime() > REPORT_MAX_DAYS * DAY_MS) throw new QueryError(`from and to must be at most ${REPORT_MAX_DAYS} days apart`);
    return { appid, channel, from, before };
  });
}

/** Also empty query strings: Fastify answers an object without a prototype, or undefined. */
export function rawQuery(query: unknown): RawQuery {
  return query !== null && typeof query === 'object' ? { ...(query as RawQuery) } : {};
}
