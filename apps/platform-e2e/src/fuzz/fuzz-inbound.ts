import fc from 'fast-check';
import { pathId, queryString } from './fuzz-values';

const numbers = fc.constantFrom('+447911123499', '447911123498', '+4479', 'not-a-number', '');
const ids = fc.constantFrom('0193b1f2-0000-7000-8000-000000000000', 'not-a-uuid', '', '%00', 'x'.repeat(300));

/** GET /sms/inbound with its filters and cursors, and GET /sms/inbound/{id}. */
export function inboundReadRoutes<R>(at: (path: fc.Arbitrary<string>) => R): R[] {
  const values = fc.oneof(numbers, fc.constantFrom('2026-11-22', '2026-02-30', 'yesterday', 'WyIxIl0', '0', '101', 'x'.repeat(600)));
  return [
    at(queryString(['from', 'to', 'date_from', 'date_to', 'limit', 'cursor'], values).map((q) => `/sms/inbound${q}`)),
    at(pathId(ids).map((id) => `/sms/inbound/${id}`)),
  ];
}
