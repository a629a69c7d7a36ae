import { QueryError, readQuery, type Result } from '@mp/http-kit';
import { parsePhoneNumber } from '@mp/messaging-domain';
import { OTP_LOG_ENTRY_EVENTS, type CreatedRange, type OtpLogEntryEvent, type PageRequest } from '@mp/otp';
import { OTP_ATTEMPT_OUTCOMES, OTP_STATES, type OtpAttemptOutcome, type OtpChannel, type OtpState } from '@mp/otp-domain';

export const PAGE_DEFAULTS = { page: 1, limit: 20, maxLimit: 100 } as const;
export const REPORT_DEFAULT_DAYS = 30;
export const REPORT_MAX_DAYS = 366;
const DAY_MS = 86_400_000;
const OTP_CHANNELS: readonly OtpChannel[] = ['sms', 'whatsapp'];

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

const PHONE = 'a phone number in E.164 format, such as +447911123456';

/** An E.164 number; a `+` sent unencoded arrives as a space, so a number without it is accepted too. */
function phone(text: string): string | null {
  const phone = parsePhoneNumber(text, { allowMissingPlus: true });
  return phone.ok ? phone.e164 : null;
}

/** GET /otp/status: `verification_id` (required). */
export function parseOtpStatusQuery(query: unknown): Result<{ verificationId: string }> {
  return readQuery(query, ['verification_id'], (q) => ({ verificationId: q.required('verification_id') }));
}

/** GET /otp/list. */
export function parseOtpListQuery(query: unknown): Result<OtpListQuery> {
  return readQuery(query, ['appid', 'recipient', 'status', 'channel', 'from', 'to', 'page', 'limit'], (q) => ({
    appid: q.text('appid'),
    recipient: q.parsed('recipient', PHONE, phone),
    status: q.oneOf('status', OTP_STATES),
    channel: q.oneOf('channel', OTP_CHANNELS),
    range: q.range(),
    page: q.page(PAGE_DEFAULTS),
  }));
}

/** GET /otp/logs. */
export function parseOtpLogQuery(query: unknown): Result<OtpLogQuery> {
  return readQuery(query, ['verification_id', 'appid', 'recipient', 'event', 'from', 'to', 'page', 'limit'], (q) => ({
    verificationId: q.text('verification_id'),
    appid: q.text('appid'),
    recipient: q.parsed('recipient', PHONE, phone),
    event: q.oneOf('event', OTP_LOG_ENTRY_EVENTS),
    range: q.range(),
    page: q.page(PAGE_DEFAULTS),
  }));
}

/** GET /otp/attempts. */
export function parseOtpAttemptQuery(query: unknown): Result<OtpAttemptQuery> {
  return readQuery(query, ['verification_id', 'appid', 'recipient', 'outcome', 'from', 'to', 'page', 'limit'], (q) => ({
    verificationId: q.text('verification_id'),
    appid: q.text('appid'),
    recipient: q.parsed('recipient', PHONE, phone),
    outcome: q.oneOf('outcome', OTP_ATTEMPT_OUTCOMES),
    range: q.range(),
    page: q.page(PAGE_DEFAULTS),
  }));
}

/** GET /otp/reports: the range defaults to the 30 days up to `now` (or up to `to`), at most 366 days. */
export function parseOtpReportQuery(query: unknown, now: Date): Result<OtpReportQuery> {
  return readQuery(query, ['appid', 'channel', 'from', 'to'], (q) => {
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
