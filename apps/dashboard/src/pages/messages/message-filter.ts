// The message log's filter as it lives in the URL (`?search=…&status=delivered,failed&from=…&to=…&campaign=…`):
// read from whatever a URL holds (anything unknown dropped), and turned into the API's query.
import { MESSAGE_STATUSES, type MessageLogQuery, type MessageStatus } from '../../api/messages';

export interface MessageFilter {
  search?: string;
  status?: MessageStatus[];
  /** YYYY-MM-DD, inclusive. */
  from?: string;
  /** YYYY-MM-DD, inclusive. */
  to?: string;
  campaign?: string;
}

/** The search parameters of /messages, as the router keeps them. */
export interface MessageSearchParams {
  search?: string;
  status?: string;
  from?: string;
  to?: string;
  campaign?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_SEARCH = 100;

function text(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed.slice(0, MAX_SEARCH);
}

function day(value: unknown): string | undefined {
  const given = text(value);
  if (!given || !DAY.test(given)) return undefined;
  // Date rolls 2026-02-30 over into March: a day the calendar does not have is no date.
  const date = new Date(`${given}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === given ? given : undefined;
}

function statuses(value: unknown): MessageStatus[] | undefined {
  const words = (Array.isArray(value) ? value : (text(value)?.split(',') ?? [])).map((word) => String(word).trim());
  const known = MESSAGE_STATUSES.filter((status) => words.includes(status));
  return known.length > 0 ? known : undefined;
}

/** What a URL's search parameters ask the log to show; what cannot be read is left out. */
export function parseMessageFilter(search: Record<string, unknown>): MessageFilter {
  const from = day(search['from']);
  let to = day(search['to']);
  if (from && to && to < from) to = undefined;
  const campaign = text(search['campaign']);
  return withoutEmpty({
    search: text(search['search']),
    status: statuses(search['status']),
    from,
    to,
    campaign: campaign && UUID.test(campaign) ? campaign.toLowerCase() : undefined,
  });
}

/** The filter as search parameters (status comma-separated), nothing for what is not set. */
export function messageFilterToSearch(filter: MessageFilter): MessageSearchParams {
  return withoutEmpty({
    search: filter.search,
    status: filter.status && filter.status.length > 0 ? filter.status.join(',') : undefined,
    from: filter.from,
    to: filter.to,
    campaign: filter.campaign,
  });
}

/** The filter as GET /messages takes it. */
export function messageLogQueryOf(filter: MessageFilter): MessageLogQuery {
  const search = messageFilterToSearch(filter);
  return withoutEmpty({ search: search.search, status: search.status, from: search.from, to: search.to, campaign_id: search.campaign });
}

export function isFiltered(filter: MessageFilter): boolean {
  return Object.keys(messageFilterToSearch(filter)).length > 0;
}

function withoutEmpty<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
