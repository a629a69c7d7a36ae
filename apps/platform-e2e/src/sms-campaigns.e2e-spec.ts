import { admin, eventually, freePort, startStack, type RunningStack } from '@mp/testing';
import { ApiClient, createCompany, simulatorMessages, type ApiAnswer, type Company, type Json } from './support/api-client';

type Summary = Record<'queued' | 'processing' | 'sent' | 'delivered' | 'failed' | 'cancelled', number>;
interface Campaign {
  campaign_id: string;
  status: string;
  successful: number;
  refunded: number;
  summary: Summary;
  batch_details: { batch_id: string; position: number; recipients: number; status: string; scheduled_time: string }[];
}
interface Recipient {
  to: string;
  batch_id: string;
  status: string;
  message_id: string | null;
  cost: number;
}

/** A spaced campaign watched, cancelled and refunded through GET/POST /sms/campaigns. */
describe('bulk campaign management end to end', () => {
  let stack: RunningStack;
  let simulatorUrl: string;
  let shop: Company;
  let other: Company;
  let campaign: Campaign;
  let acceptedAt: number;
  const phones = ['+33612500001', '+33612500002', '+33612500003'];

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => shop,
  );
  const data = <T>(answer: ApiAnswer) => answer.body['data'] as T;
  const view = async () => data<Campaign>(await api.get(`/sms/campaigns/${campaign.campaign_id}`));
  const balance = async () => data<{ balance: number }>(await api.get('/balance')).balance;
  const handset = (to: string) => simulatorMessages<{ text: string }>(simulatorUrl, to);
  const addsUp = (c: Campaign) => Object.values(c.summary).reduce((a, b) => a + b, 0) === c.successful;

  beforeAll(async () => {
    await admin(['db:migrate']);
    shop = await createCompany('Campaign Shop', '1');
    other = await createCompany('Campaign Other', '1');
    const httpPort = await freePort();
    simulatorUrl = `http://127.0.0.1:${httpPort}`;
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'smsc-simulator'], env: { SMSC_SIMULATOR_PORT: String(httpPort) } });
    const accepted = await api.post('/sms/send-bulk', {
      recipients: phones,
      message: 'Flash sale',
      from: 'Shop',
      reference: 'flash-e2e',
      batch_size: 1,
      delay_between_batches: 30,
    });
    expect(accepted.status).toBe(200);
    acceptedAt = Date.now();
    campaign = data<Campaign>(accepted);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('shows the batches and a summary that adds up while the first batch is sent', async () => {
    const first = await view();
    expect(first).toMatchObject({
      campaign_id: campaign.campaign_id,
      total_recipients: 3,
      successful: 3,
      failed: 0,
      total_cost: 0.03,
      refunded: 0,
      batches: 3,
    });
    expect(first.batch_details.map((b) => [b.position, b.recipients])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
    expect(first.batch_details.slice(1).map((b) => b.status)).toEqual(['queued', 'queued']);
    expect(Date.parse(first.batch_details[1].scheduled_time) - Date.parse(first.batch_details[0].scheduled_time)).toBe(30_000);
    expect(addsUp(first)).toBe(true);

    expect(
      await eventually(
        () => handset(phones[0]),
        (list) => list.length > 0,
      ),
    ).toEqual([expect.objectContaining({ text: 'Flash sale' })]);
    const delivered = await eventually(view, (c) => c.summary.delivered === 1);
    expect(delivered).toMatchObject({ status: 'processing', summary: { queued: 2, processing: 0, sent: 0, delivered: 1, failed: 0, cancelled: 0 } });
    expect(delivered.batch_details.map((b) => b.status)).toEqual(['dispatched', 'queued', 'queued']);
  });

  it('cancels the later batches and refunds exactly their cost, once', async () => {
    expect(await balance()).toBe(0.97);
    const cancelled = await api.post(`/v1/sms/campaigns/${campaign.campaign_id}/cancel`);
    expect(cancelled).toMatchObject({
      status: 200,
      body: { status: 'success', data: { campaign_id: campaign.campaign_id, cancelled_batches: 2, cancelled_recipients: 2, refunded: 0.02, balance: 0.99 } },
    });
    expect(await balance()).toBe(0.99);
    const again = await api.post(`/sms/campaigns/${campaign.campaign_id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body['error']).toEqual(expect.any(String));
    expect(await balance()).toBe(0.99);

    const after = await view();
    expect(after).toMatchObject({ status: 'completed', refunded: 0.02, summary: { queued: 0, processing: 0, sent: 0, delivered: 1, failed: 0, cancelled: 2 } });
    expect(after.batch_details.map((b) => b.status)).toEqual(['dispatched', 'cancelled', 'cancelled']);
    expect(addsUp(after)).toBe(true);
  });

  it('lists each recipient with its state, paged and filtered', async () => {
    const all = await api.get(`/sms/campaigns/${campaign.campaign_id}/messages`);
    expect(all.status).toBe(200);
    expect(data<{ total: number; page: number; limit: number }>(all)).toMatchObject({ total: 3, page: 1, limit: 50 });
    const items = data<{ items: Recipient[] }>(all).items;
    expect(items.map((r) => [r.to, r.status, r.message_id === null, r.cost])).toEqual([
      [phones[0], 'delivered', false, 0.01],
      [phones[1], 'cancelled', true, 0.01],
      [phones[2], 'cancelled', true, 0.01],
    ]);
    const second = await api.get(`/sms/campaigns/${campaign.campaign_id}/messages?page=2&limit=1`);
    expect(data<{ items: Recipient[] }>(second).items.map((r) => r.to)).toEqual([phones[1]]);
    const cancelled = await api.get(`/sms/campaigns/${campaign.campaign_id}/messages?status=cancelled`);
    expect(data<{ items: Recipient[]; total: number }>(cancelled)).toMatchObject({ total: 2 });
    expect(await api.get(`/sms/campaigns/${campaign.campaign_id}/messages?limit=500`)).toMatchObject({
      status: 400,
      body: { error: 'limit must be an integer from 1 to 100' },
    });
    expect((await api.get(`/sms/campaigns/${campaign.campaign_id}/messages?status=done`)).status).toBe(400);
  });

  it('lists the campaign among the company campaigns', async () => {
    const listed = await api.get('/sms/campaigns?reference=flash-e2e');
    expect(listed.status).toBe(200);
    expect(data<{ items: Json[]; total: number }>(listed)).toMatchObject({
      total: 1,
      items: [{ campaign_id: campaign.campaign_id, status: 'completed', batches: 3, summary: { delivered: 1, cancelled: 2 } }],
    });
    const completed = data<{ items: { campaign_id: string }[] }>(await api.get('/sms/campaigns?status=completed'));
    expect(completed.items.map((c) => c.campaign_id)).toContain(campaign.campaign_id);
    expect((await api.get('/sms/campaigns?status=finished')).status).toBe(400);
    expect(data<{ total: number }>(await api.as(other).get('/sms/campaigns'))).toMatchObject({ total: 0 });
  });

  it('answers 404 to another company, and to an id that is not a campaign id', async () => {
    expect((await api.as(other).get(`/sms/campaigns/${campaign.campaign_id}`)).status).toBe(404);
    expect((await api.as(other).get(`/sms/campaigns/${campaign.campaign_id}/messages`)).status).toBe(404);
    expect((await api.as(other).post(`/sms/campaigns/${campaign.campaign_id}/cancel`)).status).toBe(404);
    expect(await api.get('/sms/campaigns/not-a-uuid')).toMatchObject({ status: 404, body: { error: 'Campaign not found' } });
  });

  it('never sends the cancelled batches, even past their time', async () => {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, acceptedAt + 33_000 - Date.now())));
    expect(await handset(phones[1])).toEqual([]);
    expect(await handset(phones[2])).toEqual([]);
    expect(await view()).toMatchObject({ status: 'completed', summary: { delivered: 1, cancelled: 2 } });
  });
});
