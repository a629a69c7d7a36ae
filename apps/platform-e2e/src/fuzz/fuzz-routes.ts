import fc from 'fast-check';
import { inboundReadRoutes } from './fuzz-inbound';
import { optOutReadRoutes } from './fuzz-opt-outs';
import { pathId, queryString, type BodyShape } from './fuzz-values';

/** Ids the fuzz run has seen answered with 2xx, so later cases reach past "not found". */
export interface KnownIds {
  appids: string[];
  templateIds: number[];
  messageIds: string[];
  campaignIds: string[];
  verifications: { id: string; code: string }[];
  /** Keys the fuzz run made through the dashboard API: the only ones it may revoke (its own credentials must keep working). */
  dashboardKeyIds: string[];
  /** The dashboard user the run is signed in as. */
  dashboardUserIds: string[];
}

/** One of the known values, chosen by an index the run can shrink (or the fallback while there is none). */
function known<T>(list: () => readonly T[], fallback: T): fc.Arbitrary<T> {
  return fc.nat().map((i) => {
    const values = list();
    return values.length === 0 ? fallback : values[i % values.length];
  });
}

const phones = fc.constantFrom(
  '+447911123456',
  '+447400123457',
  '+33612345678',
  '447911123458',
  '+1 202 555 0143',
  '+4479',
  '+4479111234567890',
  '+15005550006',
);
const phoneLists = fc.oneof(
  phones,
  fc.tuple(fc.array(phones, { maxLength: 5 }), fc.constantFrom(',', ';', ' , ')).map(([list, separator]) => list.join(separator)),
);
const texts = fc.oneof(
  fc.constantFrom('Hello', 'x'.repeat(161), '€'.repeat(81), '😀 emoji', 'x'.repeat(1600), 'x'.repeat(1601), 'Your code {{otp}}'),
  fc.string({ maxLength: 200 }),
);
const senders = fc.constantFrom('Acme', 'SMS', '12345', '+447911123456', 'TooLongSenderId', 'Ac me', '!!', '');
const futureTime = fc.integer({ min: -3_600_000, max: 40 * 24 * 3_600_000 }).map((ms) => new Date(Date.now() + ms).toISOString());
const webhookUrls = fc.constantFrom('https://hooks.example.com/sms', 'http://127.0.0.1:9/hooks', 'http://10.0.0.1/x', 'ftp://x', 'https://u:p@example.com/');
const smallInts = fc.oneof(fc.integer({ min: -2, max: 12 }), fc.constantFrom(1_000, 10_000, 10_001, 3_600, 3_601));

export function smsSendShape(): BodyShape {
  return {
    fields: {
      to: phoneLists,
      phone: phones,
      recipient: phones,
      recipients: phoneLists,
      message: texts,
      text: texts,
      body: texts,
      from: senders,
      sender: senders,
      sender_id: senders,
      route: fc.constantFrom('auto', 'standard', 'premium', 'express', ''),
      scheduled_time: futureTime,
      reference: fc.string({ maxLength: 220 }),
      webhook_url: webhookUrls,
    },
  };
}

export function bulkShape(): BodyShape {
  const message = fc.record({ to: phones, message: texts }, { requiredKeys: [] });
  return {
    fields: {
      recipients: fc.oneof(phoneLists, fc.array(phones, { maxLength: 6 })),
      message: texts,
      messages: fc.array(fc.oneof(message, fc.record({ to: phones, message: texts, reference: fc.string(), from: senders })), { maxLength: 4 }),
      from: senders,
      batch_size: smallInts,
      delay_between_batches: smallInts,
      reference: fc.string({ maxLength: 220 }),
      priority: fc.constantFrom('normal', 'high', 'urgent'),
      scheduled_time: futureTime,
      webhook_url: webhookUrls,
    },
  };
}

export function otpSendShape(ids: KnownIds): BodyShape {
  return {
    fields: {
      appid: known(() => ids.appids, 'app_unknown'),
      recipient: phones,
      phone: phones,
      to: phones,
      channel: fc.constantFrom('sms', 'whatsapp', 'email'),
      from: senders,
      sender: senders,
      otp_length: smallInts,
      template: fc.oneof(
        known(() => ids.templateIds, 1),
        fc.constantFrom('Code {{otp}}', '{{code}} for {{app_name}} {{shop}}', 'no code', '2147483648'),
      ),
      lang: fc.constantFrom('en', 'pt', 'pt-BR', 'xx', 'EN', ''),
      custom_vars: fc.dictionary(fc.constantFrom('shop', 'name', 'a-b', ''), fc.oneof(fc.string({ maxLength: 210 }), fc.integer(), fc.boolean())),
      otp_code: fc.constantFrom('1234', '12345678', '123', '123456789', 'abcd'),
      code: fc.constantFrom('4321', '00000000'),
      expiry_minutes: smallInts,
    },
  };
}

