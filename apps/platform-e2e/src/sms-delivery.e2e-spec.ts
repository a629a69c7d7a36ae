import { admin, eventually, freePort, startStack, startWebhookReceiver, type RunningStack, type WebhookReceiver } from '@mp/testing';
import { ApiClient, createCompany, simulatorMessages, type Company } from './support/api-client';

interface Handset {
  message_id: string;
  from: string;
  to: string;
  text: string;
  parts: number;
}

/** From the HTTP call, through the queue and SMPP, to "the phone" (the SMSC simulator) and back as receipts. */
describe('SMS delivery end to end', () => {
  let stack: RunningStack;
  let company: Company;
  let simulatorUrl: string;

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );
  const send = async (body: Record<string, unknown>) => {
    const response = await api.post<{ data: { message_id: string } }>('/sms/send', body);
    expect(response.status).toBe(200);
    return response.body.data.message_id;
  };
  const view = async (id: string) => (await api.get<{ data: Record<string, unknown> }>(`/sms/${id}`)).body.data;
  const handset = (to: string) => simulatorMessages<Handset>(simulatorUrl, to);

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Deliver', '5');
    const httpPort = await freePort();
    simulatorUrl = `http://127.0.0.1:${httpPort}`;
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'smsc-simulator'], env: { SMSC_SIMULATOR_PORT: String(httpPort) } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('delivers a single-part text: the handset shows it, the message ends delivered with timestamps', async () => {
    const id = await send({ to: '+33612345678', message: 'Your parcel is on its way', from: 'Acme' });
    const final = await eventually(
      () => view(id),
      (v) => v['status'] === 'delivered',
    );
    expect(final).toMatchObject({ status: 'delivered', parts: 1 });
    expect(final['sent_at']).toEqual(expect.any(String));
    expect(final['completed_at']).toEqual(expect.any(String));
    const received = await handset('+33612345678');
    expect(received.filter((m) => m.text === 'Your parcel is on its way')).toEqual([expect.objectContaining({ from: 'Acme', to: '+33612345678', parts: 1 })]);
  });

  it('delivers a multipart GSM text whole, with its extension characters', async () => {
    const text = `Long [notice] with {braces} and € signs: ${'0123456789'.repeat(30)}`;
    const id = await send({ to: '+447911123456', message: text });
    const final = await eventually(
      () => view(id),
      (v) => v['status'] === 'delivered',
    );
    expect(final['parts']).toBe(3);
    const received = await eventually(
      () => handset('+447911123456'),
      (list) => list.some((m) => m.text === text),
    );
    expect(received.filter((m) => m.text === text)).toEqual([expect.objectContaining({ parts: 3 })]);
  });

  it('delivers a UCS-2 text with emoji in 67-unit parts, never splitting a surrogate pair', async () => {
    const text = `Привет 😀 ${'ж'.repeat(60)}😀${'ж'.repeat(10)}`;
    const id = await send({ to: '+14155552671', message: text });
    await eventually(
      () => view(id),
      (v) => v['status'] === 'delivered',
    );
    const received = await eventually(
      () => handset('+14155552671'),
      (list) => list.some((m) => m.text === text),
    );
    expect(received.filter((m) => m.text === text)).toEqual([expect.objectContaining({ parts: 2 })]);
  });

  it('holds a scheduled message until its time, then delivers it', async () => {
    const at = new Date(Date.now() + 3_000).toISOString();
    const id = await send({ to: '+4915112345678', message: 'On time', scheduled_time: at });
    expect((await view(id))['status']).toBe('scheduled');
    expect((await handset('+4915112345678')).some((m) => m.text === 'On time')).toBe(false);
    const final = await eventually(
      () => view(id),
      (v) => v['status'] === 'delivered',
      30_000,
    );
    expect(final['status']).toBe('delivered');
    expect(new Date(String(final['sent_at'])).getTime()).toBeGreaterThanOrEqual(new Date(at).getTime());
  });

  it('sends each recipient of a multi-recipient request once', async () => {
    await send({ to: '+33611111111, +33622222222; +33611111111', message: 'Team update' });
    for (const number of ['+33611111111', '+33622222222']) {
      const received = await eventually(
        () => handset(number),
        (list) => list.some((m) => m.text === 'Team update'),
      );
      expect(received.filter((m) => m.text === 'Team update')).toHaveLength(1);
    }
  });
});

/** A carrier that refuses every submit: the message fails and the billing app refunds it, once. */
describe('SMS refused by the carrier', () => {
  let stack: RunningStack;
  let company: Company;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Refused', '1');
    receiver = await startWebhookReceiver();
    stack = await startStack({
      apps: ['gateway', 'sms-dispatcher', 'smsc-simulator', 'billing', 'webhook-notifier'],
      env: { SMSC_REJECT_RATE: '1', OUTBOX_SWEEP_MS: '500' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );
  const get = async (path: string) => (await api.get<{ data: Record<string, unknown> }>(path)).body.data;

  it('fails the message and refunds every part that never reached a carrier', async () => {
    const sent = (
      await api.post<{ data: { message_id: string; balance: number; cost: number } }>('/sms/send', { to: '+33612345678', message: 'r'.repeat(200) })
    ).body;
    expect(sent.data).toMatchObject({ cost: 0.02, balance: 0.98 });
    const deadline = Date.now() + 30_000;
    let view = await get(`/sms/${sent.data.message_id}`);
    while ((view['status'] !== 'failed' || view['refunded'] !== 0.02) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      view = await get(`/sms/${sent.data.message_id}`);
    }
    expect(view).toMatchObject({ status: 'failed', refunded: 0.02, error_code: expect.stringMatching(/^smpp:/) });
    expect((await get('/balance'))['balance']).toBe(1);
  });

  it("shows a campaign's refunded messages in its view and in campaign.completed", async () => {
    const before = (await get('/balance'))['balance'];
    const accepted = await api.post<{ data: { campaign_id: string; total_cost: number } }>('/sms/send-bulk', {
      recipients: ['+33612345601', '+33612345602'],
      message: 'c'.repeat(200),
      from: 'Shop',
      webhook_url: receiver.url,
    });
    const campaignId = accepted.body.data.campaign_id;
    const view = await eventually(
      () => get(`/sms/campaigns/${campaignId}`),
      (v) => v['status'] === 'completed' && v['refunded'] === 0.04,
      30_000,
    );
    expect(view).toMatchObject({ total_cost: 0.04, refunded: 0.04, summary: { failed: 2 } });
    expect((await get('/balance'))['balance']).toBe(before);
    const completed = await eventually(
      () => receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> }).find((e) => e.type === 'campaign.completed'),
      (event) => event !== undefined,
    );
    expect(completed?.data).toMatchObject({ campaign_id: campaignId, total_cost: 0.04, refunded: 0.04, summary: { delivered: 0, failed: 2 } });
  });
});
