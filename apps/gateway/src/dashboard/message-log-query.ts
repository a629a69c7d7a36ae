import { readQuery, type Result } from '@mp/http-kit';
import { isUuid, MESSAGE_LOG_MAX_LIMIT, MESSAGE_STATUSES, messageSearch, type MessageLogFilter, type MessageStatus } from '@mp/messaging';

export const MESSAGE_LOG_DEFAULT_LIMIT = 50;
/** A cursor is longer than the usual query text: base64url of the last row's key. */
const CURSOR = /^[A-Za-z0-9_-]{1,512}$/;

export interface MessageLogQuery {
  companyId: string | undefined;
  filter: MessageLogFilter;
  limit: number;
  cursor: string | null;
}

/**
 * GET /dashboard/api/messages: `search` (a message id, a number's digits or a reference, as
 * messageSearch reads it), `status` (one or several, comma-separated), `from` and `to` (dates or
 * timestamps; a date `to` covers its whole day), `campaign_id`, `limit`, `cursor`, `company_id`.
 */
export function parseMessageLogQuery(query: unknown): Result<MessageLogQuery> {
  const known = ['company_id', 'search', 'status', 'from', 'to', 'campaign_id', 'limit', 'cursor'];
  return readQuery(query, known, (q) => {
    const range = q.range();
    return {
      companyId: q.text('company_id') ?? undefined,
      filter: {
        ...messageSearch(q.text('search') ?? ''),
        statuses: q.parsed('status', `one or several of ${MESSAGE_STATUSES.join(', ')}, comma-separated`, parseStatuses),
        from: range.from,
        before: range.before,
        campaignId: q.parsed('campaign_id', 'a campaign id (a uuid)', (text) => (isUuid(text) ? text.toLowerCase() : null)),
      },
      limit: q.integer('limit', 1, MESSAGE_LOG_MAX_LIMIT, MESSAGE_LOG_DEFAULT_LIMIT),
      cursor: q.parsed('cursor', 'the next_cursor of the previous page', (text) => (CURSOR.test(text) ? text : null)),
    };
  });
}

/** `delivered,failed` as the statuses, each known, each once; null for anything else. */
export function parseStatuses(text: string): MessageStatus[] | null {
  const words = text.split(',').map((word) => word.trim());
  if (!words.every((word) => (MESSAGE_STATUSES as readonly string[]).includes(word))) return null;
  return [...new Set(words)] as MessageStatus[];
}
