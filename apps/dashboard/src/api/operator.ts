// The operators' part of the dashboard API (docs/dashboard-api.json, /dashboard/api/operator):
// companies, top-ups, prices and the platform's overview.
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from './client';

export type CompanyStatus = 'active' | 'suspended';

/** Amounts are JSON numbers of at most 4 decimals, exact as the server keeps them. */
export interface OperatorCompany {
  id: string;
  name: string;
  currency: string;
  balance: number;
  status: CompanyStatus;
  suspended_at: string | null;
  created_at: string;
}

export interface CreatedCompany {
  company: OperatorCompany;
  appid: string;
  api_key: string;
  /** Shown this once. */
  api_secret: string;
}

export interface TopUpAnswer {
  company_id: string;
  amount: number;
  balance: number;
  reference: string | null;
}

export const PRICE_ROUTES = ['auto', 'standard', 'premium', 'whatsapp'] as const;
export type PriceRouteName = (typeof PRICE_ROUTES)[number];

export interface Price {
  prefix: string;
  route: PriceRouteName;
  price: number;
}

export interface QueueDepth {
  queue: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

export interface SmscBind {
  route: string;
  bind: number;
  smsc: string;
  dispatcher: string;
  state: 'idle' | 'connecting' | 'bound' | 'closing' | 'closed';
  since: string;
}

export interface OperatorOverview {
  queues: QueueDepth[];
  binds: SmscBind[];
  read_at: string;
}

/** A carrier's health over the last five minutes, summed over the live sms-dispatchers (decision 0060). */
export interface CarrierHealth {
  window_seconds: number;
  dispatchers: number;
  submits: number;
  submits_per_second: number;
  throttled_rate: number | null;
  error_rate: number | null;
  receipts: number;
  delivered_share: number | null;
  mean_receipt_latency_ms: number | null;
  degraded: boolean;
  degraded_by: number;
  reasons: string[];
}

export interface OperatorCarrier {
  name: string;
  host: string;
  port: number;
  enabled: boolean;
  binds: number;
  bound: number;
  health: CarrierHealth | null;
}

export const operatorKeys = {
  companies: ['operator', 'companies'] as const,
  company: (id: string) => ['operator', 'companies', id] as const,
  prices: ['operator', 'prices'] as const,
  overview: ['operator', 'overview'] as const,
  carriers: ['operator', 'carriers'] as const,
};

/** Where the browser downloads the price table (the session cookie goes with it: same origin, Path=/dashboard). */
export const PRICES_CSV_URL = '/dashboard/api/operator/prices.csv';
/** How often the overview reads the queues and binds again while it is open. */
export const OVERVIEW_REFRESH_MS = 10_000;

export function companiesQuery(api: ApiClient) {
  return queryOptions({
    queryKey: operatorKeys.companies,
    queryFn: async ({ signal }) => (await api.get<{ items: OperatorCompany[] }>('/operator/companies', { signal })).items,
  });
}

export function companyQuery(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: operatorKeys.company(id),
    queryFn: ({ signal }) => api.get<OperatorCompany>(`/operator/companies/${encodeURIComponent(id)}`, { signal }),
  });
}

export function pricesQuery(api: ApiClient) {
  return queryOptions({
    queryKey: operatorKeys.prices,
    queryFn: async ({ signal }) => (await api.get<{ items: Price[] }>('/operator/prices', { signal })).items,
  });
}

export function overviewQuery(api: ApiClient) {
  return queryOptions({
    queryKey: operatorKeys.overview,
    queryFn: ({ signal }) => api.get<OperatorOverview>('/operator/overview', { signal }),
    refetchInterval: OVERVIEW_REFRESH_MS,
  });
}

export function carriersQuery(api: ApiClient) {
  return queryOptions({
    queryKey: operatorKeys.carriers,
    queryFn: async ({ signal }) => (await api.get<{ items: OperatorCarrier[] }>('/operator/carriers', { signal })).items,
    refetchInterval: OVERVIEW_REFRESH_MS,
  });
}

export const operatorApi = {
  createCompany: (api: ApiClient, body: { name: string; currency?: string; balance?: string }) => api.post<CreatedCompany>('/operator/companies', body),
  suspend: (api: ApiClient, id: string) => api.post<OperatorCompany>(`/operator/companies/${encodeURIComponent(id)}/suspend`),
  unsuspend: (api: ApiClient, id: string) => api.post<OperatorCompany>(`/operator/companies/${encodeURIComponent(id)}/unsuspend`),
  topUp: (api: ApiClient, id: string, body: { amount: string; reference?: string }) =>
    api.post<TopUpAnswer>(`/operator/companies/${encodeURIComponent(id)}/top-ups`, body),
  setPrice: (api: ApiClient, body: { prefix: string; route: string; price: string }) => api.request<Price>('PUT', '/operator/prices', { body }),
  importPrices: (api: ApiClient, csv: string) => api.post<{ imported: number }>('/operator/prices/import', { csv }),
};
