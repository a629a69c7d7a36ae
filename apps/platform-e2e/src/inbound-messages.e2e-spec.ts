import { admin, eventually, freePort, runAdmin, startStack, startWebhookReceiver, type RunningStack, type WebhookReceiver } from '@mp/testing';
import { verifyWebhook } from '@mp/webhooks';
import { Client } from 'pg';
import { ApiClient, createCompany, type Company } from './support/api-client';

/** A number no other spec uses: +3362 and seven digits of this run. */
const uniqueNumber = (offset: number) => `+3362${String((Date.now() + offset) % 10_000_000).padStart(7, '0')}`;

interface InboundMessage {
  id: string;
  from: string;
  to: string;
  text: string;
  parts: number;
  carrier: string;
  received_at: string;
}
type InboundPage = { data: { items: InboundMessage[]; next_cursor: string | null } };
type Received = { type: string; data: InboundMessage };

/**
 * Inbound messages over real SMPP: the SMSC simulator's handset (POST /mo) sends deliver_sm to the
 * sms-dispatcher, which stores them; the webhook-notifier signs message.received to the company's
 * inbound address; GET /sms/inbound lists them for that company only.
 */
describe('inbound messages end to end', () => {
  let stack: RunningStack;
  let owner: Company;
  let other: Company;
  let receiver: WebhookReceiver;
  let simulatorUrl: string;
  let db: Client;
  const ownNumber = uniqueNumber(0);
  const api = new ApiClient(() => stack.gatewayUrl);

  const handsetSends = async (body: object): Promise<{ parts: number; message_ids: string[]; sent: boolean }> => {
    const response = await fetch(`${simulatorUrl}/mo`, { method: 'POST', body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    return (await response.json()) as { parts: number; message_ids: string[]; sent: boolean };
  };
  const inboundOf = async (company: Company, query: string) => (await api.as(company).get<InboundPage>(`/sms/inbound?${query}`)).body.data.items;
  const webhooksFrom = (from: string) =>
    receiver.received.filter((request) => {
      const body = JSON.parse(request.body) as Received;
      return body.type === 'message.received' && body.data.from === from;
    });

  beforeAll(async () => {
    await admin(['db:migrate']);
    db = new Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
    [owner, other] = [await createCompany('Inbound owner', '1'), await createCompany('Inbound other', '1')];
    receiver = await startWebhookReceiver();
    await admin(['number:assign', '--company', owner.company_id, '--number', ownNumber]);
    const set = await runAdmin(['company:settings', '--company', owner.company_id, '--inbound-webhook', receiver.url], { WEBHOOK_ALLOW_LOOPBACK: 'true' });
    expect(set.code).toBe(0);
    expect(set.json).toMatchObject({ inbound_webhook_url: receiver.url });
    const httpPort = await freePort();
    simulatorUrl = `http://127.0.0.1:${httpPort}`;
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'smsc-simulator', 'webhook-notifier'], env: { SMSC_SIMULATOR_PORT: String(httpPort) } });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    await db?.end();
  });

  it('delivers a one-part message to the inbound webhook, signed, and lists it for its company only', async () => {
    const from = uniqueNumber(1);
    // The dispatcher binds in the background: the simulator keeps the part until a receiving bind comes.
    expect(await handsetSends({ from, to: ownNumber, text: 'Hello there {1}' })).toMatchObject({ parts: 1 });
    const hooks = await eventually(
      () => webhooksFrom(from),
      (list) => list.length >= 1,
    );
    expect(hooks).toHaveLength(1);
    expect(verifyWebhook({ secrets: [owner.webhook_secret], headers: hooks[0].headers, body: hooks[0].body })).toBe(true);
    const event = JSON.parse(hooks[0].body) as Received;
    expect(event.data).toMatchObject({ from, to: ownNumber, text: 'Hello there {1}', parts: 1 });

    const listed = await inboundOf(owner, `from=${encodeURIComponent(from)}`);
    expect(listed).toEqual([event.data]);
    const one = await api.as(owner).get<{ data: InboundMessage }>(`/sms/inbound/${event.data.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(event.data);
    const foreign = await api.as(other).get(`/sms/inbound/${event.data.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
    expect(await inboundOf(other, `from=${encodeURIComponent(from)}`)).toEqual([]);
  });

  it('joins a three-part UCS-2 message before it is delivered, once', async () => {
    const from = uniqueNumber(2);
    const text = 'Здравствуйте, это длинное сообщение. '.repeat(5); // 185 characters: 3 parts of 67
    expect(await handsetSends({ from, to: ownNumber, text })).toMatchObject({ parts: 3 });
    const hooks = await eventually(
      () => webhooksFrom(from),
      (list) => list.length >= 1,
    );
    expect(verifyWebhook({ secrets: [owner.webhook_secret], headers: hooks[0].headers, body: hooks[0].body })).toBe(true);
    expect((JSON.parse(hooks[0].body) as Received).data).toMatchObject({ text, parts: 3 });
    const listed = await eventually(
      () => inboundOf(owner, `from=${encodeURIComponent(from)}`),
      (items) => items.length >= 1,
    );
    expect(listed).toEqual([expect.objectContaining({ from, to: ownNumber, text, parts: 3 })]);
    // Another company reads it neither by id nor in its whole list (no filter to hide it).
    expect((await api.as(other).get(`/sms/inbound/${listed[0].id}`)).status).toBe(404);
    expect((await inboundOf(other, 'limit=100')).map((item) => item.id)).not.toContain(listed[0].id);
    expect(await inboundOf(other, `to=${encodeURIComponent(ownNumber)}`)).toEqual([]);
  });

  it('joins a message sent with SAR TLVs', async () => {
    const from = uniqueNumber(3);
    const text = 'SAR '.repeat(50);
    expect(await handsetSends({ from, to: ownNumber, text, concat: 'sar' })).toMatchObject({ parts: 2 });
    const listed = await eventually(
      () => inboundOf(owner, `from=${encodeURIComponent(from)}`),
      (items) => items.length >= 1,
    );
    expect(listed).toEqual([expect.objectContaining({ text, parts: 2 })]);
  });

  it('keeps a message to an unassigned number for the operator: no company lists it, no webhook', async () => {
    const from = uniqueNumber(4);
    const unassigned = uniqueNumber(5);
    const marker = uniqueNumber(6);
    await handsetSends({ from, to: unassigned, text: 'Anyone there?' });
    // A message sent after it to the owner's number arrives after it: the first is stored by then.
    await handsetSends({ from: marker, to: ownNumber, text: 'marker' });
    await eventually(
      () => webhooksFrom(marker),
      (list) => list.length >= 1,
    );
    expect(await inboundOf(owner, `from=${encodeURIComponent(from)}`)).toEqual([]);
    expect(await inboundOf(other, `from=${encodeURIComponent(from)}`)).toEqual([]);
    expect(webhooksFrom(from)).toEqual([]);
    const { rows } = await db.query(`SELECT company_id, recipient, text FROM inbound_messages WHERE sender = $1`, [from]);
    expect(rows).toEqual([{ company_id: null, recipient: unassigned, text: 'Anyone there?' }]);
  });

  it('answers 400 to a bad filter', async () => {
    const bad = await api.as(owner).get('/sms/inbound?from=nobody');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: expect.stringContaining('from') });
  });
});
