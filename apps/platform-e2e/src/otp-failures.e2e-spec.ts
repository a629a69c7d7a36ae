import { admin, eventually, startStack, startWebhookReceiver, type RunningStack, type WebhookReceiver } from '@mp/testing';
import { verifyWebhook } from '@mp/webhooks';
import { ApiClient, createCompany, type Company } from './support/api-client';

/**
 * OTPs whose code never reaches the handset: the carrier answers UNDELIV for every SMS, and the
 * WhatsApp Cloud API reports every message `failed`. Each OTP becomes `failed` with its reason,
 * is logged, stops verifying, and its application's webhook hears `otp.failed`, signed.
 */
describe('OTP delivery failures end to end', () => {
  let stack: RunningStack;
  let company: Company;
  let receiver: WebhookReceiver;

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );
  const get = async (path: string) => (await api.get<{ data: Record<string, unknown> }>(path)).body;

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Unreachable OTP', '5');
    receiver = await startWebhookReceiver();
    await admin(['app:update', '--appid', company.appid, '--set', `webhook_url=${receiver.url}`]);
    stack = await startStack({
      apps: ['gateway', 'sms-dispatcher', 'smsc-simulator', 'otp', 'webhook-notifier', 'whatsapp-simulator'],
      env: { SMSC_FAILURE_RATE: '1', WHATSAPP_SIMULATOR_FAILURE_RATE: '1' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it.each([
    // The SMSC's receipt says UNDELIV err:001; Meta's failed status carries error 131026.
    ['sms', '+33698761240', '001'],
    ['whatsapp', '+33698761241', 'wa:131026'],
  ])('fails an OTP sent by %s that the carrier did not deliver, and tells the application', async (channel, to, errorCode) => {
    const sent = await api.post('/otp/send', { appid: company.appid, recipient: to, channel });
    expect(sent.status).toBe(200);
    const id = String(sent.body['verification_id']);

    const status = await eventually(
      async () => (await get(`/otp/status?verification_id=${id}`)).data,
      (data) => data['status'] === 'failed',
    );
    expect(status).toMatchObject({ verification_id: id, status: 'failed', failure_reason: 'undelivered', error_code: errorCode });
    const logs = (await get(`/otp/logs?verification_id=${id}&event=failed`)).data as { items: { event: string; detail: Record<string, unknown> }[] };
    expect(logs.items).toEqual([expect.objectContaining({ event: 'failed', detail: expect.objectContaining({ reason: 'undelivered' }) })]);

    const verify = await api.post('/otp/verify', { verification_id: id, code: '123456' });
    expect(verify).toEqual({
      status: 400,
      body: { error: 'OTP delivery failed; resend it or send a new one', failure_reason: 'undelivered', error_code: errorCode },
    });

    const hooks = await eventually(
      async () => receiver.received.filter((request) => (JSON.parse(request.body) as { data: { verification_id: string } }).data.verification_id === id),
      (list) => list.some((request) => (JSON.parse(request.body) as { type: string }).type === 'otp.failed'),
    );
    const failed = hooks.find((request) => (JSON.parse(request.body) as { type: string }).type === 'otp.failed');
    if (!failed) throw new Error('no otp.failed webhook');
    expect(verifyWebhook({ secrets: [company.webhook_secret], headers: failed.headers, body: failed.body })).toBe(true);
    expect(JSON.parse(failed.body)).toEqual({
      type: 'otp.failed',
      timestamp: expect.any(String),
      data: expect.objectContaining({
        verification_id: id,
        appid: company.appid,
        recipient: to,
        channel,
        status: 'failed',
        failure_reason: 'undelivered',
        error_code: errorCode,
      }),
    });
  });
});
