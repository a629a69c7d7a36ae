import { admin, startStack, type RunningStack } from '@mp/testing';
import { ApiClient, createCompany, type Company, type Json } from './support/api-client';
import { createUser, DashboardClient, uniqueEmail } from './support/dashboard-client';

/**
 * The console's messages and campaigns through the real gateway (PostgreSQL, Redis; no
 * dispatcher, so messages stay as accepted): the log with its filters and keyset pages, one
 * message's detail, a test message charged as POST /sms/send charges, campaigns with their
 * progress and cancelling one. Another company's message or campaign answers 404; a developer
 * reads, sends and cancels; bad filters are 400s.
 */
describe('dashboard API: messages and campaigns', () => {
  let stack: RunningStack;
  let acme: Company;
  let globex: Company;
  let broke: Company;
  let developer: DashboardClient;
  let globexOwner: DashboardClient;
  let operator: DashboardClient;
  const sent: string[] = [];
  const url = () => stack.gatewayUrl;
  const api = new ApiClient(url);

  async function signedIn(company: string | null, role?: 'owner' | 'developer'): Promise<DashboardClient> {
    const email = uniqueEmail(role ?? 'operator');
    await createUser(company, email, role);
    const client = new DashboardClient(url);
    expect((await client.signIn(email)).status).toBe(200);
    return client;
  }

  async function sendSms(to: string, reference: string): Promise<string> {
    const answer = await api.as(acme).post<{ data: { message_id: string } }>('/sms/send', { to, message: `Hello ${reference}`, reference });
    expect(answer.status).toBe(200);
    return answer.body.data.message_id;
  }

  const items = (answer: { body: Json }) => answer.body['items'] as Json[];
  const ids = (answer: { body: Json }) => items(answer).map((item) => item['message_id']);

  beforeAll(async () => {
    await admin(['db:migrate']);
    acme = await createCompany('Acme Log', '10');
    globex = await createCompany('Globex Log', '10');
    broke = await createCompany('Broke Log', '0');
    stack = await startStack({ apps: ['gateway'] });
    developer = await signedIn(acme.company_id, 'developer');
    globexOwner = await signedIn(globex.company_id, 'owner');
    operator = await signedIn(null);
    sent.push(await sendSms('+447911000001', 'first'), await sendSms('+447911000002', 'second'), await sendSms('+33698700003', 'third'));
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('the message log', () => {
    it('lists the company’s messages newest first, a page at a time with the cursor', async () => {
      const first = await developer.get('/messages?limit=2');
      expect(first.status).toBe(200);
      expect(ids(first)).toEqual([sent[2], sent[1]]);
      expect(items(first)[0]).toMatchObject({ to: '+33698700003', reference: 'third', parts: 1, campaign_id: null, status: expect.any(String) });
      const cursor = first.body['next_cursor'] as string;
      expect(cursor).toEqual(expect.any(String));
      const second = await developer.get(`/messages?limit=2&cursor=${cursor}`);
      expect(ids(second)).toEqual([sent[0]]);
      expect(second.body['next_cursor']).toBeNull();
    });

    it('finds a message by the Search field (number prefix, id, reference) and filters by status and dates', async () => {
      expect(ids(await developer.get(`/messages?search=${encodeURIComponent('+44 7911')}`))).toEqual([sent[1], sent[0]]);
      expect(ids(await developer.get(`/messages?search=${sent[0]}`))).toEqual([sent[0]]);
      expect(ids(await developer.get('/messages?search=second'))).toEqual([sent[1]]);
      const status = String(items(await developer.get(`/messages?search=${sent[0]}`))[0]['status']);
      expect(ids(await developer.get(`/messages?status=${status},delivered&limit=100`))).toEqual(expect.arrayContaining(sent));
      expect(ids(await developer.get('/messages?status=cancelled'))).toEqual([]);
      expect(ids(await developer.get('/messages?to=2020-01-01'))).toEqual([]);
      const today = new Date().toISOString().slice(0, 10);
      expect(ids(await developer.get(`/messages?from=${today}&to=${today}`))).toEqual([sent[2], sent[1], sent[0]]);
    });

    it('answers 400 with the reason for a bad filter, limit or cursor', async () => {
      const refusals: [string, RegExp][] = [
        ['/messages?status=lost', /^status must be one or several of/],
        ['/messages?from=2026-11-05&to=2026-11-01', /^from must be before to$/],
        ['/messages?from=yesterday', /^from must be an ISO 8601 date$/],
        ['/messages?limit=500', /^limit must be an integer from 1 to 100$/],
        ['/messages?campaign_id=spring', /^campaign_id must be a campaign id/],
        ['/messages?cursor=WyJub3QiLCJvdXJzIl0', /^cursor is not valid/],
        ['/messages?cursor=%25%25', /^cursor must be the next_cursor/],
        ['/messages?order=asc', /^order is not a known query parameter$/],
      ];
      for (const [path, error] of refusals) {
        const answer = await developer.get(path);
        expect([path, answer.status]).toEqual([path, 400]);
        expect(answer.body['error']).toMatch(error);
      }
    });

    it('shows no other company’s messages, and answers 404 for one of them', async () => {
      expect(ids(await globexOwner.get('/messages'))).toEqual([]);
      expect(await globexOwner.get(`/messages/${sent[0]}`)).toMatchObject({ status: 404, body: { error: 'Message not found' } });
      expect(await globexOwner.get(`/messages?company_id=${acme.company_id}`)).toMatchObject({ status: 404, body: { error: 'Company not found' } });
      expect((await developer.get('/messages/not-an-id')).status).toBe(404);
    });

    it('lets an operator read a company it names, and only then', async () => {
      expect(await operator.get('/messages')).toMatchObject({ status: 400, body: { error: 'company_id is required for an operator' } });
      expect(ids(await operator.get(`/messages?company_id=${acme.company_id}`))).toEqual([sent[2], sent[1], sent[0]]);
      expect((await operator.get(`/messages/${sent[1]}?company_id=${acme.company_id}`)).status).toBe(200);
      expect((await operator.get(`/messages/${sent[1]}?company_id=${globex.company_id}`)).status).toBe(404);
    });
  });

  describe('one message', () => {
    it('shows the text, the parts and the history from acceptance on', async () => {
      const answer = await developer.get(`/messages/${sent[0]}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        message_id: sent[0],
        to: '+447911000001',
        message: 'Hello first',
        encoding: 'GSM-7',
        reference: 'first',
        part_details: [expect.objectContaining({ index: 1 })],
      });
      const history = answer.body['history'] as Json[];
      expect(history[0]).toMatchObject({ event: 'accepted', part: null, at: expect.any(String) });
    });
  });

  describe('a test message', () => {
    it('is sent and charged as POST /sms/send is, and follows in the log', async () => {
      const before = (await api.as(acme).get<{ data: { balance: number } }>('/balance')).body.data.balance;
      const answer = await developer.post('/messages/test', { to: '+447911000009', message: 'Console test', from: 'Acme' });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        message_id: expect.any(String),
        to: '+447911000009',
        from: 'Acme',
        message: 'Console test',
        parts: 1,
        cost: expect.any(Number),
        balance: expect.any(Number),
        status: 'sent',
      });
      const cost = answer.body['cost'] as number;
      expect(cost).toBeGreaterThan(0);
      const after = (await api.as(acme).get<{ data: { balance: number } }>('/balance')).body.data.balance;
      expect(Math.round((before - after) * 10_000)).toBe(Math.round(cost * 10_000));
      expect(answer.body['balance']).toBe(after);
      expect(ids(await developer.get('/messages?search=447911000009'))).toEqual([answer.body['message_id']]);
      const viaPublicApi = await api.as(acme).get<{ data: Json }>(`/sms/${String(answer.body['message_id'])}`);
      expect(viaPublicApi.body.data).toMatchObject({ to: '+447911000009', from: 'Acme', cost });
    });

    it('refuses bad input with the field named, and a change without the CSRF token', async () => {
      const refusals: [Json, RegExp][] = [
        [{ message: 'x' }, /^to is required$/],
        [{ to: '+447911000009' }, /^message is required$/],
        [{ to: '12', message: 'x' }, /^Invalid phone number format$/],
        [{ to: '+447911000009,+447911000008', message: 'x' }, /^to must be one number$/],
        [{ to: '+447911000009', message: 'x', from: 'Not a valid sender!' }, /from/],
        [{ to: '+447911000009', message: 'x', extra: 1 }, /^extra is not a known field$/],
      ];
      for (const [body, error] of refusals) {
        const answer = await developer.post('/messages/test', body);
        expect([body, answer.status]).toEqual([body, 400]);
        expect(answer.body['error']).toMatch(error);
      }
      expect((await developer.post('/messages/test', { to: '+447911000009', message: 'x' }, { csrf: null })).status).toBe(403);
    });

    it('answers 402 with the balance and the cost when the balance is short, and charges nothing', async () => {
      const poor = await signedIn(broke.company_id, 'owner');
      const answer = await poor.post('/messages/test', { to: '+447911000009', message: 'No money' });
      expect(answer).toMatchObject({ status: 402, body: { error: 'Insufficient balance', balance: 0, cost: expect.any(Number) } });
      expect(ids(await poor.get('/messages'))).toEqual([]);
    });
  });

  describe('campaigns', () => {
    let campaignId: string;

    beforeAll(async () => {
      const scheduled = new Date(Date.now() + 3_600_000).toISOString();
      const accepted = await api.as(acme).post<{ data: { campaign_id: string } }>('/sms/send-bulk', {
        recipients: ['+447911100001', '+447911100002'],
        message: 'Later',
        from: 'Acme',
        scheduled_time: scheduled,
      });
      expect([accepted.status, accepted.body]).toEqual([200, expect.anything()]);
      campaignId = accepted.body.data.campaign_id;
    });

    it('lists the company’s campaigns with live counters and progress', async () => {
      const answer = await developer.get('/campaigns');
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ page: 1, limit: 50, total: 1 });
      expect(items(answer)).toEqual([
        expect.objectContaining({
          campaign_id: campaignId,
          status: 'scheduled',
          successful: 2,
          summary: { queued: 2, processing: 0, sent: 0, delivered: 0, failed: 0, cancelled: 0 },
          progress: { total: 2, done: 0, finished: false },
        }),
      ]);
      expect(items(await globexOwner.get('/campaigns'))).toEqual([]);
      expect((await developer.get('/campaigns?status=sent')).status).toBe(400);
    });

    it('shows one campaign with how it was asked for; another company’s is 404', async () => {
      const answer = await developer.get(`/campaigns/${campaignId}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ campaign_id: campaignId, message: 'Later', sender: 'Acme', priority: 'normal', progress: { finished: false } });
      expect(await globexOwner.get(`/campaigns/${campaignId}`)).toMatchObject({ status: 404, body: { error: 'Campaign not found' } });
      expect((await globexOwner.post(`/campaigns/${campaignId}/cancel`)).status).toBe(404);
      expect((await developer.get('/campaigns/not-an-id')).status).toBe(404);
    });

    it('cancels as the public API does: refunded once, then nothing left to cancel; the progress is finished', async () => {
      const cancelled = await developer.post(`/campaigns/${campaignId}/cancel`);
      expect(cancelled).toMatchObject({ status: 200, body: { campaign_id: campaignId, status: 'cancelled', cancelled_batches: 1, cancelled_recipients: 2 } });
      expect((await developer.post(`/campaigns/${campaignId}/cancel`)).status).toBe(409);
      const detail = await developer.get(`/campaigns/${campaignId}`);
      expect(detail.body).toMatchObject({ status: 'cancelled', summary: { cancelled: 2 }, progress: { total: 2, done: 1, finished: true } });
      const viaPublicApi = await api.as(acme).get<{ data: Json }>(`/sms/campaigns/${campaignId}`);
      expect(viaPublicApi.body.data).toMatchObject({ status: 'cancelled' });
    });
  });
});
