// The ledger's filter as it lives in the URL (`?kinds=charge,refund&from=…&to=…&reference=…`):
// read from whatever a URL holds (anything unknown dropped), and turned into the API's query.
import { LEDGER_KINDS, type LedgerKind, type LedgerQuery } from '../../api/billing';
import { urlDayRange, urlText, withoutEmpty } from '../../components/url-values';

export interface LedgerFilter {
  kinds?: LedgerKind[];
  /** YYYY-MM-DD, inclusive. */
  from?: string;
  to?: string;
  /** Exact: `otp:<id>`, `message:<id>`, a request id… */
  reference?: string;
}

/** The search parameters of /billing, as the router keeps them. */
export interface LedgerSearchParams {
  kinds?: string;
  from?: string;
  to?: string;
  reference?: string;
}

function kinds(value: unknown): LedgerKind[] | undefined {
  const words = (Array.isArray(value) ? value : (urlText(value)?.split(',') ?? [])).map((word) => String(word).trim());
  const known = LEDGER_KINDS.filter((kind) => words.includes(kind));
  return known.length > 0 ? known : undefined;
}

/** What a URL's search parameters ask the ledger to show; what cannot be read is left out. */
export function parseLedgerFilter(search: object): LedgerFilter {
  const values = search as Record<string, unknown>;
  return withoutEmpty({ kinds: kinds(values['kinds']), ...urlDayRange(values), reference: urlText(values['reference']) });
}

/** The filter as search parameters (kinds comma-separated, in the ledger's order), nothing for what is not set. */
export function ledgerFilterToSearch(filter: LedgerFilter): LedgerSearchParams {
  return withoutEmpty({
    kinds: filter.kinds && filter.kinds.length > 0 ? LEDGER_KINDS.filter((kind) => filter.kinds?.includes(kind)).join(',') : undefined,
    from: filter.from,
    to: filter.to,
    reference: filter.reference,
  });
}

/** GET /billing/ledger and the CSV export take the URL's parameters as they are. */
export const ledgerQueryOf = (filter: LedgerFilter): LedgerQuery => ledgerFilterToSearch(filter);

export function isLedgerFiltered(filter: LedgerFilter): boolean {
  return Object.keys(ledgerFilterToSearch(filter)).length > 0;
}
