// The campaigns' part of the dashboard API (docs/dashboard-api.json, /dashboard/api/campaigns).
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from './client';

export const RECIPIENT_STATES = ['queued', 'processing', 'sent', 'delivered', 'failed', 'cancelled'] as const;
export type RecipientState = (typeof RECIPIENT_STATES)[number];
export type CampaignSummary = Record<RecipientState, number>;

export interface CampaignProgress {
  /** Recipients accepted: what the summary adds up to. */
  total: number;
  /** Share of recipients in a final state, 0 to 1. */
  done: number;
  /** Nothing can change any more: polling stops. */
  finished: boolean;
}

export interface Campaign {
  campaign_id: string;
  reference: string | null;
  status: 'scheduled' | 'queued' | 'processing' | 'completed' | 'cancelled';
  total_recipients: number;
  successful: number;
  failed: number;
  total_cost: number;
  refunded: number;
  batches: number;
  summary: CampaignSummary;
  created_at: string;
  progress: CampaignProgress;
}

export interface CampaignPage {
  items: Campaign[];
  page: number;
  limit: number;
  total: number;
}

export interface CampaignBatch {
  batch_id: string;
  position: number;
  recipients: number;
  status: 'scheduled' | 'queued' | 'processing' | 'dispatched' | 'cancelled';
  scheduled_time: string;
  started_at: string | null;
  dispatched_at: string | null;
}

export interface CampaignDetail extends Campaign {
  batch_details: CampaignBatch[];
  failed_numbers: { number: string; error: string }[];
  sender: string;
  message: string | null;
  route: string;
  priority: string;
  batch_size: number;
  delay_between_batches: number;
  scheduled_time: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
}

export interface CampaignCancelled {
  campaign_id: string;
  status: string;
  cancelled_batches: number;
  cancelled_recipients: number;
  refunded: number;
  balance: number;
}

export const CAMPAIGN_PAGE_SIZE = 20;
const POLL_MS = 3_000;

export const campaignKeys = {
  all: ['campaigns'] as const,
  list: (page: number) => ['campaigns', 'list', page] as const,
  detail: (id: string) => ['campaigns', 'detail', id] as const,
};

/** How often to read a list again: every few seconds while a campaign it shows is still running; never once all have finished. */
export function campaignListPollInterval(page: CampaignPage | undefined): number | false {
  return page?.items.some((campaign) => !campaign.progress.finished) ? POLL_MS : false;
}

/** How often to read one campaign again: until it has finished. */
export function campaignPollInterval(campaign: Campaign | undefined): number | false {
  return campaign && !campaign.progress.finished ? POLL_MS : false;
}

/** A page of campaigns; read again every few seconds while one of them is still running. */
export function campaignsQuery(api: ApiClient, page: number) {
  return queryOptions({
    queryKey: campaignKeys.list(page),
    queryFn: ({ signal }) => api.get<CampaignPage>(`/campaigns?page=${page}&limit=${CAMPAIGN_PAGE_SIZE}`, { signal }),
    refetchInterval: (state) => campaignListPollInterval(state.state.data),
  });
}

export function campaignDetailQuery(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: campaignKeys.detail(id),
    queryFn: ({ signal }) => api.get<CampaignDetail>(`/campaigns/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (state) => campaignPollInterval(state.state.data),
  });
}

export function cancelCampaign(api: ApiClient, id: string): Promise<CampaignCancelled> {
  return api.post<CampaignCancelled>(`/campaigns/${encodeURIComponent(id)}/cancel`);
}
