import { readQuery, type Result } from '@mp/http-kit';
import { LEDGER_KINDS, LEDGER_MAX_LIMIT, type LedgerFilter } from '@mp/billing';
import { SPEND_GROUPS, USAGE_MAX_DAYS, type SpendGroup } from '@mp/messaging';
import { boundedDateRange, cursorQuery, dateRange } from '../common/date-range-query';
import { parseLedgerKinds } from '../dashboard/billing-query';

export const USAGE_DEFAULT_DAYS = 30;
export const LEDGER_DEFAULT_LIMIT = 50;
const FORMATS = ['json', 'csv'] as const;
type Format = (typeof FORMATS)[number];

/** GET /usage: `group_by` (day by default), `date_from`, `date_to` (the last 30 UTC days by default, at most 366), `format`. */
export function parseUsageQuery(query: unknown, now: Date): Result<{ group: SpendGroup; range: { from: Date; before: Date }; format: Format | null }> {
  return readQuery(query, ['group_by', 'date_from', 'date_to', 'format'], (q) => ({
    group: q.oneOf('group_by', SPEND_GROUPS) ?? 'day',
    range: boundedDateRange(q, now, USAGE_DEFAULT_DAYS, USAGE_MAX_DAYS),
    format: q.oneOf('format', FORMATS),
  }));
}

/** GET /usage/ledger: `kind` (one or several), `date_from`, `date_to`, `reference`, `limit`, `cursor` (JSON only), `format`. */
export function parseLedgerQuery(query: unknown): Result<{ filter: LedgerFilter; limit: number; cursor: string | null; format: Format | null }> {
  return readQuery(query, ['kind', 'date_from', 'date_to', 'reference', 'limit', 'cursor', 'format'], (q) => {
    const range = dateRange(q);
    return {
      filter: {
        kinds: q.parsed('kind', `one or several of ${LEDGER_KINDS.join(', ')}, comma-separated`, parseLedgerKinds),
        from: range.from,
        before: range.before,
        reference: q.text('reference'),
      },
      limit: q.integer('limit', 1, LEDGER_MAX_LIMIT, LEDGER_DEFAULT_LIMIT),
      cursor: cursorQuery(q),
      format: q.oneOf('format', FORMATS),
    };
  });
}
