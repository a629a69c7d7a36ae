// The message log's part of the dashboard API (docs/dashboard-api.json, /dashboard/api/messages).
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { ApiClient } from './client';

export const MESSAGE_STATUSES = ['scheduled', 'queued', 'sent', 'delivered', 'undelivered', 'expired', 'rejected', 'failed', 'cancelled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export interface MessageLogItem {
  message_id: string;
  to: string;
  from: string;
  status: MessageStatus;
  parts: number;
  cost: number;
  refunded: number;
  reference: string | null;
  campaign_id: string | null;
  error_code: string | null;
  created_at: string;
  scheduled_time: string | null;
  sent_at: string | null;
  delivered_at: string | null;
  completed_at: string | null;
}

export interface MessageLogPage {
  items: MessageLogItem[];
  next_cursor: string | null;
}

export interface MessagePart {
  index: number;
  status: string;
  carrier_message_id: string | null;
  receipt_stat: string | null;
  error_code: string | null;
  submitted_at: string | null;
  completed_at: string | null;
}

export interface MessageEvent {
  at: string;
  event: string;
  part: number | null;
  details: Record<string, string | number>;
}

export interface MessageDetail {
  message_id: string;
  to: string;
  from: string;
  message: string;
  route: string;
  encoding: string;
  parts: number;
  cost: number;
  refunded: number;
  status: MessageStatus;
  reference: string | null;
  campaign_id: string | null;
  error_code: string | null;
  error_reason: string | null;
  scheduled_time: string | null;
  created_at: string;
  sent_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  part_details: MessagePart[];
  history: MessageEvent[];
}

export interface TestMessage {
  to: string;
  message: string;
  from?: string;
}

export interface TestMessageSent {
  message_id: string;
  to: string;
  from: string;
  message: string;
  parts: number;
  cost: number;
  balance: number;
  status: string;
}

/** The log's query parameters as the API takes them (`status` comma-separated, dates as YYYY-MM-DD). */
export interface MessageLogQuery {
  search?: string;
  status?: string;
  from?: string;
  to?: string;
  campaign_id?: string;
}

/** Statuses that may still change: a log showing one of them is read again now and then. */
const UNSETTLED: readonly MessageStatus[] = ['scheduled', 'queued', 'sent'];
const LOG_PAGE = 50;
const POLL_MS = 5_000;

export const messageKeys = {
  all: ['messages'] as const,
  log: (query: MessageLogQuery) => ['messages', 'log', query] as const,
  detail: (id: string) => ['messages', 'detail', id] as const,
};

/** Read the log again every few seconds while a message it shows may still change state. */
export function messageLogPollInterval(pages: readonly MessageLogPage[] | undefined): number | false {
  return pages?.some((page) => page.items.some((item) => UNSETTLED.includes(item.status))) ? POLL_MS : false;
}

function queryString(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) search.set(name, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The log, newest first, a page of 50 at a time ("Load more" asks for the next with its cursor). */
export function messageLogQuery(api: ApiClient, query: MessageLogQuery) {
  return infiniteQueryOptions({
    queryKey: messageKeys.log(query),
    queryFn: ({ pageParam, signal }) =>
      api.get<MessageLogPage>(`/messages${queryString({ ...query, limit: String(LOG_PAGE), cursor: pageParam ?? undefined })}`, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    refetchInterval: (state) => messageLogPollInterval(state.state.data?.pages),
  });
}

export function messageDetailQuery(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: messageKeys.detail(id),
    queryFn: ({ signal }) => api.get<MessageDetail>(`/messages/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (state) => (state.state.data && UNSETTLED.includes(state.state.data.status) ? POLL_MS : false),
  });
}

export function sendTestMessage(api: ApiClient, message: TestMessage): Promise<TestMessageSent> {
  return api.post<TestMessageSent>('/messages/test', message);
}
