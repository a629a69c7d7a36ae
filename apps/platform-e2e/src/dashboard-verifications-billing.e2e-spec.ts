import { admin, startStack, type RunningStack } from '@mp/testing';
import { ApiClient, createCompany, type Company, type Json } from './support/api-client';
import { createUser, DASHBOARD_API, DashboardClient, uniqueEmail } from './support/dashboard-client';

const CODE = '424242';
const WRONG = '000000';
const today = () => new Date().toISOString().slice(0, 10);

/**
 * The console's Verifications and Billing reads through the real gateway (PostgreSQL, Redis):
 * OTPs sent and verified over the public API counted per day, channel and country; the
 * 3-failure blocks; the balance, the ledger and its CSV, the spend per day; the owners'
 * low-balance threshold, refused to developers; every read scoped to the session's company.
 */
describe('dashboard API: verifications and billing', () => {
  let stack: RunningStack;
  let acme: Company;
  let globex: Company;
  const emails = { owner: uniqueEmail('vb-owner'), developer: uniqueEmail('vb-dev'), globex: uniqueEmail('vb-globex'), operator: uniqueEmail('vb-op') };
  const clients: Record<keyof typeof emails, DashboardClient> = {} as never;
  const url = () => stack.gatewayUrl;
  const api = new ApiClient(url, () => acme);
  const verificationIds: string[] = [];

  async function sendOtp(recipient: string): Promise<string> {
    const sent = await api.post('/otp/send', { appid: acme.appid, recipient, otp_code: CODE });
    expect(sent.status).toBe(200);
    const id = String((sent.body['data'] as Json | undefined)?.['verification_id'] ?? sent.body['verification_id']);
    verificationIds.push(id);
    return id;
  }

  async function verify(id: string, code: string): Promise<number> {
    return (await api.post('/otp/verify', { verification_id: id, otp_code: code })).status;
  }

  /** The CSV export as a browser downloads it. */
  async function download(client: DashboardClient, query: string): Promise<Response> {
    return fetch(`${url()}${DASHBOARD_API}/billing/ledger.csv${query}`, { headers: { cookie: `mp_session=${client.token}` } });
  }

  beforeAll(async () => {
    await admin(['db:migrate']);
    acme = await createCompany('Acme Billing', '10');
    globex = await createCompany('Globex Billing', '10');
    await createUser(acme.company_id, emails.owner);
    await createUser(acme.company_id, emails.developer, 'developer');
    await createUser(globex.company_id, emails.globex);
    await createUser(null, emails.operator);
    stack = await startStack({ apps: ['gateway'], env: { AUTH_CACHE_TTL_MS: '0' } });
    for (const who of Object.keys(emails) as (keyof typeof emails)[]) {
      clients[who] = new DashboardClient(url);
      expect((await clients[who].signIn(emails[who])).status).toBe(200);
    }
    // Acme: one OTP to a UK number verified, one to a French number not, two UK recipients blocked.
    expect(await verify(await sendOtp('+4915112340001'), CODE)).toBe(200);
    await sendOtp('+33699900001');
    for (const recipient of ['+4915112340002', '+4915112340003']) {
      const id = await sendOtp(recipient);
      for (let attempt = 0; attempt < 3; attempt++) expect(await verify(id, WRONG)).toBe(400);
    }
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('verifications', () => {
    it('counts the OTPs sent and verified today, per channel and country, with the time to verify', async () => {
      const answer = await clients.owner.get('/verifications/stats');
      expect(answer.status).toBe(200);
      const days = answer.body['days'] as Json[];
      expect(days).toHaveLength(30);
      expect(days.at(-1)).toMatchObject({ day: today(), sent: 4, verified: 1, conversion_rate: 0.25 });
      expect(days.slice(0, -1).every((day) => day['sent'] === 0)).toBe(true);
      expect(answer.body['totals']).toEqual({
        sent: 4,
        verified: 1,
        conversion_rate: 0.25,
        median_seconds: expect.any(Number),
        p95_seconds: expect.any(Number),
      });
      expect(answer.body['rows']).toEqual([
        expect.objectContaining({ day: today(), channel: 'sms', country: 'DE', sent: 3, verified: 1, conversion_rate: 0.3333 }),
        expect.objectContaining({ day: today(), channel: 'sms', country: 'FR', sent: 1, verified: 0, median_seconds: null }),
      ]);
    });

    it('filters by channel and country, and refuses bad filters with a 400', async () => {
      const de = await clients.developer.get('/verifications/stats?country=de');
      expect(de.body['totals']).toMatchObject({ sent: 3, verified: 1 });
      const whatsapp = await clients.owner.get('/verifications/stats?channel=whatsapp');
      expect(whatsapp.body['totals']).toMatchObject({ sent: 0, verified: 0, median_seconds: null });
      for (const [query, error] of [
        ['channel=fax', 'channel must be one of sms, whatsapp'],
        ['from=2026-13-01', 'from must be an ISO 8601 date'],
        ['from=2024-01-01&to=2026-01-01', 'the range must be at most 366 days'],
        ['cursor=x', 'cursor is not a known query parameter'],
      ]) {
        expect(await clients.owner.get(`/verifications/stats?${query}`)).toMatchObject({ status: 400, body: { error } });
      }
    });

    it('lists the blocks newest first, a page at a time', async () => {
      const first = await clients.owner.get('/verifications/blocks?limit=1');
      expect(first.status).toBe(200);
      expect(first.body['items']).toEqual([
        {
          blocked_at: expect.any(String),
          blocked_until: expect.any(String),
          active: true,
          recipient: '+4915112340003',
          appid: acme.appid,
          verification_id: verificationIds[3],
        },
      ]);
      const second = await clients.owner.get(`/verifications/blocks?limit=1&cursor=${String(first.body['next_cursor'])}`);
      expect((second.body['items'] as Json[]).map((block) => block['recipient'])).toEqual(['+4915112340002']);
      expect(second.body['next_cursor']).toBeNull();
      expect(await clients.owner.get('/verifications/blocks?cursor=AAAA')).toMatchObject({ status: 400, body: { error: expect.stringMatching(/cursor/) } });
    });

    it("keeps each company to its own: another company sees none of Acme's, and cannot name it", async () => {
      expect((await clients.globex.get('/verifications/stats')).body['totals']).toMatchObject({ sent: 0 });
      expect((await clients.globex.get('/verifications/blocks')).body).toEqual({ items: [], next_cursor: null });
      expect(await clients.globex.get(`/verifications/stats?company_id=${acme.company_id}`)).toMatchObject({
        status: 404,
        body: { error: 'Company not found' },
      });
      expect((await clients.operator.get(`/verifications/stats?company_id=${acme.company_id}`)).body['totals']).toMatchObject({ sent: 4, verified: 1 });
      expect((await clients.operator.get('/verifications/stats')).status).toBe(400);
    });
  });

  describe('billing', () => {
    it('answers the balance less the OTP charges, to developers too', async () => {
      const ledger = await clients.owner.get('/billing/ledger?kinds=charge');
      const charges = ledger.body['items'] as Json[];
      expect(charges).toHaveLength(4);
      expect(charges.map((entry) => entry['reference']).sort()).toEqual(verificationIds.map((id) => `otp:${id}`).sort());
      const charged = charges.reduce((sum, entry) => sum + Math.round(Number(entry['amount']) * 10_000), 0);
      const balance = await clients.developer.get('/billing/balance');
      expect(balance).toMatchObject({ status: 200, body: { currency: 'EUR', low_balance_threshold: null, low_balance: false } });
      expect(Math.round(Number(balance.body['balance']) * 10_000)).toBe(100_000 + charged);
      expect(Number(charges[0]['balance_after'])).toBe(balance.body['balance']);
    });

    it('pages the ledger by cursor in the order it was written, and filters by reference and date', async () => {
      const all = (await clients.developer.get('/billing/ledger')).body['items'] as Json[];
      expect(all.map((entry) => entry['kind'])).toEqual(['charge', 'charge', 'charge', 'charge', 'topup']);
      const walked: Json[] = [];
      let cursor: unknown = null;
      do {
        const page = await clients.developer.get(`/billing/ledger?limit=2${cursor ? `&cursor=${String(cursor)}` : ''}`);
        walked.push(...(page.body['items'] as Json[]));
        cursor = page.body['next_cursor'];
      } while (cursor);
      expect(walked).toEqual(all);
      const one = await clients.owner.get(`/billing/ledger?reference=otp:${verificationIds[0]}`);
      expect((one.body['items'] as Json[]).map((entry) => entry['reference'])).toEqual([`otp:${verificationIds[0]}`]);
      expect((await clients.owner.get('/billing/ledger?to=2020-01-01')).body['items']).toEqual([]);
      for (const query of ['kinds=gift', 'from=2026-11-05&to=2026-11-01', 'cursor=AAAA', 'limit=0']) {
        const refused = await clients.owner.get(`/billing/ledger?${query}`);
        expect([query, refused.status, typeof refused.body['error']]).toEqual([query, 400, 'string']);
      }
    });

    it('sums the spend per day: today is the OTP charges', async () => {
      const spend = await clients.owner.get('/billing/spend');
      const days = spend.body['days'] as Json[];
      expect(days).toHaveLength(30);
      const charges = ((await clients.owner.get('/billing/ledger?kinds=charge')).body['items'] as Json[]).reduce(
        (sum, entry) => sum - Math.round(Number(entry['amount']) * 10_000),
        0,
      );
      expect(days.at(-1)).toEqual({ day: today(), charged: charges / 10_000, refunded: 0, spent: charges / 10_000 });
      expect((await clients.owner.get('/billing/spend?from=2020-01-01')).body).toEqual({ error: 'the range must be at most 366 days' });
    });

    it('exports the ledger as a CSV download whose rows are the ledger entries', async () => {
      const response = await download(clients.developer, '');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="ledger-acme-billing-${today()}.csv"`);
      const lines = (await response.text()).trimEnd().split('\r\n');
      expect(lines[0]).toBe('id,created_at,kind,amount,balance_after,reference,description');
      const entries = (await clients.developer.get('/billing/ledger')).body['items'] as Json[];
      expect(lines.slice(1).map((line) => line.split(',').slice(0, 6))).toEqual(
        entries.map((entry) => [
          String(entry['id']),
          entry['created_at'],
          entry['kind'],
          Number(entry['amount']).toFixed(4),
          Number(entry['balance_after']).toFixed(4),
          entry['reference'] ?? '',
        ]),
      );
      const charges = (await (await download(clients.owner, '?kinds=charge')).text()).trimEnd().split('\r\n');
      expect(charges).toHaveLength(5);
      const refused = await download(clients.owner, '?kinds=gift');
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ error: 'kinds must be one or several of topup, charge, refund, adjustment, comma-separated' });
      expect((await download(clients.globex, `?company_id=${acme.company_id}`)).status).toBe(404);
    });

    it('lets an owner set the low-balance threshold, audit-logged, and refuses it to a developer', async () => {
      expect(await clients.developer.get('/billing/settings')).toMatchObject({ status: 403, body: { error: 'Your role does not allow this' } });
      expect(await clients.developer.request('PUT', '/billing/settings', { low_balance_threshold: '5' })).toMatchObject({ status: 403 });
      expect(await clients.owner.get('/billing/settings')).toMatchObject({ status: 200, body: { low_balance_threshold: null, currency: 'EUR' } });

      const set = await clients.owner.request('PUT', '/billing/settings', { low_balance_threshold: '1000.5' });
      expect(set).toMatchObject({ status: 200, body: { low_balance_threshold: 1000.5, currency: 'EUR' } });
      expect((await clients.developer.get('/billing/balance')).body).toMatchObject({ low_balance_threshold: 1000.5, low_balance: true });
      const audit = (await clients.owner.get('/audit')).body['items'] as Json[];
      expect(audit[0]).toMatchObject({ action: 'settings.changed', actor: { email: emails.owner }, details: { billing: { low_balance_threshold: 1000.5 } } });

      for (const body of [
        { low_balance_threshold: '-1' },
        { low_balance_threshold: '1.23456' },
        { low_balance_threshold: 5 },
        { low_balance_threshold: '' },
        { low_balance_threshold: '5', other: 1 },
      ]) {
        const refused = await clients.owner.request('PUT', '/billing/settings', body);
        expect([body, refused.status, typeof refused.body['error']]).toEqual([body, 400, 'string']);
      }
      expect((await clients.owner.request('PUT', '/billing/settings', { low_balance_threshold: '1' }, { csrf: null })).status).toBe(403);
      expect((await clients.globex.request('PUT', `/billing/settings?company_id=${acme.company_id}`, { low_balance_threshold: '1' })).status).toBe(404);

      expect((await clients.owner.request('PUT', '/billing/settings', { low_balance_threshold: '0' })).body).toMatchObject({ low_balance_threshold: 0 });
      expect((await clients.owner.request('PUT', '/billing/settings', { low_balance_threshold: null })).body).toEqual({
        low_balance_threshold: null,
        currency: 'EUR',
      });
      expect((await clients.owner.get('/billing/balance')).body).toMatchObject({ low_balance_threshold: null, low_balance: false });
      expect((await clients.globex.get('/billing/settings')).body).toEqual({ low_balance_threshold: null, currency: 'EUR' });
    });
  });
});
