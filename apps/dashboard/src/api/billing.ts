// The billing page's part of the dashboard API (docs/dashboard-api.json, /dashboard/api/billing).
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { ApiClient } from './client';
import { queryString } from './query-string';

export const LEDGER_KINDS = ['topup', 'charge', 'refund', 'adjustment'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** Amounts are JSON numbers of at most 4 decimals, exact as the server keeps them. */
export interface BillingBalance {
  balance: number;
  currency: string;
  low_balance_threshold: number | null;
  /** Compared exactly by the server. */
  low_balance: boolean;
}

export interface LedgerEntry {
  id: number;
  created_at: string;
  kind: LedgerKind;
  /** Signed: a charge is negative. */
  amount: number;
  balance_after: number;
  reference: string | null;
  description: string | null;
}

export interface LedgerPage {
  items: LedgerEntry[];
  next_cursor: string | null;
}

export interface SpendDay {
  day: string;
  charged: number;
  refunded: number;
  spent: number;
}

export interface Spend {
  from: string;
  to: string;
  days: SpendDay[];
}

export interface BillingSettings {
  low_balance_threshold: number | null;
  currency: string;
}

/** The ledger's query parameters as the API takes them (kinds comma-separated, dates YYYY-MM-DD, `to` inclusive). */
export interface LedgerQuery {
  kinds?: string;
  from?: string;
  to?: string;
  reference?: string;
}

const LEDGER_PAGE = 50;
const BILLING_API = '/dashboard/api';

export const billingKeys = {
  all: ['billing'] as const,
  balance: ['billing', 'balance'] as const,
  ledger: (query: LedgerQuery) => ['billing', 'ledger', query] as const,
  spend: ['billing', 'spend'] as const,
  settings: ['billing', 'settings'] as const,
};

export function balanceQuery(api: ApiClient) {
  return queryOptions({ queryKey: billingKeys.balance, queryFn: ({ signal }) => api.get<BillingBalance>('/billing/balance', { signal }) });
}

export function ledgerQuery(api: ApiClient, query: LedgerQuery) {
  return infiniteQueryOptions({
    queryKey: billingKeys.ledger(query),
    queryFn: ({ pageParam, signal }) =>
      api.get<LedgerPage>(`/billing/ledger${queryString({ ...query, limit: String(LEDGER_PAGE), cursor: pageParam ?? undefined })}`, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
  });
}

/** The spend of the last 30 UTC days. */
export function spendQuery(api: ApiClient) {
  return queryOptions({ queryKey: billingKeys.spend, queryFn: ({ signal }) => api.get<Spend>('/billing/spend', { signal }) });
}

export function billingSettingsQuery(api: ApiClient) {
  return queryOptions({ queryKey: billingKeys.settings, queryFn: ({ signal }) => api.get<BillingSettings>('/billing/settings', { signal }) });
}

/** `threshold`: decimal text, or null for none. */
export function saveBillingSettings(api: ApiClient, threshold: string | null): Promise<BillingSettings> {
  return api.request<BillingSettings>('PUT', '/billing/settings', { body: { low_balance_threshold: threshold } });
}

/** Where the browser downloads the ledger as CSV (the session cookie goes with it: same origin, Path=/dashboard). */
export function ledgerCsvUrl(query: LedgerQuery): string {
  return `${BILLING_API}/billing/ledger.csv${queryString({ ...query })}`;
}