export function otpTargetShape(ids: KnownIds, withCode: boolean): BodyShape {
  const verification = known(() => ids.verifications, { id: '0193e8a0-0000-7000-8000-000000000000', code: '000000' });
  return {
    fields: {
      verification_id: verification.map((v) => v.id),
      appid: known(() => ids.appids, 'app_unknown'),
      recipient: phones,
      phone: phones,
      ...(withCode ? { otp_code: verification.map((v) => v.code), code: fc.constantFrom('000000', '1234') } : {}),
    },
  };
}

export function tokenShape(apiKey: string): BodyShape {
  return { fields: { api_key: fc.constantFrom(apiKey, 'mpk_AAAAAAAAAAAAAAAAAAAAAA', 'mpk_x'), api_secret: fc.constantFrom('wrong', '') } };
}

export function whatsappShape(): BodyShape {
  const status = fc.record(
    {
      id: fc.oneof(fc.constantFrom('wamid.A', ''), fc.string()),
      status: fc.constantFrom('sent', 'delivered', 'read', 'failed', 'x'),
      timestamp: fc.oneof(fc.constantFrom('1763800000', '17638000000000', '-1'), fc.integer()),
      errors: fc.constantFrom([{ code: 131026 }], [null], 'x'),
    },
    { requiredKeys: [] },
  );
  const change = fc.record({
    field: fc.constantFrom('messages', 'x'),
    value: fc.oneof(fc.record({ statuses: fc.array(fc.oneof(status, fc.constant(null)), { maxLength: 3 }) }), fc.constant(null)),
  });
  return {
    fields: {
      object: fc.constant('whatsapp_business_account'),
      entry: fc.array(fc.oneof(fc.record({ changes: fc.oneof(fc.array(change, { maxLength: 2 }), fc.constant('x')) }), fc.constant(null)), { maxLength: 2 }),
    },
  };
}

const emails = fc.constantFrom(
  'fuzz-owner@example.com',
  'FUZZ-OWNER@example.com',
  'nobody@example.com',
  'grace@example.com',
  'not an email',
  '',
  'a@b',
  `${'x'.repeat(250)}@example.com`,
);
const passwords = fc.oneof(fc.constantFrom('correct horse battery', 'wrong password', 'short', '', 'x'.repeat(257)), fc.string({ maxLength: 300 }));

/** POST /dashboard/api/session: right and wrong passwords (wrong ones lock the account: 429 is an answer too). */
export function signInShape(): BodyShape {
  return { fields: { email: emails, password: passwords } };
}

export function invitationShape(): BodyShape {
  return { fields: { email: emails, role: fc.constantFrom('developer', 'owner', 'operator', 'admin', '') } };
}

/** POST /dashboard/api/messages/test: one number, a text, a sender (POST /sms/send's rules). */
export function testMessageShape(): BodyShape {
  return { fields: { to: phoneLists, message: texts, from: senders } };
}

export function acceptInvitationShape(): BodyShape {
  return { fields: { password: passwords } };
}

/** A GET or DELETE: its path (ids known, made up or odd) and query string. */
export interface ReadRoute {
  method: 'GET' | 'DELETE' | 'POST';
  path: fc.Arbitrary<string>;
}

export function readRoutes(ids: KnownIds): ReadRoute[] {
  const messageId = pathId(known(() => ids.messageIds, '0193e8a0-0000-7000-8000-000000000001'));
  const campaignId = pathId(known(() => ids.campaignIds, '0193e8a0-0000-7000-8000-000000000002'));
  const plausible = fc.oneof(
    known(() => ids.verifications.map((v) => v.id), 'x'),
    known(() => ids.appids, 'app_x'),
    fc.constantFrom(
      '+447911123456',
      'sms',
      'whatsapp',
      'pending',
      'verified',
      'sent',
      '2026-11-01',
      '2026-11-26T10:00:00Z',
      '1',
      '100',
      '101',
      '0',
      '9007199254740993',
    ),
  );
  const otpQuery = (names: string[]) => queryString(names, plausible);
  const at = (path: fc.Arbitrary<string>, method: ReadRoute['method'] = 'GET'): ReadRoute => ({ method, path });
  return [
    at(fc.tuple(messageId, otpQuery([])).map(([id, q]) => `/sms/${id}${q}`)),
    at(
      messageId.map((id) => `/sms/${id}`),
      'DELETE',
    ),
    at(otpQuery(['status', 'reference', 'page', 'limit']).map((q) => `/sms/campaigns${q}`)),
    at(campaignId.map((id) => `/sms/campaigns/${id}`)),
    at(fc.tuple(campaignId, otpQuery(['status', 'page', 'limit'])).map(([id, q]) => `/sms/campaigns/${id}/messages${q}`)),
    at(
      campaignId.map((id) => `/v1/sms/campaigns/${id}/cancel`),
      'POST',
    ),
    at(otpQuery(['verification_id']).map((q) => `/otp/status${q}`)),
    at(otpQuery(['appid', 'recipient', 'status', 'channel', 'from', 'to', 'page', 'limit']).map((q) => `/otp/list${q}`)),
    at(otpQuery(['verification_id', 'appid', 'recipient', 'event', 'from', 'to', 'page', 'limit']).map((q) => `/otp/logs${q}`)),
    at(otpQuery(['verification_id', 'appid', 'recipient', 'outcome', 'from', 'to', 'page', 'limit']).map((q) => `/otp/attempts${q}`)),
    at(otpQuery(['appid']).map((q) => `/otp/rate-limits${q}`)),
    at(otpQuery(['appid', 'channel', 'from', 'to']).map((q) => `/otp/reports${q}`)),
    at(otpQuery([]).map((q) => `/balance${q}`)),
    at(otpQuery([]).map((q) => `/senders${q}`)),
    at(otpQuery([]).map((q) => `/settings${q}`)),
    ...optOutReadRoutes(at),
    ...inboundReadRoutes(at),
    ...listingRoutes(plausible, at),
    at(otpQuery(['hub.mode', 'hub.verify_token', 'hub.challenge']).map((q) => `/webhooks/whatsapp${q}`)),
    at(fc.constantFrom('/health', '/health/live', '/health/ready', '/v1/balance', '/nope', '/sms', '/otp/send', '/%00', '/sms/%ff%fe', '//sms//send')),
  ];
}

