import { readQuery, type QueryReader, type Result } from '@mp/http-kit';
import { LEDGER_KINDS, LEDGER_MAX_LIMIT, type LedgerFilter, type LedgerKind } from '@mp/billing';
import { chartRange, cursorParameter, LIST_DEFAULT_LIMIT } from './console-query';

const REFERENCE_MAX = 100;

/** `charge,refund` as the kinds, each known, each once; null for anything else. */
export function parseLedgerKinds(text: string): LedgerKind[] | null {
  const words = text.split(',').map((word) => word.trim());
  if (!words.every((word) => (LEDGER_KINDS as readonly string[]).includes(word))) return null;
  return [...new Set(words)] as LedgerKind[];
}

function ledgerFilter(q: QueryReader): LedgerFilter {
  const range = q.range();
  return {
    kinds: q.parsed('kinds', `one or several of ${LEDGER_KINDS.join(', ')}, comma-separated`, parseLedgerKinds),
    from: range.from,
    before: range.before,
    reference: q.parsed('reference', `at most ${REFERENCE_MAX} characters`, (text) => (text.length <= REFERENCE_MAX ? text : null)),
  };
}

const FILTER_PARAMETERS = ['company_id', 'kinds', 'from', 'to', 'reference'];

/** GET /dashboard/api/billing/ledger: `kinds`, `from`, `to`, `reference`, `limit`, `cursor`, `company_id`. */
export function parseLedgerQuery(
  query: unknown,
): Result<{ companyId: string | undefined; filter: LedgerFilter; page: { limit: number; cursor: string | null } }> {
  return readQuery(query, [...FILTER_PARAMETERS, 'limit', 'cursor'], (q) => ({
    companyId: q.text('company_id') ?? undefined,
    filter: ledgerFilter(q),
    page: { limit: q.integer('limit', 1, LEDGER_MAX_LIMIT, LIST_DEFAULT_LIMIT), cursor: cursorParameter(q) },
  }));
}

/** GET /dashboard/api/billing/ledger.csv: the ledger's filters without paging. */
export function parseLedgerCsvQuery(query: unknown): Result<{ companyId: string | undefined; filter: LedgerFilter }> {
  return readQuery(query, FILTER_PARAMETERS, (q) => ({ companyId: q.text('company_id') ?? undefined, filter: ledgerFilter(q) }));
}

/** GET /dashboard/api/billing/spend: `from`, `to` (the last 30 UTC days by default), `company_id`. */
export function parseSpendQuery(query: unknown, now: Date): Result<{ companyId: string | undefined; range: { from: Date; before: Date } }> {
  return readQuery(query, ['company_id', 'from', 'to'], (q) => ({ companyId: q.text('company_id') ?? undefined, range: chartRange(q, now) }));
}
