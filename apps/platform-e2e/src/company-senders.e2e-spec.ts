import { admin, eventually, runAdmin, startStack, startWebhookReceiver, type RunningStack, type WebhookReceiver } from '@mp/testing';
import { verifyWebhook } from '@mp/webhooks';
import { ApiClient, createCompany, type Company } from './support/api-client';

/** A number no other spec sends to or from: +3361 and seven digits of this run. */
const uniqueNumber = (offset: number) => `+3361${String((Date.now() + offset) % 10_000_000).padStart(7, '0')}`;
const uniqueSenderId = (prefix: string) => `${prefix}${String(Date.now() % 1_000_000).padStart(6, '0')}`;

type Balance = { data: { balance: number } };
type Senders = { data: { numbers: { value: string; kind: string }[]; sender_ids: { value: string; kind: string }[] } };

/** Numbers and sender ids assigned to a company: another company may not send from them, and is charged nothing. */
describe('company numbers and sender ids end to end', () => {
  let stack: RunningStack;
  let owner: Company;
  let other: Company;
  let receiver: WebhookReceiver;
  const number = uniqueNumber(0);
  const senderId = uniqueSenderId('Own');
  const api = new ApiClient(() => stack.gatewayUrl);

  beforeAll(async () => {
    await admin(['db:migrate']);
    [owner, other] = [await createCompany('Sender owner', '5'), await createCompany('Sender other', '5')];
    receiver = await startWebhookReceiver();
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'smsc-simulator', 'webhook-notifier'] });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('assigns a number and a sender id with the admin tool, lists them, and refuses them to another company', async () => {
    expect(await admin(['number:assign', '--company', owner.company_id, '--number', number])).toMatchObject({
      value: number,
      kind: 'long_code',
      company_id: owner.company_id,
    });
    expect(await admin(['sender:assign', '--company', owner.company_id, '--sender', senderId])).toMatchObject({ value: senderId, kind: 'alphanumeric' });
    const taken = await runAdmin(['number:assign', '--company', other.company_id, '--number', number]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('assigned to another company');
    const listed = (await admin(['sender:list', '--company', owner.company_id])) as { senders: { value: string }[] };
    expect(listed.senders.map((sender) => sender.value).sort()).toEqual([number, senderId].sort());

    const own = await api.as(owner).get<Senders>('/senders');
    expect(own.status).toBe(200);
    expect(own.body.data.numbers).toEqual([expect.objectContaining({ value: number, kind: 'long_code' })]);
    expect(own.body.data.sender_ids).toEqual([expect.objectContaining({ value: senderId, kind: 'alphanumeric' })]);
    expect((await api.as(other).get<Senders>('/senders')).body.data).toEqual({ numbers: [], sender_ids: [] });
  });

  it("refuses another company's sends from them with 403, charging nothing, and lets the owner send from them", async () => {
    const before = (await api.as(other).get<Balance>('/balance')).body.data.balance;
    const to = uniqueNumber(1);
    const single = await api.as(other).post('/sms/send', { to, message: 'Not yours', from: number });
    expect(single.status).toBe(403);
    expect(single.body).toEqual({ error: expect.stringContaining('assigned to another company') });
    const several = await api.as(other).post('/sms/send', { to: `${to},${uniqueNumber(2)}`, message: 'Not yours', from: number.slice(1) });
    expect(several.status).toBe(403);
    const caseless = await api.as(other).post('/sms/send', { to, message: 'Not yours', from: senderId.toUpperCase() });
    expect(caseless.status).toBe(403);
    const campaign = await api.as(other).post('/sms/send-bulk', { messages: [{ to, message: 'Not yours', from: senderId }], from: 'Other' });
    expect(campaign.status).toBe(403);
    const otp = await api.as(other).post('/otp/send', { appid: other.appid, recipient: to, from: senderId });
    expect(otp.status).toBe(403);
    const estimate = await api.as(other).post('/sms/estimate', { to, message: 'Not yours', from: number });
    expect(estimate.status).toBe(403);
    expect((await api.as(other).get<Balance>('/balance')).body.data.balance).toBe(before);

    const mine = await api.as(owner).post('/sms/send', { to, message: 'From our number', from: number });
    expect(mine.status).toBe(200);
    const unassigned = await api.as(other).post('/sms/send', { to, message: 'Anyone may use an unassigned sender', from: uniqueSenderId('Free') });
    expect(unassigned.status).toBe(200);
  });

  it('unassigns a short code, after which the other company may have it', async () => {
    const spare = String(Date.now() % 100_000_000).padStart(8, '0');
    await admin(['number:assign', '--company', owner.company_id, '--number', spare, '--kind', 'short_code']);
    expect(await admin(['number:unassign', '--company', owner.company_id, '--number', spare])).toEqual({ unassigned: true });
    expect(await admin(['number:assign', '--company', other.company_id, '--number', spare, '--kind', 'short_code'])).toMatchObject({
      company_id: other.company_id,
    });
  });

  it("sends the signed status events of a message sent without webhook_url to the company's status callback", async () => {
    const company = await createCompany('Status callback', '5');
    const set = await runAdmin(['company:settings', '--company', company.company_id, '--status-callback', receiver.url], { WEBHOOK_ALLOW_LOOPBACK: 'true' });
    expect(set.code).toBe(0);
    expect(set.json).toEqual({
      company_id: company.company_id,
      status_callback_url: receiver.url,
      inbound_webhook_url: null,
      otp_ignores_opt_outs: false,
      opt_out_reply: null,
      opt_in_reply: null,
      help_reply: null,
    });
    expect((await api.as(company).get('/settings')).body).toMatchObject({ data: { status_callback_url: receiver.url } });

    const to = uniqueNumber(4);
    const sent = await api.as(company).post<{ data: { message_id: string } }>('/sms/send', { to, message: 'Default callback', reference: 'cb-1' });
    expect(sent.status).toBe(200);
    const messageId = sent.body.data.message_id;
    const mine = () => receiver.received.filter((request) => (JSON.parse(request.body) as { data: { message_id: string } }).data.message_id === messageId);
    const events = await eventually(mine, (list) => list.length >= 2);
    expect(events.map((request) => (JSON.parse(request.body) as { type: string }).type).sort()).toEqual(['message.delivered', 'message.sent']);
    for (const request of events) expect(verifyWebhook({ secrets: [company.webhook_secret], headers: request.headers, body: request.body })).toBe(true);
  });

  it('changes the status callback through the API, refusing an address that is not http(s) and clearing it with an empty text', async () => {
    const company = await createCompany('Settings API', '1');
    const refused = await api.as(company).request('PUT', '/settings', { status_callback_url: 'ftp://example.com/hook' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: expect.stringContaining('status_callback_url') });
    const changed = await api.as(company).request('PUT', '/settings', { status_callback_url: 'https://hooks.example.com/status' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ data: { status_callback_url: 'https://hooks.example.com/status' } });
    const cleared = await api.as(company).request('PUT', '/settings', { status_callback_url: '' });
    expect(cleared.body).toMatchObject({ data: { status_callback_url: null } });
  });

  it('changes the OTP exemption and the keyword replies through the API and the admin tool, refusing bad values whole', async () => {
    const company = await createCompany('Reply settings', '1');
    const changed = await api
      .as(company)
      .request('PUT', '/settings', { otp_ignores_opt_outs: true, opt_out_reply: ' Acme: bye. ', help_reply: 'Acme: call us.' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ data: { otp_ignores_opt_outs: true, opt_out_reply: 'Acme: bye.', opt_in_reply: null, help_reply: 'Acme: call us.' } });
    for (const body of [
      { otp_ignores_opt_outs: 'yes' },
      { opt_in_reply: 'x'.repeat(321) },
      { help_reply: 42 },
      { opt_out_reply: '   ' },
      { help_reply: 'ok', otp_ignores_opt_outs: 1 },
    ]) {
      const refused = await api.as(company).request('PUT', '/settings', body);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: expect.any(String) });
    }
    expect((await api.as(company).get('/settings')).body).toMatchObject({ data: { help_reply: 'Acme: call us.', otp_ignores_opt_outs: true } });
    const reset = await api.as(company).request('PUT', '/settings', { opt_out_reply: '' });
    expect(reset.body).toMatchObject({ data: { opt_out_reply: null } });

    const viaAdmin = await runAdmin([
      'company:settings',
      '--company',
      company.company_id,
      '--otp-ignores-opt-outs',
      'false',
      '--opt-in-reply',
      'Acme: welcome back.',
      '--help-reply',
      'default',
    ]);
    expect(viaAdmin.code).toBe(0);
    expect(viaAdmin.json).toMatchObject({ otp_ignores_opt_outs: false, opt_in_reply: 'Acme: welcome back.', help_reply: null });
    expect((await runAdmin(['company:settings', '--company', company.company_id, '--otp-ignores-opt-outs', 'maybe'])).code).toBe(1);
  });
});

/** SENDER_IDS_REGISTERED_ONLY: a company sends only from its own senders, or the platform's default. */
describe('registered senders only end to end', () => {
  let stack: RunningStack;
  let company: Company;
  const senderId = uniqueSenderId('Reg');
  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Registered only', '5');
    await admin(['sender:assign', '--company', company.company_id, '--sender', senderId]);
    stack = await startStack({ apps: ['gateway'], env: { SENDER_IDS_REGISTERED_ONLY: 'true' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses an unassigned sender with 403, charging nothing, and accepts its own and the default', async () => {
    const before = (await api.get<Balance>('/balance')).body.data.balance;
    const refused = await api.post('/sms/send', { to: uniqueNumber(5), message: 'Spoofed', from: uniqueSenderId('Nope') });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: expect.stringContaining('SENDER_IDS_REGISTERED_ONLY') });
    expect((await api.get<Balance>('/balance')).body.data.balance).toBe(before);
    const ours = await api.post('/sms/send', { to: uniqueNumber(5), message: 'Ours', from: senderId });
    expect(ours.body).toMatchObject({ status: 'success' });
    expect((await api.post('/sms/send', { to: uniqueNumber(6), message: 'Default sender' })).status).toBe(200);
  });
});