/** GET /sms, /usage and /usage/ledger: their filters, cursors and formats, plausible and odd. */
function listingRoutes(plausible: fc.Arbitrary<string>, at: (path: fc.Arbitrary<string>) => ReadRoute): ReadRoute[] {
  const values = fc.oneof(
    plausible,
    fc.constantFrom('scheduled,delivered', 'SMS', 'day', 'country', 'route', 'charge,refund', 'csv', 'json', 'xml', 'WyIxIl0', '2020-01-01', 'x'.repeat(101)),
  );
  return [
    at(queryString(['status', 'to', 'from', 'reference', 'campaign_id', 'date_from', 'date_to', 'limit', 'cursor'], values).map((q) => `/sms${q}`)),
    at(queryString(['group_by', 'date_from', 'date_to', 'format'], values).map((q) => `/usage${q}`)),
    at(queryString(['kind', 'date_from', 'date_to', 'reference', 'limit', 'cursor', 'format'], values).map((q) => `/usage/ledger${q}`)),
  ];
}

/**
 * The dashboard API's reads and removals. Signing out (DELETE /session, /sessions) is left out: it
 * would end the session the rest of the run uses.
 */
export function dashboardReadRoutes(ids: KnownIds): ReadRoute[] {
  const companyIds = fc.oneof(fc.constantFrom('0193e8a0-0000-7000-8000-000000000003', 'x', ''), fc.uuid());
  const companyQuery = (names: string[]) => queryString(['company_id', ...names], fc.oneof(companyIds, fc.constantFrom('1', '42', '9007199254740993', '-1')));
  const keyId = pathId(known(() => ids.dashboardKeyIds, '0193e8a0-0000-7000-8000-000000000004'));
  const userId = pathId(known(() => ids.dashboardUserIds, '0193e8a0-0000-7000-8000-000000000005'));
  const messageId = pathId(known(() => ids.messageIds, '0193e8a0-0000-7000-8000-000000000001'));
  const campaignId = pathId(known(() => ids.campaignIds, '0193e8a0-0000-7000-8000-000000000002'));
  const logValues = fc.oneof(
    companyIds,
    fc.constantFrom('+4479', '447911 123', 'delivered', 'delivered,failed', 'lost', '2026-11-01', '2026-11-26T10:00:00Z', '1', '100', '101', 'WyIxIl0'),
  );
  const messageLogQuery = queryString(['company_id', 'search', 'status', 'from', 'to', 'campaign_id', 'limit', 'cursor'], logValues);
  const at = (path: fc.Arbitrary<string>, method: ReadRoute['method'] = 'GET'): ReadRoute => ({ method, path });
  return [
    at(fc.constantFrom('/dashboard/api/session', '/dashboard/api/docs/openapi.json', '/dashboard/api/nope', '/dashboard/api')),
    at(companyQuery([]).map((q) => `/dashboard/api/keys${q}`)),
    at(companyQuery([]).map((q) => `/dashboard/api/members${q}`)),
    at(companyQuery(['cursor']).map((q) => `/dashboard/api/audit${q}`)),
    at(messageLogQuery.map((q) => `/dashboard/api/messages${q}`)),
    at(fc.tuple(messageId, companyQuery([])).map(([id, q]) => `/dashboard/api/messages/${id}${q}`)),
    at(companyQuery(['status', 'page', 'limit']).map((q) => `/dashboard/api/campaigns${q}`)),
    at(fc.tuple(campaignId, companyQuery([])).map(([id, q]) => `/dashboard/api/campaigns/${id}${q}`)),
    at(
      fc.tuple(campaignId, companyQuery([])).map(([id, q]) => `/dashboard/api/campaigns/${id}/cancel${q}`),
      'POST',
    ),
    at(
      fc.tuple(keyId, companyQuery([])).map(([id, q]) => `/dashboard/api/keys/${id}${q}`),
      'DELETE',
    ),
    at(
      fc.tuple(userId, companyQuery([])).map(([id, q]) => `/dashboard/api/members/${id}${q}`),
      'DELETE',
    ),
  ];
}
