import { admin, eventually, startStack, startWebhookReceiver, type RunningStack, type WebhookReceiver } from '@mp/testing';
import { verifyWebhook } from '@mp/webhooks';
import { ApiClient, createCompany, type Company } from './support/api-client';

/** An SMS sent with a webhook_url: the sender hears message.sent and message.delivered, signed. */
describe('SMS delivery webhooks end to end', () => {
  let stack: RunningStack;
  let company: Company;
  let receiver: WebhookReceiver;
  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Hooked', '5');
    receiver = await startWebhookReceiver();
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'smsc-simulator', 'webhook-notifier'] });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('posts message.sent and message.delivered, signed with the company secret, with the documented payload', async () => {
    const response = await api.post<{ data: { message_id: string } }>('/sms/send', {
      to: '+33612345678',
      message: 'Parcel shipped',
      reference: 'order-981',
      webhook_url: receiver.url,
    });
    expect(response.status).toBe(200);
    const messageId = response.body.data.message_id;

    const types = () => receiver.received.map((r) => (JSON.parse(r.body) as { type: string }).type).sort();
    const seen = await eventually(types, (list) => list.includes('message.sent') && list.includes('message.delivered'));
    expect(seen).toEqual(['message.delivered', 'message.sent']);

    for (const request of receiver.received) {
      expect(verifyWebhook({ secrets: [company.webhook_secret], headers: request.headers, body: request.body })).toBe(true);
      expect(request.headers['content-type']).toBe('application/json');
      const event = JSON.parse(request.body) as { type: string; timestamp: string; data: Record<string, unknown> };
      const status = event.type === 'message.sent' ? 'sent' : 'delivered';
      expect(Object.keys(event)).toEqual(['type', 'timestamp', 'data']);
      expect(new Date(event.timestamp).toISOString()).toBe(event.timestamp);
      expect(event.data).toEqual({ message_id: messageId, to: '+33612345678', status, reference: 'order-981', parts: 1 });
    }
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(2);
  });
});

/** A carrier whose every receipt says UNDELIV err:001: its code reaches the message, its parts and message.failed. */
describe('SMS the carrier could not deliver, end to end', () => {
  let stack: RunningStack;
  let company: Company;
  let receiver: WebhookReceiver;

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );
  const send = async (message: string) => {
    const response = await api.post<{ data: { message_id: string } }>('/sms/send', { to: '+33612345678', message, webhook_url: receiver.url });
    expect(response.status).toBe(200);
    return response.body.data.message_id;
  };
  const view = async (id: string) => (await api.get<{ data: Record<string, unknown> }>(`/sms/${id}`)).body.data;
  const failedEvent = (id: string) =>
    receiver.received
      .map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> })
      .find((event) => event.type === 'message.failed' && event.data['message_id'] === id);

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Undelivered', '5');
    receiver = await startWebhookReceiver();
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'smsc-simulator', 'webhook-notifier'], env: { SMSC_FAILURE_RATE: '1' } });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it.each([
    ['one part', 'Parcel held at depot'],
    ['two parts', `Parcel held at depot: ${'z'.repeat(160)}`],
  ])("gives a message of %s the receipt's error code in GET /sms/{id}, on every part, and in message.failed", async (_parts, text) => {
    const id = await send(text);
    const event = await eventually(
      () => failedEvent(id),
      (found) => found !== undefined,
    );
    expect(event?.data).toMatchObject({ message_id: id, status: 'undelivered', reason: 'undelivered', error_code: '001' });
    const final = await view(id);
    expect(final).toMatchObject({ status: 'undelivered', error_code: '001', error_reason: "the carrier's receipt said UNDELIV (err:001)", refunded: 0 });
    const parts = final['part_details'] as { status: string; error_code: string | null }[];
    expect(parts.length).toBe(text.length > 160 ? 2 : 1);
    expect(parts.every((part) => part.status === 'undelivered' && part.error_code === '001')).toBe(true);
  });
});
