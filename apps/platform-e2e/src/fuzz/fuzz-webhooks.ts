import fc from 'fast-check';
import type { ReadRoute } from './fuzz-routes';
import { pathId, queryString, type BodyShape } from './fuzz-values';

const values = fc.oneof(
  fc.uuid(),
  fc.constantFrom('0193e8a0-0000-7000-8000-000000000003', 'pending', 'delivered', 'dead', 'lost', 'message.sent', 'otp.verified', '', 'WyIxIl0', 'AAAA', '1'),
);

/** The console's Webhooks reads, and a resend (a body-less POST) of made-up or odd delivery ids. */
export function webhookReadRoutes(): ReadRoute[] {
  const deliveryId = pathId(fc.constant('0193e8a0-0000-7000-8000-000000000006'));
  const company = queryString(['company_id'], values);
  return [
    { method: 'GET', path: company.map((q) => `/dashboard/api/webhooks/secret${q}`) },
    { method: 'GET', path: queryString(['company_id', 'status', 'event_type', 'cursor'], values).map((q) => `/dashboard/api/webhooks/deliveries${q}`) },
    { method: 'GET', path: fc.tuple(deliveryId, company).map(([id, q]) => `/dashboard/api/webhooks/deliveries/${id}${q}`) },
    { method: 'POST', path: fc.tuple(deliveryId, company).map(([id, q]) => `/dashboard/api/webhooks/deliveries/${id}/resend${q}`) },
  ];
}

/** POST /dashboard/api/webhooks/secret/rotate: an overlap in bounds, out of them, or not a number. */
export function webhookPostRoutes(): { path: string; shape: BodyShape }[] {
  const overlap = fc.oneof(fc.integer({ min: -10, max: 700_000 }), fc.constantFrom(0, 604_800, 604_801, 1.5, -0, 1e21, '3600', null, true, []));
  return [{ path: '/dashboard/api/webhooks/secret/rotate', shape: { fields: { overlap_seconds: overlap } } }];
}
