// What the operators' forms check before sending, as the API checks it (the API decides: these
// only say sooner what it would answer), and how their lists are filtered.
import type { CompanyStatus, OperatorCompany } from '../../api/operator';

const DECIMAL = /^\d{1,16}(?:\.\d{1,4})?$/;
const PREFIX = /^\+\d{0,15}$/;
const MAX_REFERENCE = 100;

/** An amount as decimal text ("50", "0.035"): null when the API would take it, else why not. */
export function amountError(text: string, { allowZero = false, field = 'Amount' } = {}): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return `${field} is required`;
  if (!DECIMAL.test(trimmed)) return `${field} must be a number with at most 4 decimals, e.g. 50 or 0.035`;
  if (!allowZero && /^[0.]+$/.test(trimmed)) return `${field} must be more than zero`;
  return null;
}

export function referenceError(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed.length > MAX_REFERENCE) return `Reference must be at most ${MAX_REFERENCE} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return 'Reference must be plain text on one line';
  return null;
}

export function prefixError(text: string): string | null {
  return PREFIX.test(text.trim()) ? null : 'Prefix must be + followed by up to 15 digits, e.g. +44 (+ alone: every number)';
}

export type CompanyFilter = CompanyStatus | 'all';

export function parseCompanyFilter(value: unknown): CompanyFilter {
  return value === 'active' || value === 'suspended' ? value : 'all';
}

/** The companies of a status whose name or id contains `search` (any case). */
export function filterCompanies(companies: readonly OperatorCompany[], status: CompanyFilter, search: string): OperatorCompany[] {
  const needle = search.trim().toLowerCase();
  return companies.filter(
    (company) =>
      (status === 'all' || company.status === status) && (needle === '' || company.name.toLowerCase().includes(needle) || company.id.startsWith(needle)),
  );
}

/** 12.5 EUR → "€12.50" in the reader's locale, 2 to 4 decimals (the API's amounts have at most 4, held exactly by a double). */
export function formatAmount(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(amount);
  } catch {
    return `${amount.toFixed(4)} ${currency}`;
  }
}
