// The Webhooks page's part of the dashboard API (docs/dashboard-api.json, /dashboard/api/webhooks).
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { ApiClient } from './client';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'dead'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface WebhookSecret {
  secret: string;
  rotated_at: string | null;
  previous_expires_at: string | null;
}

export interface RotatedWebhookSecret extends WebhookSecret {
  overlap_seconds: number;
}

export interface WebhookAttempt {
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  attempted_at: string;
  resend: boolean;
}

export interface WebhookDelivery {
  id: string;
  event_type: string;
  url: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  dead_at: string | null;
  attempts: WebhookAttempt[];
}

export interface WebhookDeliveryPage {
  items: WebhookDelivery[];
  next_cursor: string | null;
}

export interface WebhookResend {
  id: string;
  attempt: number;
  status: 'pending';
  already_requested: boolean;
}

const POLL_MS = 5_000;

export const webhookKeys = {
  all: ['webhooks'] as const,
  deliveries: (status: DeliveryStatus | null) => ['webhooks', 'deliveries', status] as const,
};

/** Read the log again every few seconds while a delivery it shows is still being tried. */
export function deliveryPollInterval(pages: readonly WebhookDeliveryPage[] | undefined): number | false {
  return pages?.some((page) => page.items.some((item) => item.status === 'pending')) ? POLL_MS : false;
}

/** The deliveries, newest first, 50 a page ("Load more" asks for the next with its cursor). */
export function deliveriesQuery(api: ApiClient, status: DeliveryStatus | null) {
  return infiniteQueryOptions({
    queryKey: webhookKeys.deliveries(status),
    queryFn: ({ pageParam, signal }) => {
      const search = new URLSearchParams();
      if (status) search.set('status', status);
      if (pageParam) search.set('cursor', pageParam);
      const text = search.toString();
      return api.get<WebhookDeliveryPage>(`/webhooks/deliveries${text ? `?${text}` : ''}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    refetchInterval: (state) => deliveryPollInterval(state.state.data?.pages),
  });
}

/** Reveals the secret: a read the audit log records, so it is asked for on a click, never cached or read again by itself. */
export function revealSecret(api: ApiClient): Promise<WebhookSecret> {
  return api.get<WebhookSecret>('/webhooks/secret');
}

export function rotateSecret(api: ApiClient, overlapSeconds: number): Promise<RotatedWebhookSecret> {
  return api.post<RotatedWebhookSecret>('/webhooks/secret/rotate', { overlap_seconds: overlapSeconds });
}

export function resendDelivery(api: ApiClient, id: string): Promise<WebhookResend> {
  return api.post<WebhookResend>(`/webhooks/deliveries/${encodeURIComponent(id)}/resend`);
}
