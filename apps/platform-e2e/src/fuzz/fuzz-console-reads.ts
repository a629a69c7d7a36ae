import fc from 'fast-check';
import type { ReadRoute } from './fuzz-routes';
import { queryString } from './fuzz-values';

/** The console's Verifications and Billing reads, with dates, channels, countries, kinds and cursors plausible or not. */
export function verificationAndBillingReadRoutes(): ReadRoute[] {
  const values = fc.oneof(
    fc.uuid(),
    fc.constantFrom(
      '0193e8a0-0000-7000-8000-000000000003',
      '2026-11-01',
      '2026-11-26T10:00:00Z',
      '2024-01-01',
      '2026-02-30',
      'sms',
      'whatsapp',
      'DE',
      'gb',
      'charge',
      'charge,refund',
      'topup,gift',
      'otp:x',
      '1',
      '100',
      '101',
      'WyIxIl0',
      'AAAA',
    ),
  );
  const at = (path: string, names: string[]): ReadRoute => ({
    method: 'GET',
    path: queryString(['company_id', ...names], values).map((q) => `/dashboard/api/${path}${q}`),
  });
  return [
    at('verifications/stats', ['from', 'to', 'channel', 'country']),
    at('verifications/blocks', ['from', 'to', 'limit', 'cursor']),
    at('billing/balance', []),
    at('billing/ledger', ['kinds', 'from', 'to', 'reference', 'limit', 'cursor']),
    at('billing/spend', ['from', 'to']),
    at('billing/ledger.csv', ['kinds', 'from', 'to', 'reference']),
    at('billing/settings', []),
  ];
}
