import fc from 'fast-check';
import { createHmac } from 'node:crypto';
import { withReadableForm, type Framing, type FuzzRequest } from './fuzz-http';
import {
  acceptInvitationShape,
  bulkShape,
  dashboardReadRoutes,
  invitationShape,
  otpSendShape,
  otpTargetShape,
  readRoutes,
  signInShape,
  smsSendShape,
  testMessageShape,
  tokenShape,
  whatsappShape,
  type KnownIds,
} from './fuzz-routes';
import { verificationAndBillingReadRoutes } from './fuzz-console-reads';
import { applicationPostRoutes, applicationReadRoutes } from './fuzz-applications';
import { optOutImportShape } from './fuzz-opt-outs';
import { anyText, jsonBody, NASTY_TEXTS, type BodyShape } from './fuzz-values';
import { webhookPostRoutes, webhookReadRoutes } from './fuzz-webhooks';

/** What the fuzz run knows of its company, to make credentials of every kind. */
export interface FuzzCompany {
  apiKey: string;
  apiSecret: string;
  /** A JWT from POST /auth/token. */
  accessToken: string;
  /** A key of the company that only POST /auth/token is fuzzed with (wrong secrets block a key). */
  spareApiKey: string;
  /** The development secret the gateway checks X-Hub-Signature-256 with. */
  whatsappAppSecret: string;
  /** A dashboard session of the company's owner: its cookie's token and its CSRF token. */
  dashboardToken: string;
  dashboardCsrf: string;
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

const DASHBOARD = /^\/(v1\/)?dashboard\/api(\/|$|\?)/;

/** The credentials a route takes: a dashboard session for the dashboard API, API keys elsewhere. */
function credentialsFor(company: FuzzCompany, path: string): fc.Arbitrary<Record<string, string>> {
  return DASHBOARD.test(path) ? sessionHeaders(company) : credentialHeaders(company);
}

/** A dashboard session: mostly the cookie with its CSRF token, then without, with another, or API keys instead. */
function sessionHeaders(company: FuzzCompany): fc.Arbitrary<Record<string, string>> {
  const cookie = `mp_session=${company.dashboardToken}`;
  const headerSafe = anyText.map((text) => text.replace(/[^\t\x20-\x7e]/g, '?').slice(0, 300));
  const broken = fc.oneof<fc.Arbitrary<Record<string, string>>[]>(
    fc.constant({}),
    fc.constant({ cookie }),
    headerSafe.map((csrf) => ({ cookie, 'x-csrf-token': csrf })),
    headerSafe.map((token) => ({ cookie: `mp_session=${token}`, 'x-csrf-token': company.dashboardCsrf })),
    headerSafe.map((text) => ({ cookie: text })),
    fc.constant({ 'x-api-key': company.apiKey, 'x-api-secret': company.apiSecret }),
  );
  return fc.oneof({ weight: 6, arbitrary: fc.constant({ cookie, 'x-csrf-token': company.dashboardCsrf }) }, { weight: 1, arbitrary: broken });
}

/** Credentials: mostly good ones of each scheme (so validation is reached), then broken ones. */
function credentialHeaders(company: FuzzCompany): fc.Arbitrary<Record<string, string>> {
  const pair = `${company.apiKey}:${company.apiSecret}`;
  const good = fc.constantFrom<Record<string, string>>(
    { 'x-api-key': company.apiKey, 'x-api-secret': company.apiSecret },
    { authorization: `Basic ${base64(pair)}` },
    { authorization: `Bearer ${base64(pair)}` },
    { authorization: `Bearer ${company.accessToken}` },
  );
  const headerSafe = anyText.map((text) => text.replace(/[^\t\x20-\x7e]/g, '?').slice(0, 300));
  const broken = fc.oneof<fc.Arbitrary<Record<string, string>>[]>(
    fc.constant({}),
    fc.tuple(headerSafe, headerSafe).map(([key, secret]) => ({ 'x-api-key': key, 'x-api-secret': secret })),
    anyText.map((text) => ({ authorization: `Basic ${base64(text)}` })),
    anyText.map((text) => ({ authorization: `Bearer ${base64(`${text}:${company.apiSecret}`)}` })),
    headerSafe.map((text) => ({ authorization: text })),
    fc.constantFrom('eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', 'a.b.c', `${company.accessToken}x`).map((token) => ({ authorization: `Bearer ${token}` })),
  );
  return fc.oneof({ weight: 6, arbitrary: good }, { weight: 1, arbitrary: broken });
}

const contentTypes = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      '',
      'application/json; charset=utf-16',
    ),
  },
);

const framings: fc.Arbitrary<Framing> = fc.oneof(
  { weight: 16, arbitrary: fc.constant<Framing>('content-length') },
  { weight: 3, arbitrary: fc.constant<Framing>('chunked') },
  { weight: 1, arbitrary: fc.constantFrom<Framing>('length-too-short', 'length-too-long') },
);

