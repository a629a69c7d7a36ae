import fc from 'fast-check';
import type { KnownIds, ReadRoute } from './fuzz-routes';
import { pathId, queryString, type BodyShape } from './fuzz-values';

const FALLBACK_APPID = 'app_00000000000000000000';
const appidOf = (ids: KnownIds) => ids.appids[0] ?? FALLBACK_APPID;
const texts = fc.oneof(
  fc.constantFrom(
    'Your code {{otp}}',
    'Kod {{otp}} – ważny',
    '😀 {{code}}',
    '{{otp}}',
    'no code',
    'x'.repeat(1600),
    'x'.repeat(1601),
    '',
    '{{ otp }} {{nope}}',
  ),
  fc.string({ maxLength: 200 }),
);
const langs = fc.constantFrom('en', 'pl', 'pt-BR', 'zz', 'English', 'EN', '', 'a'.repeat(30));
const phones = fc.constantFrom('+447400123456', '+33612345678', '447400123456', '+4479', '+1 202 555 0143', '+447400123456,+33612345678', '');

/** The console's application and template changes that take a body (POST; the PATCH and PUT routes are the e2e specs'). */
export function applicationPostRoutes(ids: KnownIds): { path: string; shape: BodyShape }[] {
  const app = `/dashboard/api/applications/${appidOf(ids)}`;
  const settings = {
    otp_validity_minutes: fc.oneof(fc.integer({ min: -1, max: 61 }), fc.constantFrom(2.5, 1e9)),
    allowed_countries: fc.oneof(fc.array(fc.constantFrom('GB', 'fr', 'GBR', '', 'X1'), { maxLength: 4 }), fc.constantFrom('GB', [])),
    otp_prefix_limit_per_hour: fc.oneof(fc.integer({ min: -1, max: 100 }), fc.constantFrom(1_000_000, 1_000_001, 0.5)),
  };
  return [
    {
      path: '/dashboard/api/applications',
      shape: { fields: { name: fc.oneof(fc.constantFrom('Shop', 'default', '', ' '), fc.string({ maxLength: 40 })), ...settings } },
    },
    { path: `${app}/templates`, shape: { fields: { text: texts, lang: langs } } },
    {
      path: `${app}/templates/preview`,
      shape: {
        fields: {
          text: texts,
          lang: langs,
          to: phones,
          route: fc.constantFrom('auto', 'standard', 'premium', 'whatsapp', 'fast'),
          custom_vars: fc.oneof(
            fc.dictionary(fc.string({ maxLength: 12 }), fc.oneof(fc.string({ maxLength: 250 }), fc.integer(), fc.boolean())),
            fc.constantFrom([], 'x'),
          ),
        },
      },
    },
  ];
}

/** The console's application reads, and removals of templates that are not the run's own (ids it never made). */
export function applicationReadRoutes(ids: KnownIds): ReadRoute[] {
  const values = fc.oneof(fc.uuid(), fc.constantFrom('0193e8a0-0000-7000-8000-000000000003', 'x', '1'));
  const query = queryString(['company_id'], values);
  const appid = pathId(fc.constantFrom(appidOf(ids), FALLBACK_APPID));
  const strangerTemplate = pathId(fc.constantFrom('2147483647', '2147483648', '0', '-1', '1.5', '99999'));
  const lang = pathId(fc.constantFrom('en', 'pl', 'pt-BR', 'Polish'));
  const at = (path: fc.Arbitrary<string>, method: ReadRoute['method'] = 'GET'): ReadRoute => ({ method, path });
  return [
    at(query.map((q) => `/dashboard/api/applications${q}`)),
    at(fc.tuple(appid, query).map(([id, q]) => `/dashboard/api/applications/${id}${q}`)),
    at(fc.tuple(appid, query).map(([id, q]) => `/dashboard/api/applications/${id}/templates${q}`)),
    at(
      fc
        .tuple(appid, strangerTemplate, lang, query)
        .map(([id, template, code, q]) => `/dashboard/api/applications/${id}/templates/${template}/texts/${code}${q}`),
      'DELETE',
    ),
    at(
      fc.tuple(appid, strangerTemplate, query).map(([id, template, q]) => `/dashboard/api/applications/${id}/templates/${template}${q}`),
      'DELETE',
    ),
  ];
}
