import { fail, ok, readQuery, type Result } from '@mp/http-kit';
import { OPT_OUT_SOURCES, type NewOptOut, type OptOutFilter, type OptOutSource } from '@mp/messaging';
import { checkSender, INVALID_PHONE_NUMBER, parsePhoneNumber } from '@mp/messaging-domain';
import { cursorParameter } from '../dashboard/console-query';

/** Entries one POST /sms/opt-outs may carry: an import of a list kept elsewhere. */
export const MAX_OPT_OUTS_PER_REQUEST = 10_000;
export const OPT_OUT_LIST_DEFAULT_LIMIT = 50;
export const OPT_OUT_LIST_MAX_LIMIT = 1000;

export interface OptOutImport {
  entries: NewOptOut[];
  /** Entries refused, as given, with why; the others are added. */
  failed: { number: string; error: string }[];
}

type Entry = Record<string, unknown>;
const isObject = (value: unknown): value is Entry => value !== null && typeof value === 'object' && !Array.isArray(value);
const ENTRY_FIELDS = ['phone', 'number', 'source', 'created_at'];

/**
 * POST /sms/opt-outs: `{ phone, number?, source?, created_at? }` for one, or `{ opt_outs: [those] }`
 * for many (at most 10,000). An entry with a bad phone, number, source or time is listed as failed;
 * a malformed body is refused whole.
 */
export function parseOptOutImport(body: unknown, now: Date): Result<OptOutImport> {
  if (!isObject(body)) return fail('body must be a JSON object');
  const unknown = Object.keys(body).find((key) => key !== 'opt_outs' && !ENTRY_FIELDS.includes(key));
  if (unknown !== undefined) return fail(`${unknown} is not a known field`);
  const list = 'opt_outs' in body ? body['opt_outs'] : [body];
  if ('opt_outs' in body && Object.keys(body).length > 1) return fail('send either opt_outs or one entry, not both');
  if (!Array.isArray(list) || list.length === 0) return fail('opt_outs must be a non-empty array');
  if (list.length > MAX_OPT_OUTS_PER_REQUEST) return fail(`at most ${MAX_OPT_OUTS_PER_REQUEST} opt_outs per request`);
  const result: OptOutImport = { entries: [], failed: [] };
  for (const raw of list) {
    const entry = readEntry(raw, now);
    if ('error' in entry) result.failed.push({ number: isObject(raw) && typeof raw['phone'] === 'string' ? raw['phone'].trim() : '', error: entry.error });
    else result.entries.push(entry);
  }
  return ok(result);
}

function readEntry(raw: unknown, now: Date): NewOptOut | { error: string } {
  if (!isObject(raw)) return { error: 'each entry must be an object' };
  const unknown = Object.keys(raw).find((key) => !ENTRY_FIELDS.includes(key));
  if (unknown !== undefined) return { error: `${unknown} is not a known field` };
  const phone = typeof raw['phone'] === 'string' ? parsePhoneNumber(raw['phone'], { allowMissingPlus: true }) : null;
  if (!phone?.ok) return { error: typeof raw['phone'] === 'string' ? INVALID_PHONE_NUMBER : 'phone is required' };
  const number = readNumber(raw['number']);
  if (typeof number === 'object' && number !== null) return number;
  const source = raw['source'] ?? 'api';
  if (typeof source !== 'string' || !OPT_OUT_SOURCES.includes(source as OptOutSource)) return { error: `source must be one of ${OPT_OUT_SOURCES.join(', ')}` };
  const createdAt = readTime(raw['created_at'], now);
  if (!(createdAt instanceof Date)) return createdAt;
  return { phone: phone.e164, number, source: source as OptOutSource, createdAt };
}

/** The company's number (or sender id) as a send's `from` names it; absent or null: all of them. */
function readNumber(value: unknown): string | null | { error: string } {
  if (value === undefined || value === null) return null;
  const checked = typeof value === 'string' ? checkSender(value) : null;
  return checked?.ok ? checked.sender : { error: 'number must be a phone number or sender id of the company, or null for all of them' };
}

function readTime(value: unknown, now: Date): Date | { error: string } {
  if (value === undefined || value === null) return now;
  const at = typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) return { error: 'created_at must be an ISO 8601 timestamp' };
  if (at.getTime() > now.getTime() + 60_000) return { error: 'created_at must not be in the future' };
  return at;
}

/** GET /sms/opt-outs: `phone`, `number`, `source`, `limit`, `cursor`. */
export function parseOptOutListQuery(query: unknown): Result<OptOutFilter> {
  return readQuery(query, ['phone', 'number', 'source', 'limit', 'cursor'], (q) => {
    const phone = q.parsed('phone', 'a phone number in E.164', (text) => {
      const parsed = parsePhoneNumber(text, { allowMissingPlus: true });
      return parsed.ok ? parsed.e164 : null;
    });
    const number = q.text('number');
    const source = q.oneOf('source', OPT_OUT_SOURCES);
    const cursor = cursorParameter(q);
    return {
      ...(phone !== null ? { phone } : {}),
      ...(number !== null ? { number: number.trim() } : {}),
      ...(source !== null ? { source } : {}),
      limit: q.integer('limit', 1, OPT_OUT_LIST_MAX_LIMIT, OPT_OUT_LIST_DEFAULT_LIMIT),
      ...(cursor !== null ? { cursor } : {}),
    };
  });
}
