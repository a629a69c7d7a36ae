import { readQuery, type Result } from '@mp/http-kit';
import { OTP_BLOCKS_MAX_LIMIT, type OtpBlockFilter, type VerificationStatsFilter } from '@mp/otp';
import type { OtpChannel } from '@mp/otp-domain';
import { chartRange, cursorParameter, LIST_DEFAULT_LIMIT } from './console-query';

const OTP_CHANNELS: readonly OtpChannel[] = ['sms', 'whatsapp'];
const COUNTRY = /^[A-Z]{2}$/;

/** GET /dashboard/api/verifications/stats: `from`, `to` (the last 30 UTC days by default), `channel`, `country`, `company_id`. */
export function parseVerificationStatsQuery(query: unknown, now: Date): Result<{ companyId: string | undefined; filter: VerificationStatsFilter }> {
  return readQuery(query, ['company_id', 'from', 'to', 'channel', 'country'], (q) => ({
    companyId: q.text('company_id') ?? undefined,
    filter: {
      ...chartRange(q, now),
      applicationId: null,
      channel: q.oneOf('channel', OTP_CHANNELS),
      country: q.parsed('country', 'an ISO 3166-1 alpha-2 code such as GB', (text) => (COUNTRY.test(text.toUpperCase()) ? text.toUpperCase() : null)),
    },
  }));
}

/** GET /dashboard/api/verifications/blocks: `from`, `to`, `limit`, `cursor`, `company_id`. */
export function parseOtpBlocksQuery(
  query: unknown,
): Result<{ companyId: string | undefined; filter: OtpBlockFilter; page: { limit: number; cursor: string | null } }> {
  return readQuery(query, ['company_id', 'from', 'to', 'limit', 'cursor'], (q) => ({
    companyId: q.text('company_id') ?? undefined,
    filter: { applicationId: null, recipient: null, range: q.range() },
    page: { limit: q.integer('limit', 1, OTP_BLOCKS_MAX_LIMIT, LIST_DEFAULT_LIMIT), cursor: cursorParameter(q) },
  }));
}
