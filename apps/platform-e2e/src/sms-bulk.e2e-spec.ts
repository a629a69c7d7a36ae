import { admin, eventually, freePort, startStack, startWebhookReceiver, type RunningStack, type WebhookReceiver } from '@mp/testing';
import { verifyWebhook } from '@mp/webhooks';
import { Client } from 'pg';
import { ApiClient, createCompany, simulatorMessages, type Company } from './support/api-client';

interface Handset {
  text: string;
  from: string;
  received_at: string;
}

/** POST /sms/send-bulk through the gateway, the batch jobs and SMPP to "the phones". */
describe('bulk campaigns end to end', () => {
  let stack: RunningStack;
  let simulatorUrl: string;
  let db: Client;
  let shop: Company;
  let receiver: WebhookReceiver;

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => shop,
  );
  const handset = (to: string) => simulatorMessages<Handset>(simulatorUrl, to);
  const statuses = async (campaignId: unknown) =>
    (await db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM messages WHERE campaign_id = $1 GROUP BY status`, [campaignId]))
      .rows;

  beforeAll(async () => {
    await admin(['db:migrate']);
    shop = await createCompany('Shop', '50');
    const httpPort = await freePort();
    simulatorUrl = `http://127.0.0.1:${httpPort}`;
    receiver = await startWebhookReceiver();
    stack = await startStack({
      apps: ['gateway', 'sms-dispatcher', 'smsc-simulator', 'webhook-notifier'],
      env: { SMSC_SIMULATOR_PORT: String(httpPort), OUTBOX_SWEEP_MS: '500' },
    });
    db = new Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
    await receiver?.close();
  });

  it('mode 1 with a separated string: shape A, invalid numbers listed and not charged, duplicates once, every phone gets it', async () => {
    const accepted = await api.post('/sms/send-bulk', {
      recipients: '+33612000001, +33612000002;33612000003;;not-a-number, +33612000001',
      message: 'Spring sale today',
      from: 'Shop',
      reference: 'spring',
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'success' });
    const data = accepted.body['data'] as Record<string, unknown>;
    expect(data).toMatchObject({
      total_recipients: 5,
      successful: 3,
      failed: 1,
      duplicates: 1,
      total_cost: 0.03,
      batches: 1,
      summary: { queued: 3, processing: 0, sent: 0, delivered: 0, failed: 0 },
      failed_numbers: [{ number: 'not-a-number', error: 'Invalid phone number format' }],
    });
    for (const to of ['+33612000001', '+33612000002', '+33612000003']) {
      const received = await eventually(
        () => handset(to),
        (list) => list.length > 0,
      );
      expect(received).toEqual([expect.objectContaining({ text: 'Spring sale today', from: 'Shop' })]);
    }
    expect(
      await eventually(
        () => statuses(data['campaign_id']),
        (rows) => rows.length === 1 && rows[0].status === 'delivered',
      ),
    ).toEqual([{ status: 'delivered', n: 3 }]);
  });

  it('mode 2 with a delay: shape B with each batch and its time, released that far apart, each message its own text and sender', async () => {
    const accepted = await api.post('/v1/sms/send-bulk', {
      messages: [
        { to: '+33612000011', message: 'Hello Ann', reference: 'ann' },
        { to: '+33612000012', message: 'Hello Bob', from: 'Bobs' },
      ],
      from: 'Shop',
      batch_size: 1,
      delay_between_batches: 2,
    });
    expect(accepted.status).toBe(200);
    const data = accepted.body['data'] as {
      batches: { batch_id: string; recipients: number; status: string; scheduled_time: string }[];
      failed_numbers: unknown[];
    };
    expect(data.failed_numbers).toEqual([]);
    expect(data.batches.map((b) => [b.recipients, b.status])).toEqual([
      [1, 'queued'],
      [1, 'queued'],
    ]);
    expect(Date.parse(data.batches[1].scheduled_time) - Date.parse(data.batches[0].scheduled_time)).toBe(2_000);
    const [ann] = await eventually(
      () => handset('+33612000011'),
      (list) => list.length > 0,
    );
    const [bob] = await eventually(
      () => handset('+33612000012'),
      (list) => list.length > 0,
    );
    expect([ann.text, ann.from, bob.text, bob.from]).toEqual(['Hello Ann', 'Shop', 'Hello Bob', 'Bobs']);
    expect(Date.parse(bob.received_at) - Date.parse(ann.received_at)).toBeGreaterThanOrEqual(1_500);
  });

  it('refuses a campaign the balance does not cover with 402: nothing stored, queued, charged or sent', async () => {
    const poor = await createCompany('Poor', '0.02');
    const refused = await api.as(poor).post('/sms/send-bulk', { recipients: ['+33612000021', '+33612000022', '+33612000023'], message: 'Hi', from: 'Poor' });
    expect(refused).toMatchObject({ status: 402, body: { error: 'Insufficient balance', balance: 0.02, required: 0.03, recipients: 3 } });
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM campaigns WHERE company_id = $1`, [poor.company_id]);
    expect(rows[0].n).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await handset('+33612000021')).toEqual([]);
  });

  it('answers field errors, and takes a body far over the 1 MiB of other routes', async () => {
    expect(await api.post('/sms/send-bulk', { recipients: ['+33612000031'], messages: [], from: 'Shop', message: 'x' })).toMatchObject({ status: 400 });
    expect(await api.post('/sms/send-bulk', { recipients: ['+33612000031'], message: 'x' })).toMatchObject({
      status: 400,
      body: { error: 'from is required' },
    });
    expect(await api.post('/sms/send-bulk', { recipients: ['+33612000031'], message: 'x', from: 'Shop', batch_size: 10001 })).toMatchObject({ status: 400 });
    const padding = 'x'.repeat(1_200_000);
    expect((await api.post('/sms/send', { to: '+33612000031', message: 'x', from: 'Shop', reference: padding })).status).toBe(413);
    const large = await api.post('/sms/send-bulk', { recipients: ['+33612000041', 'x'.repeat(1_200_000)], message: 'Big body', from: 'Shop' });
    expect(large.status).toBe(200);
  });

  it('tells a webhook_url of every message and, once every message is final, campaign.completed, signed', async () => {
    const accepted = await api.post('/sms/send-bulk', {
      recipients: ['+33612000051', '+33612000052'],
      message: 'Hooked campaign',
      from: 'Shop',
      reference: 'hooked',
      webhook_url: receiver.url,
    });
    expect(accepted.status).toBe(200);
    const campaignId = (accepted.body['data'] as { campaign_id: string }).campaign_id;
    const types = () => receiver.received.map((r) => (JSON.parse(r.body) as { type: string }).type).sort();
    const seen = await eventually(types, (list) => list.includes('campaign.completed'));
    expect(seen).toEqual(['campaign.completed', 'message.delivered', 'message.delivered', 'message.sent', 'message.sent']);
    for (const request of receiver.received) {
      expect(verifyWebhook({ secrets: [shop.webhook_secret], headers: request.headers, body: request.body })).toBe(true);
    }
    const completed = receiver.received
      .map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> })
      .find((e) => e.type === 'campaign.completed');
    expect(completed?.data).toMatchObject({
      campaign_id: campaignId,
      reference: 'hooked',
      successful: 2,
      summary: { delivered: 2, failed: 0, cancelled: 0 },
      total_cost: 0.02,
    });
  });

  it('starts a high-priority campaign before the normal batches still waiting', async () => {
    const normal = await api.post('/sms/send-bulk', {
      recipients: Array.from({ length: 3000 }, (_, i) => `+3361300${String(i).padStart(4, '0')}`),
      message: 'Normal news',
      from: 'Shop',
      batch_size: 10,
    });
    const high = await api.post('/sms/send-bulk', { recipients: ['+33612000061'], message: 'Urgent', from: 'Shop', priority: 'high' });
    expect([normal.status, high.status]).toEqual([200, 200]);
    const normalId = (normal.body['data'] as { campaign_id: string }).campaign_id;
    const highId = (high.body['data'] as { campaign_id: string }).campaign_id;
    const started = async (campaignId: string) =>
      (await db.query<{ started_at: Date | null }>(`SELECT started_at FROM campaign_batches WHERE campaign_id = $1`, [campaignId])).rows.map(
        (r) => r.started_at,
      );
    const [highStart] = await eventually(
      () => started(highId),
      (rows) => rows[0] !== null,
    );
    const normalStarts = await eventually(
      () => started(normalId),
      (rows) => rows.every((at) => at !== null),
      60_000,
    );
    const after = normalStarts.filter((at) => at !== null && at.getTime() > (highStart as Date).getTime()).length;
    // 300 normal batches were waiting; the high one, queued after all of them, did not wait for them.
    expect(after).toBeGreaterThan(100);
  });
});
