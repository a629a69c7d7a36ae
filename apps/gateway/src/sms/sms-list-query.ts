import { readQuery, type Result } from '@mp/http-kit';
import { isNumberSearchValue, isUuid, MESSAGE_LOG_MAX_LIMIT, MESSAGE_STATUSES, NO_MESSAGE_FILTER, type MessageLogFilter } from '@mp/messaging';
import { cursorQuery, dateRange } from '../common/date-range-query';
import { parseStatuses } from '../dashboard/message-log-query';

export const SMS_LIST_DEFAULT_LIMIT = 50;
export const SMS_LIST_MAX_LIMIT = MESSAGE_LOG_MAX_LIMIT;

export interface SmsListQuery {
  filter: MessageLogFilter;
  limit: number;
  cursor: string | null;
}

/**
 * GET /sms: `status` (one or several, comma-separated), `to` (a number in E.164, exact), `from`
 * (the sender, exact), `reference` (exact), `campaign_id`, `date_from`, `date_to`, `limit`, `cursor`.
 */
export function parseSmsListQuery(query: unknown): Result<SmsListQuery> {
  const known = ['status', 'to', 'from', 'reference', 'campaign_id', 'date_from', 'date_to', 'limit', 'cursor'];
  return readQuery(query, known, (q) => {
    const range = dateRange(q);
    const to = q.parsed('to', 'a number in E.164 (+ then its digits)', (text) => (isNumberSearchValue(text) ? text : null));
    return {
      filter: {
        ...NO_MESSAGE_FILTER,
        number: to === null ? null : { value: to, match: 'exact' },
        sender: q.text('from'),
        reference: q.text('reference'),
        statuses: q.parsed('status', `one or several of ${MESSAGE_STATUSES.join(', ')}, comma-separated`, parseStatuses),
        from: range.from,
        before: range.before,
        campaignId: q.parsed('campaign_id', 'a campaign id (a uuid)', (text) => (isUuid(text) ? text.toLowerCase() : null)),
      },
      limit: q.integer('limit', 1, SMS_LIST_MAX_LIMIT, SMS_LIST_DEFAULT_LIMIT),
      cursor: cursorQuery(q),
    };
  });
}
