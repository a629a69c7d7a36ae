import { admin, eventually, freePort, runAdmin, startStack, startWebhookReceiver, type RunningStack, type WebhookReceiver } from '@mp/testing';
import { verifyWebhook } from '@mp/webhooks';
import { ApiClient, createCompany, simulatorMessages, type Company } from './support/api-client';

/** Numbers no other spec uses: +3364 and seven digits of this run. */
const uniqueNumber = (offset: number) => `+3364${String((Date.now() + offset) % 10_000_000).padStart(7, '0')}`;
const OPTED_OUT = 'Recipient has opted out';

type Handset = { from: string; to: string; text: string };
type ContactEvent = { type: string; data: { phone: string; number: string | null; keyword: string; inbound_message_id: string } };
type Data = { data: Record<string, unknown> };

/**
 * STOP, START and HELP over real SMPP: the simulator's handset (POST /mo) sends the keyword, the
 * dispatcher changes the suppression list and replies from the number written to, the
 * webhook-notifier tells the company's inbound address; the gateway then refuses, or lists as
 * failed, what the company sends to the contact.
 */
describe('inbound keywords end to end', () => {
  let stack: RunningStack;
  let acme: Company;
  let receiver: WebhookReceiver;
  let simulatorUrl: string;
  const ownNumber = uniqueNumber(0);
  const contact = uniqueNumber(1);
  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => acme,
  );

  const handsetSends = async (text: string) => {
    const response = await fetch(`${simulatorUrl}/mo`, { method: 'POST', body: JSON.stringify({ from: contact, to: ownNumber, text }) });
    expect(response.status).toBe(200);
  };
  const handsetGot = () => simulatorMessages<Handset>(simulatorUrl, contact);
  const handsetGets = (count: number) => eventually(handsetGot, (messages) => messages.length >= count, 30_000);
  const contactEvents = () =>
    receiver.received
      .map((request) => ({ request, body: JSON.parse(request.body) as ContactEvent }))
      .filter(({ body }) => body.type.startsWith('contact.') && body.data.phone === contact);
  const balance = async () => (await api.get<{ data: { balance: number } }>('/balance')).body.data.balance;
  const listedTo = async (to: string) =>
    (await api.get<{ data: { items: { cost: number; from: string; reference: string | null }[] } }>(`/sms?to=${encodeURIComponent(to)}`)).body.data.items;

  beforeAll(async () => {
    await admin(['db:migrate']);
    acme = await createCompany('Keywords Acme', '5');
    receiver = await startWebhookReceiver();
    await admin(['number:assign', '--company', acme.company_id, '--number', ownNumber]);
    const set = await runAdmin(
      ['company:settings', '--company', acme.company_id, '--inbound-webhook', receiver.url, '--help-reply', 'Acme: call 0800 000 000.'],
      {
        WEBHOOK_ALLOW_LOOPBACK: 'true',
      },
    );
    expect(set.code).toBe(0);
    const httpPort = await freePort();
    simulatorUrl = `http://127.0.0.1:${httpPort}`;
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'smsc-simulator', 'webhook-notifier'], env: { SMSC_SIMULATOR_PORT: String(httpPort) } });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('STOP suppresses the contact: one confirmation, charged, a signed contact.opted_out; the next send is refused uncharged, a campaign lists it as failed', async () => {
    const start = await balance();
    await handsetSends('Stop');
    const [confirmation] = await handsetGets(1);
    expect(confirmation).toMatchObject({
      from: ownNumber,
      to: contact,
      text: expect.stringMatching(/: You are unsubscribed and will receive no further messages\. Reply START to resubscribe\.$/),
    });

    const [event] = await eventually(contactEvents, (events) => events.length >= 1);
    expect(verifyWebhook({ secrets: [acme.webhook_secret], headers: event.request.headers, body: event.request.body })).toBe(true);
    expect(event.body).toMatchObject({ type: 'contact.opted_out', data: { phone: contact, number: ownNumber, keyword: 'Stop' } });

    const [reply] = await listedTo(contact);
    expect(reply).toMatchObject({ from: ownNumber, reference: `keyword-reply:${event.body.data.inbound_message_id}` });
    expect(await balance()).toBeCloseTo(start - reply.cost, 4);

    const listed = await api.get<Data>(`/sms/opt-outs?phone=${encodeURIComponent(contact)}`);
    expect(listed.body.data['items']).toEqual([expect.objectContaining({ phone: contact, number: ownNumber, source: 'keyword' })]);

    const afterReply = await balance();
    const refused = await api.post('/sms/send', { to: contact, message: 'Sale today', from: ownNumber });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: OPTED_OUT });
    expect(await balance()).toBe(afterReply);

    const other = uniqueNumber(2);
    const campaign = await api.post<Data>('/sms/send-bulk', { recipients: [contact, other], message: 'Campaign', from: ownNumber });
    expect(campaign.status).toBe(200);
    expect(campaign.body.data).toMatchObject({ total_recipients: 2, successful: 1, failed: 1, failed_numbers: [{ number: contact, error: OPTED_OUT }] });
    expect(await balance()).toBeCloseTo(afterReply - (campaign.body.data['total_cost'] as number), 4);
    expect(campaign.body.data['total_cost']).toBeCloseTo(reply.cost, 4); // one recipient's one part, at the same +33 price
    await eventually(
      () => simulatorMessages<Handset>(simulatorUrl, other),
      (messages) => messages.length >= 1,
      30_000,
    );
    expect(await handsetGot()).toHaveLength(1);
  });

  it('START lifts it with contact.opted_in and a confirmation; HELP answers with the help text and changes nothing', async () => {
    await handsetSends('start');
    const messages = await handsetGets(2);
    expect(messages[1]).toMatchObject({ from: ownNumber, text: expect.stringContaining('You are resubscribed') });
    const events = await eventually(contactEvents, (list) => list.length >= 2);
    expect(events.map(({ body }) => body.type)).toEqual(['contact.opted_out', 'contact.opted_in']);
    expect((await api.get<Data>(`/sms/opt-outs?phone=${encodeURIComponent(contact)}`)).body.data['items']).toEqual([]);
    expect((await api.post('/sms/send', { to: contact, message: 'Welcome back', from: ownNumber })).status).toBe(200);

    await handsetSends('HELP');
    const all = await handsetGets(4);
    expect(
      all
        .map((message) => message.text)
        .slice(2)
        .sort(),
    ).toEqual(['Acme: call 0800 000 000.', 'Welcome back'].sort());
    expect(contactEvents()).toHaveLength(2);
    expect((await api.get<Data>(`/sms/opt-outs?phone=${encodeURIComponent(contact)}`)).body.data['items']).toEqual([]);
  });
});
