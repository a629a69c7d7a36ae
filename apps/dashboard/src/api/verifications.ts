// The verifications page's part of the dashboard API (docs/dashboard-api.json, /dashboard/api/verifications).
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { ApiClient } from './client';
import { queryString } from './query-string';

export const OTP_CHANNELS = ['sms', 'whatsapp'] as const;
export type OtpChannel = (typeof OTP_CHANNELS)[number];

export interface VerificationCounts {
  sent: number;
  verified: number;
  /** verified / sent, 4 decimals. */
  conversion_rate: number;
  median_seconds: number | null;
  p95_seconds: number | null;
}

export interface VerificationDay extends VerificationCounts {
  /** UTC day, YYYY-MM-DD. */
  day: string;
}

export interface VerificationRow extends VerificationDay {
  channel: OtpChannel;
  country: string | null;
}

export interface VerificationStats {
  from: string;
  to: string;
  days: VerificationDay[];
  rows: VerificationRow[];
  totals: VerificationCounts;
}

export interface OtpBlock {
  blocked_at: string;
  blocked_until: string;
  active: boolean;
  recipient: string;
  appid: string;
  verification_id: string | null;
}

export interface OtpBlockPage {
  items: OtpBlock[];
  next_cursor: string | null;
}

/** The stats' query parameters as the API takes them (dates as YYYY-MM-DD, `to` inclusive). */
export interface VerificationStatsQuery {
  from?: string;
  to?: string;
  channel?: OtpChannel;
  country?: string;
}

const BLOCKS_PAGE = 20;

export const verificationKeys = {
  all: ['verifications'] as const,
  stats: (query: VerificationStatsQuery) => ['verifications', 'stats', query] as const,
  blocks: ['verifications', 'blocks'] as const,
};

export function verificationStatsQuery(api: ApiClient, query: VerificationStatsQuery) {
  return queryOptions({
    queryKey: verificationKeys.stats(query),
    queryFn: ({ signal }) =>
      api.get<VerificationStats>(`/verifications/stats${queryString({ from: query.from, to: query.to, channel: query.channel, country: query.country })}`, {
        signal,
      }),
  });
}

export function otpBlocksQuery(api: ApiClient) {
  return infiniteQueryOptions({
    queryKey: verificationKeys.blocks,
    queryFn: ({ pageParam, signal }) =>
      api.get<OtpBlockPage>(`/verifications/blocks${queryString({ limit: String(BLOCKS_PAGE), cursor: pageParam ?? undefined })}`, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
  });
}
