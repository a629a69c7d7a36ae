import { admin, eventually, startStack, type RunningStack } from '@mp/testing';
import { Client } from 'pg';

interface Company {
  company_id: string;
  api_key: string;
  api_secret: string;
}

/** POST /sms/send, /sms/estimate, GET and DELETE /sms/{id} through the real gateway: acceptance and money. */
describe('SMS acceptance over HTTP', () => {
  let stack: RunningStack;
  let db: Client;
  let acme: Company;

  const call = (company: Company, method: string, path: string, body?: unknown) =>
    fetch(`${stack.gatewayUrl}${path}`, {
      method,
      headers: { 'x-api-key': company.api_key, 'x-api-secret': company.api_secret, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const balanceOf = async (company: Company) =>
    ((await (await call(company, 'GET', '/balance')).json()) as { data: { balance: number } }).data.balance;

  beforeAll(async () => {
    await admin(['db:migrate']);
    await admin(['price:set', '--prefix', '+44', '--route', 'auto', '--price', '0.035']);
    acme = (await admin(['company:create', '--name', 'Acme', '--balance', '1'])) as unknown as Company;
    db = new Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
    stack = await startStack({ apps: ['gateway'] });
  });
  afterAll(async () => {
    await stack?.stop();
    await db?.end();
  });

  it('sends to one recipient with the 2.2 shape, charging parts × price', async () => {
    const response = await call(acme, 'POST', '/sms/send', { to: '+447911123456', message: 'x'.repeat(161), reference: 'ref-1' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Record<string, unknown> };
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
    const view = (await (await call(acme, 'GET', `/v1/sms/${body.data['message_id']}`)).json()) as { data: Record<string, unknown> };
    expect(view.data).toMatchObject({ message_id: body.data['message_id'], to: '+447911123456', parts: 2, cost: 0.07, encoding: 'GSM-7' });
    expect(view.data['part_details']).toHaveLength(2);
  });

  it('sends to several recipients with the 2.3 shape: duplicates once, invalid ones failed and free', async () => {
    const response = await call(acme, 'POST', '/sms/send', {
      recipients: '+33612345678; +33612345678 ,14155552671,+1234',
      text: 'Hello',
      sender: 'Acme',
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Record<string, unknown> };
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
    const response = await call(acme, 'POST', '/sms/send', body);
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: string }).error).toContain(error);
    expect(await balanceOf(acme)).toBe(before);
  });

  it('answers 402 with balance and cost when the balance does not cover the send, storing nothing', async () => {
    const poor = (await admin(['company:create', '--name', 'Poor', '--balance', '0.01'])) as unknown as Company;
    const response = await call(poor, 'POST', '/sms/send', { to: '+447911123456', message: 'Hello' });
    expect(response.status).toBe(402);
    expect(await response.json()).toEqual({ error: 'Insufficient balance', balance: 0.01, cost: 0.035 });
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM messages WHERE company_id = $1`, [poor.company_id]);
    expect(rows[0].n).toBe(0);
  });

  it('estimates parts, encoding, cost and the character that forced UCS-2, sending nothing', async () => {
    const before = await balanceOf(acme);
    const response = await call(acme, 'POST', '/sms/estimate', { to: '+447911123456', message: `Price: 5€ 😀${'y'.repeat(70)}` });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Record<string, unknown> };
    expect(body.data).toMatchObject({ encoding: 'UCS-2', parts: 2, first_non_gsm_character: '😀', total_cost: 0.07 });
    expect(await balanceOf(acme)).toBe(before);
  });

  it('schedules a message, and cancelling it refunds it once', async () => {
    const before = await balanceOf(acme);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const sent = (await (await call(acme, 'POST', '/sms/send', { to: '+33612345678', message: 'Later', scheduled_time: at })).json()) as {
      data: { message_id: string; status: string };
    };
    expect(sent.data.status).toBe('scheduled');
    expect(await balanceOf(acme)).toBeCloseTo(before - 0.01, 4);
    const cancelled = await call(acme, 'DELETE', `/sms/${sent.data.message_id}`);
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ data: { status: 'cancelled', refunded: 0.01, balance: before } });
    const again = await call(acme, 'DELETE', `/sms/${sent.data.message_id}`);
    expect(again.status).toBe(409);
    expect(await balanceOf(acme)).toBe(before);
    const view = (await (await call(acme, 'GET', `/sms/${sent.data.message_id}`)).json()) as { data: Record<string, unknown> };
    expect(view.data).toMatchObject({ status: 'cancelled', refunded: 0.01 });
    expect(view.data['part_details']).toEqual([expect.objectContaining({ index: 1, status: 'cancelled', submitted_at: null })]);
  });

  it("never shows one company another company's message", async () => {
    const other = (await admin(['company:create', '--name', 'Other', '--balance', '1'])) as unknown as Company;
    const sent = (await (await call(acme, 'POST', '/sms/send', { to: '+33612345678', message: 'Mine' })).json()) as {
      data: { message_id: string };
    };
    expect((await call(other, 'GET', `/sms/${sent.data.message_id}`)).status).toBe(404);
    expect((await call(other, 'DELETE', `/sms/${sent.data.message_id}`)).status).toBe(404);
    expect((await call(acme, 'GET', '/sms/not-a-uuid')).status).toBe(404);
  });

  it('commits an outbox job for every accepted message, relayed to the queue', async () => {
    const sent = (await (await call(acme, 'POST', '/sms/send', { to: '+33612345678', message: 'Queue me' })).json()) as {
      data: { message_id: string };
    };
    const jobsCarrying = async () =>
      (await db.query(`SELECT job_id, enqueued_at FROM outbox WHERE data->'messageIds' ? $1`, [sent.data.message_id])).rows;
    const rows = await eventually(jobsCarrying, (found) => found.length === 1 && found[0].enqueued_at !== null, 5_000);
    expect(rows).toHaveLength(1);
    expect(rows[0].job_id).toMatch(/^sms-batch-/);
    expect(rows[0].enqueued_at).not.toBeNull();
  });
});

describe('Idempotency-Key on POST /sms/send', () => {
  let stack: RunningStack;
  let company: Company;

  const send = (key: string, body: unknown) =>
    fetch(`${stack.gatewayUrl}/sms/send`, {
      method: 'POST',
      headers: {
        'x-api-key': company.api_key,
        'x-api-secret': company.api_secret,
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      body: JSON.stringify(body),
    });
  const balance = async () =>
    (
      (await (
        await fetch(`${stack.gatewayUrl}/balance`, { headers: { 'x-api-key': company.api_key, 'x-api-secret': company.api_secret } })
      ).json()) as { data: { balance: number } }
    ).data.balance;

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = (await admin(['company:create', '--name', 'Retry', '--balance', '1'])) as unknown as Company;
    stack = await startStack({ apps: ['gateway'] });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers a repeat with the first response, sending and charging once', async () => {
    const first = await send('order-1', { to: '+33612345678', message: 'Once' });
    const firstBody = (await first.json()) as { data: { message_id: string; balance: number } };
    const second = await send('order-1', { message: 'Once', to: '+33612345678' });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.json()).toEqual(firstBody);
    expect(await balance()).toBe(0.99);
  });

  it('sends once when two requests with the same key arrive at the same moment', async () => {
    const before = await balance();
    const [a, b] = await Promise.all([
      send('race-1', { to: '+33612345678', message: 'Race' }),
      send('race-1', { to: '+33612345678', message: 'Race' }),
    ]);
    const [bodyA, bodyB] = (await Promise.all([a.json(), b.json()])) as { data: { message_id: string } }[];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(bodyA.data.message_id).toBe(bodyB.data.message_id);
    expect(await balance()).toBeCloseTo(before - 0.01, 4);
  });

  it('answers 409 when the key is reused with other parameters', async () => {
    await send('order-2', { to: '+33612345678', message: 'A' });
    const other = await send('order-2', { to: '+33612345678', message: 'B' });
    expect(other.status).toBe(409);
    expect(await other.json()).toEqual({ error: 'Idempotency-Key was already used with different parameters' });
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
