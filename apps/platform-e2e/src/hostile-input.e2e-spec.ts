import { admin, startStack, type RunningStack } from '@mp/testing';
import jwt from 'jsonwebtoken';
import { createHmac } from 'node:crypto';
import { send } from './fuzz/fuzz-http';
import { ApiClient, basicAuthHeaders, bearerHeaders, bearerPairHeaders, createCompany, jsonText, keyPairHeaders, type Company } from './support/api-client';

/** The development secrets the stack runs with (libs/config DEV_SECRETS). */
const JWT_SECRET = 'dev-only-jwt-secret-change-me-000000000000000';
const WHATSAPP_APP_SECRET = 'dev-only-whatsapp-app-secret';
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const PHONE = '+447800061527';

/**
 * Every input issue 26 found answering 500, each as it was reported, through the real gateway:
 * null in string fields, NUL reaching PostgreSQL, deep JSON, an OTP text too long once rendered,
 * template ids beyond 32 bits, WhatsApp status webhooks of odd shapes, a JWT with a non-UUID
 * subject, and bodies over their route's limit without a Content-Length. The fuzz suite
 * (fuzz/api-fuzz.e2e-spec.ts) looks for the ones nobody reported.
 */
describe('hostile input answers 4xx with an error, never 500', () => {
  let stack: RunningStack;
  let acme: Company;

  /** As Acme; its anonymous() sends only the headers a test gives. Bodies go as the exact JSON text written here. */
  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => acme,
  );
  const balance = async () => ((await api.get('/balance')).body['data'] as { balance: number }).balance;

  beforeAll(async () => {
    await admin(['db:migrate']);
    acme = await createCompany('Acme', '10');
    stack = await startStack({ apps: ['gateway'] });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('null in a string field counts as not given', () => {
    it.each([
      ['/sms/send', '{"to":null,"message":null}', 'to is required'],
      ['/sms/send', `{"to":"${PHONE}","message":"x","message":null}`, 'message is required'],
      ['/sms/estimate', '{"to":null,"message":"x"}', 'to is required'],
      ['/otp/send', '{"appid":null,"recipient":null}', 'appid is required'],
      ['/otp/verify', '{"verification_id":"0193e8a0-0000-7000-8000-000000000000","code":null}', 'otp_code is required'],
      ['/otp/resend', '{"verification_id":null}', 'verification_id is required (or appid and recipient)'],
      ['/sms/send-bulk', '{"recipients":null,"message":"x","from":"Acme"}', 'recipients is required (or messages)'],
    ])('%s %s: 400 %s', async (path, body, error) => {
      const before = await balance();
      expect(await api.post(path, jsonText(body))).toEqual({ status: 400, body: { error } });
      expect(await balance()).toBe(before);
    });

    it('sends with every optional field and alias null, as if they were left out', async () => {
      const nulls = ['phone', 'recipient', 'recipients', 'text', 'body', 'from', 'sender', 'sender_id', 'route', 'scheduled_time', 'reference', 'webhook_url'];
      const body = JSON.stringify({ to: PHONE, message: 'x', ...Object.fromEntries(nulls.map((field) => [field, null])) });
      const sent = await api.post('/sms/send', jsonText(body));
      expect(sent).toMatchObject({ status: 200, body: { data: { from: 'SMS', status: 'sent', reference: null } } });
    });
  });

  describe('the NUL character never reaches PostgreSQL', () => {
    const otp = (fields: string) => `{"appid":"${acme.appid}","recipient":"${PHONE}",${fields}}`;
    it.each([
      ['/sms/send', () => `{"to":"${PHONE}","message":"x","reference":"a\\u0000b"}`, 'reference'],
      ['/sms/send', () => `{"to":"${PHONE}","message":"a\\u0000b"}`, 'message'],
      ['/sms/send-bulk', () => `{"recipients":["${PHONE}"],"message":"a\\u0000b","from":"Acme"}`, 'message'],
      ['/sms/send-bulk', () => `{"messages":[{"to":"${PHONE}","message":"x","reference":"\\u0000"}],"from":"Acme"}`, 'messages[0].reference'],
      ['/otp/send', () => `{"appid":"a\\u0000","recipient":"${PHONE}"}`, 'appid'],
      ['/otp/send', () => otp('"template":"{{otp}} \\u0000"'), 'template'],
      ['/otp/send', () => otp('"custom_vars":{"shop":"\\u0000"}'), 'custom_vars.shop'],
    ])('%s: 400 naming %s', async (path, body, field) => {
      expect(await api.post(path, jsonText(body()))).toEqual({ status: 400, body: { error: `${field} must not contain the NUL character (U+0000)` } });
    });

    it.each([
      ['/otp/list?appid=%00', 'appid'],
      ['/otp/logs?verification_id=a%00', 'verification_id'],
      ['/sms/campaigns?reference=%00', 'reference'],
      ['/sms/a%00b', 'message_id'],
    ])('GET %s: 400 naming %s', async (path, field) => {
      expect(await api.get(path)).toEqual({ status: 400, body: { error: `${field} must not contain the NUL character (U+0000)` } });
    });

    it('answers 401 to credentials that hold a NUL, with or without a body', async () => {
      const unauthorized = { status: 401, body: { error: 'Unauthorized' } };
      expect(await api.anonymous().post('/auth/token', jsonText('{"api_key":"\\u0000","api_secret":"x"}'))).toEqual(unauthorized);
      expect(await api.anonymous().get('/balance', { headers: basicAuthHeaders('mpk_\u0000x', acme.api_secret) })).toEqual(unauthorized);
      expect(await api.anonymous().get('/balance', { headers: bearerPairHeaders(`${acme.api_key}\u0000`, acme.api_secret) })).toEqual(unauthorized);
    });
  });

  describe('a lone surrogate never reaches PostgreSQL (jsonb refuses it, text would keep U+FFFD)', () => {
    const otp = (fields: string) => `{"appid":"${acme.appid}","recipient":"${PHONE}",${fields}}`;
    it.each([
      ['/sms/send', () => `{"to":"${PHONE}","message":"x\\udfffy"}`, 'message'],
      ['/sms/send-bulk', () => `{"messages":[{"to":"${PHONE}","message":"x","reference":"\\ud800"}],"from":"Acme"}`, 'messages[0].reference'],
      ['/otp/send', () => otp('"custom_vars":{"shop":"\\udfff"}'), 'custom_vars.shop'],
    ])('%s: 400 naming %s', async (path, body, field) => {
      expect(await api.post(path, jsonText(body()))).toEqual({
        status: 400,
        body: { error: `${field} must be valid Unicode text: it holds half of a surrogate pair (an escape \\ud800 to \\udfff without its other half)` },
      });
    });

    it('sends an escaped pair as the character it is', async () => {
      expect((await api.post('/sms/send', jsonText(`{"to":"${PHONE}","message":"\\ud83d\\ude00"}`))).status).toBe(200);
    });
  });

  describe('JSON nested deeper than any body the API reads', () => {
    const tooDeep = { status: 400, body: { error: 'JSON nested too deeply (at most 32 levels)' } };
    it('is refused before anything walks it, with credentials or without', async () => {
      expect(await api.post('/sms/send', jsonText(`{"to":${nested(3_000)},"message":"x"}`))).toEqual(tooDeep);
      expect(await api.anonymous().post('/auth/token', jsonText(`{"api_key":${nested(100_000)}}`))).toEqual(tooDeep);
      expect(await api.post('/sms/send', jsonText(`{"to":${nested(3_000)}}`), { headers: { 'idempotency-key': 'deep-1' } })).toEqual(tooDeep);
    });
  });

  describe('OTP fields that passed their own checks', () => {
    it('refuses a text over 1600 characters once rendered, each part within its limit', async () => {
      const body = JSON.stringify({
        appid: acme.appid,
        recipient: PHONE,
        template: `{{otp}} ${'{{shop}}'.repeat(10)}`,
        custom_vars: { shop: 'x'.repeat(200) },
      });
      expect(await api.post('/otp/send', jsonText(body))).toEqual({
        status: 400,
        body: { error: expect.stringContaining('characters once rendered, at most 1600') },
      });
    });

    it.each(['2147483648', '"99999999999"'])('refuses the template id %s, beyond 32 bits', async (template) => {
      const answer = await api.post('/otp/send', jsonText(`{"appid":"${acme.appid}","recipient":"${PHONE}","template":${template}}`));
      expect(answer).toEqual({ status: 400, body: { error: 'template must be a template id (1 to 2147483647) or a template text' } });
    });
  });

  describe('signed WhatsApp status webhooks of unexpected shape', () => {
    const signed = (body: string) =>
      api.anonymous().post('/webhooks/whatsapp', jsonText(body), {
        headers: { 'x-hub-signature-256': `sha256=${createHmac('sha256', WHATSAPP_APP_SECRET).update(body).digest('hex')}` },
      });
    const statuses = (items: string) => `{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"messages","value":{"statuses":${items}}}]}]}`;
    it.each([
      '{"entry":[null]}',
      '{"entry":[{"changes":"x"}]}',
      statuses('[null]'),
      statuses('[{"id":"wamid.X","status":"delivered","timestamp":"17638000000000"}]'),
    ])('applies nothing of %s and answers 200', async (body) => {
      expect(await signed(body)).toEqual({ status: 200, body: { applied: expect.any(Number) } });
    });

    it('refuses a NUL in an id like any other text', async () => {
      expect((await signed(statuses('[{"id":"wamid.\\u0000","status":"delivered"}]'))).status).toBe(400);
    });
  });

  it('answers 401 to a JWT signed with the right secret whose subject is not a UUID', async () => {
    const token = jwt.sign({ cid: acme.company_id }, JWT_SECRET, { subject: 'not-a-uuid', issuer: 'messaging-platform', expiresIn: 600 });
    expect(await api.anonymous().get('/balance', { headers: bearerHeaders(token) })).toEqual({ status: 401, body: { error: 'Unauthorized' } });
  });

  describe("each route's body limit, however the body is framed", () => {
    const origin = () => new URL(stack.gatewayUrl);
    const chunked = (path: string, body: string, headers: Record<string, string> = {}) =>
      send(origin(), { method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body, framing: 'chunked' });

    it('refuses 30 MiB sent chunked to /auth/token without credentials', async () => {
      const [answer] = await chunked('/auth/token', JSON.stringify({ api_key: 'x'.repeat(30 * 1024 * 1024) }));
      expect(answer).toMatchObject({ status: 413, body: { error: expect.any(String) } });
    });

    it('gives /sms/send-bulk its own 64 MiB and every other route 1 MiB', async () => {
      const recipients = Array.from({ length: 100_000 }, (_, i) => `+4474009${String(i).padStart(5, '0')}`);
      const bulk = JSON.stringify({ recipients, message: 'x', from: 'Acme', schedule_time: 'typo' });
      expect(bulk.length).toBeGreaterThan(1024 * 1024);
      const [read] = await chunked('/sms/send-bulk', bulk, keyPairHeaders(acme));
      expect(read).toMatchObject({ status: 400, body: { error: 'schedule_time is not a known field' } });
      const [refused] = await chunked('/sms/send', JSON.stringify({ to: PHONE, message: 'x', reference: 'x'.repeat(1024 * 1024) }), keyPairHeaders(acme));
      expect(refused.status).toBe(413);
    });
  });
});
