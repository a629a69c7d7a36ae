import fc from 'fast-check';
import { pathId, queryString, type BodyShape } from './fuzz-values';

const phones = fc.constantFrom('+447911123499', '447911123498', '+4479', '+33612345699', 'not-a-number', '');
const numbers = fc.constantFrom('+447400900123', 'Acme', 'TooLongSenderId', '!!', '', null);
const sources = fc.constantFrom('api', 'import', 'keyword', 'console', 'admin', 'carrier', '');
const times = fc.constantFrom('2026-01-15T09:30:00Z', '2099-01-01T00:00:00Z', 'yesterday', '2026-02-30T00:00:00Z');
const entry = fc.record({ phone: phones, number: numbers, source: sources, created_at: times }, { requiredKeys: [] });

/** POST /sms/opt-outs: one entry, or `opt_outs` of a few (valid, bad, odd). */
export function optOutImportShape(): BodyShape {
  return {
    fields: {
      phone: phones,
      number: numbers,
      source: sources,
      created_at: times,
      opt_outs: fc.oneof(fc.array(entry, { maxLength: 5 }), fc.constantFrom([], 'x', null)),
    },
  };
}

/** GET /sms/opt-outs with its filters and cursors; DELETE /sms/opt-outs/{phone}, with and without `number`. */
export function optOutReadRoutes<R>(at: (path: fc.Arbitrary<string>, method?: 'GET' | 'DELETE') => R): R[] {
  const values = fc.oneof(phones, fc.constantFrom('api', 'import', 'xml', 'WyIxIl0', 'WyI5MDA3MTk5MjU0NzQwOTkzIl0', '0', '1001', 'x'.repeat(600)));
  return [
    at(queryString(['phone', 'number', 'source', 'limit', 'cursor'], values).map((q) => `/sms/opt-outs${q}`)),
    at(
      fc.tuple(pathId(phones), queryString(['number'], fc.constantFrom('+447400900123', 'Acme', '!!'))).map(([phone, q]) => `/sms/opt-outs/${phone}${q}`),
      'DELETE',
    ),
  ];
}
