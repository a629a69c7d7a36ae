import { CAMPAIGN_STATUSES, RECIPIENT_STATES, type CampaignListFilter, type PageRequest, type RecipientState } from '@mp/messaging';

/** The query string as Fastify parses it: a repeated parameter arrives as an array. */
export type RawQuery = Record<string, unknown>;
type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export const CAMPAIGN_PAGE = { page: 1, limit: 50, maxLimit: 100 } as const;
const MAX_TEXT = 100;

export interface CampaignListQuery extends CampaignListFilter {
  page: PageRequest;
}
export interface CampaignRecipientsQuery {
  status: RecipientState | null;
  page: PageRequest;
}

class QueryError extends Error {}

function text(query: RawQuery, name: string): string | null {
  const value = query[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new QueryError(`${name} must be given once, as text`);
  const trimmed = value.trim();
  if (trimmed.length > MAX_TEXT) throw new QueryError(`${name} is too long`);
  return trimmed === '' ? null : trimmed;
}

function oneOf<T extends string>(query: RawQuery, name: string, allowed: readonly T[]): T | null {
  const value = text(query, name);
  if (value === null) return null;
  if (!(allowed as readonly string[]).includes(value)) throw new QueryError(`${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

function integer(query: RawQuery, name: string, max: number, fallback: number): number {
  const value = text(query, name);
  if (value === null) return fallback;
  const parsed = /^\d{1,16}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(parsed) || parsed < 1 || parsed > max) {
    throw new QueryError(max === Number.MAX_SAFE_INTEGER ? `${name} must be an integer of at least 1` : `${name} must be an integer from 1 to ${max}`);
  }
  return parsed;
}

function page(query: RawQuery): PageRequest {
  return {
    page: integer(query, 'page', Number.MAX_SAFE_INTEGER, CAMPAIGN_PAGE.page),
    limit: integer(query, 'limit', CAMPAIGN_PAGE.maxLimit, CAMPAIGN_PAGE.limit),
  };
}

function read<T>(query: unknown, known: readonly string[], parse: (query: RawQuery) => T): Result<T> {
  // Fastify answers an object without a prototype, or undefined for an empty query string.
  const raw: RawQuery = query !== null && typeof query === 'object' ? { ...(query as RawQuery) } : {};
  const unknown = Object.keys(raw).find((name) => !known.includes(name));
  if (unknown !== undefined) return { ok: false, error: `${unknown} is not a known query parameter` };
  try {
    return { ok: true, value: parse(raw) };
  } catch (error) {
    if (error instanceof QueryError) return { ok: false, error: error.message };
    throw error;
  }
}

/** GET /sms/campaigns: `status`, `reference` (exact), `page`, `limit`. */
export function parseCampaignListQuery(query: unknown): Result<CampaignListQuery> {
  return read(query, ['status', 'reference', 'page', 'limit'], (q) => ({
    status: oneOf(q, 'status', CAMPAIGN_STATUSES),
    reference: text(q, 'reference'),
    page: page(q),
  }));
}

/** GET /sms/campaigns/{id}/messages: `status` (a summary counter), `page`, `limit`. */
export function parseCampaignRecipientsQuery(query: unknown): Result<CampaignRecipientsQuery> {
  return read(query, ['status', 'page', 'limit'], (q) => ({ status: oneOf(q, 'status', RECIPIENT_STATES), page: page(q) }));
}