const extraHeaders = fc.record(
  {
    'idempotency-key': fc.oneof(fc.uuid(), fc.constantFrom('k', 'x'.repeat(300), ' ', 'key with spaces')),
    'x-request-id': fc.constantFrom('abc', 'x'.repeat(500), '../../'),
    accept: fc.constantFrom('application/json', 'text/html', '*/*'),
  },
  { requiredKeys: [] },
);

interface PostRoute {
  path: string;
  shape: BodyShape;
  /** Signs the body as Meta would (the WhatsApp status webhook). */
  signed?: boolean;
}

function postRoutes(company: FuzzCompany, ids: KnownIds): PostRoute[] {
  return [
    { path: '/sms/send', shape: smsSendShape() },
    { path: '/v1/sms/send', shape: smsSendShape() },
    { path: '/sms/estimate', shape: smsSendShape() },
    { path: '/sms/send-bulk', shape: bulkShape() },
    { path: '/sms/opt-outs', shape: optOutImportShape() },
    { path: '/otp/send', shape: otpSendShape(ids) },
    { path: '/otp/verify', shape: otpTargetShape(ids, true) },
    { path: '/otp/resend', shape: otpTargetShape(ids, false) },
    { path: '/auth/token', shape: tokenShape(company.spareApiKey) },
    { path: '/webhooks/whatsapp', shape: whatsappShape(), signed: true },
    { path: '/dashboard/api/session', shape: signInShape() },
    // The body is not read: a new key takes nothing.
    { path: '/dashboard/api/keys', shape: { fields: { company_id: fc.uuid(), name: fc.string({ maxLength: 50 }) } } },
    { path: '/dashboard/api/invitations', shape: invitationShape() },
    { path: '/dashboard/api/messages/test', shape: testMessageShape() },
    { path: '/dashboard/api/invitations/q0xZ1c2v9oA7Yt0b5R1Qq0xZ1c2v9oA7Yt0b5R1Qabc/accept', shape: acceptInvitationShape() },
    { path: '/dashboard/api/invitations/%00/accept', shape: acceptInvitationShape() },
    ...applicationPostRoutes(ids),
    ...webhookPostRoutes(),
  ];
}

/** A POST with a generated body to one of the routes that take one. */
export function postRequests(company: FuzzCompany, ids: KnownIds): fc.Arbitrary<FuzzRequest> {
  const routes = postRoutes(company, ids);
  return fc
    .integer({ min: 0, max: routes.length - 1 })
    .chain((i) =>
      fc.record({
        route: fc.constant(routes[i]),
        body: jsonBody(routes[i].shape),
        credentials: credentialsFor(company, routes[i].path),
        contentType: contentTypes,
        framing: framings,
        extra: extraHeaders,
        sign: fc.boolean(),
      }),
    )
    .map(({ route, body, credentials, contentType, framing, extra, sign }) => {
      const headers: Record<string, string> = { ...credentials, ...extra };
      if (contentType !== '') headers['content-type'] = contentType;
      if (route.signed && sign) headers['x-hub-signature-256'] = `sha256=${createHmac('sha256', company.whatsappAppSecret).update(body, 'utf8').digest('hex')}`;
      return withReadableForm({ method: 'POST', path: route.path, headers, body, framing });
    });
}

/** A GET, DELETE or body-less POST, with made-up, odd or known ids and query strings. */
export function readRequests(company: FuzzCompany, ids: KnownIds): fc.Arbitrary<FuzzRequest> {
  const routes = [
    ...readRoutes(ids),
    ...dashboardReadRoutes(ids),
    ...verificationAndBillingReadRoutes(),
    ...applicationReadRoutes(ids),
    ...webhookReadRoutes(),
  ];
  const strayBody = fc.option(fc.constantFrom('{}', '{"a":1}', '\u0000', 'x'.repeat(2_000_000), NASTY_TEXTS[3]), { freq: 8 });
  return fc
    .integer({ min: 0, max: routes.length - 1 })
    .chain((i) =>
      routes[i].path.chain((path) =>
        fc.record({ method: fc.constant(routes[i].method), path: fc.constant(path), credentials: credentialsFor(company, path), body: strayBody }),
      ),
    )
    .map(({ method, path, credentials, body }) =>
      withReadableForm({
        method,
        path,
        headers: body === null ? credentials : { ...credentials, 'content-type': 'application/json' },
        ...(body === null ? {} : { body }),
        framing: 'content-length' as const,
      }),
    );
}

/** A known route asked with a method it does not have. */
export function wrongMethodRequests(company: FuzzCompany): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: fc.constantFrom('PUT', 'PATCH', 'OPTIONS', 'GET', 'DELETE', 'HEAD', 'TRACE'),
      path: fc.constantFrom(
        '/sms/send',
        '/sms/send-bulk',
        '/otp/verify',
        '/auth/token',
        '/balance',
        '/otp/list',
        '/dashboard/api/session',
        '/dashboard/api/keys',
      ),
    })
    .chain(({ method, path }) => credentialsFor(company, path).map((credentials) => ({ method, path, credentials })))
    .map(({ method, path, credentials }) => withReadableForm({ method, path, headers: credentials, framing: 'content-length' as const }));
}
