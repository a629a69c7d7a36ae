import { admin, eventually, startStack, type RunningStack } from '@mp/testing';
import { Client } from 'pg';
import { ApiClient, createCompany, type Company } from './support/api-client';

type Data = { data: Record<string, unknown> };

/** POST /sms/send, /sms/estimate, GET and DELETE /sms/{id} through the real gateway: acceptance and money. */
describe('SMS acceptance over HTTP', () => {
  let stack: RunningStack;
  let db: Client;
  let acme: Company;

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => acme,
  );
  const balanceOf = async (company: Company) => (await api.as(company).get<{ data: { balance: number } }>('/balance')).body.data.balance;

  beforeAll(async () => {
    await admin(['db:migrate']);
    await admin(['price:set', '--prefix', '+44', '--route', 'auto', '--price', '0.035']);
    acme = await createCompany('Acme', '1');
    db = new Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
    stack = await startStack({ apps: ['gateway'] });
  });
  afterAll(async () => {
    await stack?.stop();
    await db?.end();
  });

  it('sends to one recipient with the 2.2 shape, charging parts × price', async () => {
    const response = await api.post<Data>('/sms/send', { to: '+447911123456', message: 'x'.repeat(161), reference: 'ref-1' });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body).toEqual({
      status: 'success',
      message: expect.any(String),
      data: {
        message_id: expect.any(String),
        to: '+447911123456',
        from: 'SMS',
        message: 'x'.repeat(161),
        parts: 2,
        cost: 0.07,
        balance: 0.93,
        status: 'sent',
        reference: 'ref-1',
      },
    });
    expect(await balanceOf(acme)).toBe(0.93);
    const view = (await api.get<Data>(`/v1/sms/${body.data['message_id']}`)).body;
    expect(view.data).toMatchObject({ message_id: body.data['message_id'], to: '+447911123456', parts: 2, cost: 0.07, encoding: 'GSM-7' });
    expect(view.data['part_details']).toHaveLength(2);
  });

  it('sends to several recipients with the 2.3 shape: duplicates once, invalid ones failed and free', async () => {
    const response = await api.post<Data>('/sms/send', {
      recipients: '+33612345678; +33612345678 ,14155552671,+1234',
      text: 'Hello',
      sender: 'Acme',
    });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body.data).toMatchObject({ total_recipients: 4, successful: 2, failed: 1, total_cost: 0.02, balance: 0.91 });
    expect(body.data['messages']).toEqual([
      { message_id: expect.any(String), to: '+33612345678', status: 'sent', cost: 0.01 },
      { message_id: expect.any(String), to: '+14155552671', status: 'sent', cost: 0.01 },
      { message_id: null, to: '+1234', status: 'failed', cost: 0, error: 'Invalid phone number format' },
    ]);
  });

  it.each([
    [{ message: 'x' }, 400, 'to is required'],
    [{ to: '+447911123456' }, 400, 'message is required'],
    [{ to: '447911123456', message: 'x' }, 400, 'Invalid phone number format'],
    [{ to: '+447911123456', message: 'x', from: 'Way too long sender' }, 400, 'from must be'],
    [{ to: '+447911123456', message: 'x', route: 'gold' }, 400, 'route must be one of'],
    [{ to: '+447911123456', message: 'x'.repeat(1601) }, 400, 'message must be at most 1600 characters'],
    [{ to: '+447911123456', message: 'x', colour: 'red' }, 400, 'colour is not a known field'],
    [{ to: '+447911123456', message: 'x', scheduled_time: '2001-01-01T00:00:00Z' }, 400, 'scheduled_time must be in the future'],
  ])('refuses %p with %i naming the problem, charging nothing', async (body, status, error) => {
    const before = await balanceOf(acme);
    const response = await api.post<{ error: string }>('/sms/send', body);
    expect(response.status).toBe(status);
    expect(response.body.error).toContain(error);
    expect(await balanceOf(acme)).toBe(before);
  });

  it('answers 402 with balance and cost when the balance does not cover the send, storing nothing', async () => {
    const poor = await createCompany('Poor', '0.01');
    const response = await api.as(poor).post('/sms/send', { to: '+447911123456', message: 'Hello' });
    expect(response.status).toBe(402);
    expect(response.body).toEqual({ error: 'Insufficient balance', balance: 0.01, cost: 0.035 });
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM messages WHERE company_id = $1`, [poor.company_id]);
    expect(rows[0].n).toBe(0);
  });

  it('estimates parts, encoding, cost and the character that forced UCS-2, sending nothing', async () => {
    const before = await balanceOf(acme);
    const response = await api.post<Data>('/sms/estimate', { to: '+447911123456', message: `Price: 5€ 😀${'y'.repeat(70)}` });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body.data).toMatchObject({ encoding: 'UCS-2', parts: 2, first_non_gsm_character: '😀', total_cost: 0.07 });
    expect(await balanceOf(acme)).toBe(before);
  });

  it('schedules a message, and cancelling it refunds it once', async () => {
    const before = await balanceOf(acme);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const sent = (await api.post<{ data: { message_id: string; status: string } }>('/sms/send', { to: '+33612345678', message: 'Later', scheduled_time: at }))
      .body;
    expect(sent.data.status).toBe('scheduled');
    expect(await balanceOf(acme)).toBeCloseTo(before - 0.01, 4);
    const cancelled = await api.delete(`/sms/${sent.data.message_id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ data: { status: 'cancelled', refunded: 0.01, balance: before } });
    const again = await api.delete(`/sms/${sent.data.message_id}`);
    expect(again.status).toBe(409);
    expect(await balanceOf(acme)).toBe(before);
    const view = (await api.get<Data>(`/sms/${sent.data.message_id}`)).body;
    expect(view.data).toMatchObject({ status: 'cancelled', refunded: 0.01 });
    expect(view.data['part_details']).toEqual([expect.objectContaining({ index: 1, status: 'cancelled', submitted_at: null })]);
  });

  it("never shows one company another company's message", async () => {
    const other = await createCompany('Other', '1');
    const sent = (await api.post<{ data: { message_id: string } }>('/sms/send', { to: '+33612345678', message: 'Mine' })).body;
    expect((await api.as(other).get(`/sms/${sent.data.message_id}`)).status).toBe(404);
    expect((await api.as(other).delete(`/sms/${sent.data.message_id}`)).status).toBe(404);
    expect((await api.get('/sms/not-a-uuid')).status).toBe(404);
  });

  it('commits an outbox job for every accepted message, relayed to the queue', async () => {
    const sent = (await api.post<{ data: { message_id: string } }>('/sms/send', { to: '+33612345678', message: 'Queue me' })).body;
    const jobsCarrying = async () => (await db.query(`SELECT job_id, enqueued_at FROM outbox WHERE data->'messageIds' ? $1`, [sent.data.message_id])).rows;
    const rows = await eventually(jobsCarrying, (found) => found.length === 1 && found[0].enqueued_at !== null, 5_000);
    expect(rows).toHaveLength(1);
    expect(rows[0].job_id).toMatch(/^sms-batch-/);
    expect(rows[0].enqueued_at).not.toBeNull();
  });
});

describe('Idempotency-Key on POST /sms/send and /otp/send', () => {
  let stack: RunningStack;
  let company: Company;

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );
  const send = (key: string, body: unknown) => api.post('/sms/send', body, { headers: { 'idempotency-key': key } });
  const balance = async () => (await api.get<{ data: { balance: number } }>('/balance')).body.data.balance;

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Retry', '1');
    stack = await startStack({ apps: ['gateway'] });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers a repeat with the first response, sending and charging once', async () => {
    const first = await send('order-1', { to: '+33612345678', message: 'Once' });
    const firstBody = first.body;
    const second = await send('order-1', { message: 'Once', to: '+33612345678' });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(firstBody);
    expect(await balance()).toBe(0.99);
  });

  it('sends once when two requests with the same key arrive at the same moment', async () => {
    const before = await balance();
    const [a, b] = await Promise.all([send('race-1', { to: '+33612345678', message: 'Race' }), send('race-1', { to: '+33612345678', message: 'Race' })]);
    const [bodyA, bodyB] = [a.body, b.body] as { data: { message_id: string } }[];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(bodyA.data.message_id).toBe(bodyB.data.message_id);
    expect(await balance()).toBeCloseTo(before - 0.01, 4);
  });

  it('answers 409 when the key is reused with other parameters', async () => {
    await send('order-2', { to: '+33612345678', message: 'A' });
    const other = await send('order-2', { to: '+33612345678', message: 'B' });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ error: 'Idempotency-Key was already used with different parameters' });
  });

  it('answers a repeat of POST /otp/send with the first answer (its balance the charge left), charging once', async () => {
    const before = await balance();
    const otp = (key: string) => api.post('/otp/send', { appid: company.appid, recipient: '+33612345679' }, { headers: { 'idempotency-key': key } });
    const first = await otp('otp-1');
    expect(first.status).toBe(200);
    const repeat = await otp('otp-1');
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.body).toEqual(first.body);
    expect((first.body as { balance: number }).balance).toBeCloseTo(before - 0.01, 4);
    expect(await balance()).toBeCloseTo(before - 0.01, 4);
  });

  it('lets a retry run again after the first attempt failed', async () => {
    const bad = await send('order-3', { to: '+33612345678' });
    expect(bad.status).toBe(400);
    const good = await send('order-3', { to: '+33612345678' });
    expect(good.status).toBe(400);
    const fixedKey = await send('order-4', { to: '+33612345678', message: 'fixed' });
    expect(fixedKey.status).toBe(200);
  });
});
