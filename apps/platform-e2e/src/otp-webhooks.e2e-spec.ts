import { admin, eventually, freePort, startStack, startWebhookReceiver, type RunningStack, type WebhookReceiver } from '@mp/testing';
import { verifyWebhook } from '@mp/webhooks';
import { ApiClient, createCompany, simulatorMessages, type Company } from './support/api-client';

/** An application with a webhook address hears otp.delivered and otp.verified, signed, never with the code. */
describe('OTP webhooks end to end', () => {
  let stack: RunningStack;
  let company: Company;
  let receiver: WebhookReceiver;
  let simulatorUrl: string;

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Hooked OTP', '5');
    receiver = await startWebhookReceiver();
    await admin(['app:update', '--appid', company.appid, '--set', `webhook_url=${receiver.url}`]);
    const httpPort = await freePort();
    simulatorUrl = `http://127.0.0.1:${httpPort}`;
    stack = await startStack({
      apps: ['gateway', 'sms-dispatcher', 'smsc-simulator', 'otp', 'webhook-notifier'],
      env: { SMSC_SIMULATOR_PORT: String(httpPort) },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('posts otp.delivered when the carrier delivers the code and otp.verified when it is verified', async () => {
    const to = '+33698761234';
    const sent = await api.post('/otp/send', { appid: company.appid, recipient: to, otp_code: '5182736' });
    expect(sent.status).toBe(200);
    const inbox = await eventually(
      () => simulatorMessages<{ text: string }>(simulatorUrl, to),
      (list) => list.length > 0,
    );
    expect(inbox[0].text).toContain('5182736');
    expect((await api.post('/otp/verify', { verification_id: sent.body['verification_id'], code: '5182736' })).status).toBe(200);

    const types = () => receiver.received.map((r) => (JSON.parse(r.body) as { type: string }).type).sort();
    expect(await eventually(types, (list) => list.length >= 2)).toEqual(['otp.delivered', 'otp.verified']);
    for (const request of receiver.received) {
      expect(verifyWebhook({ secrets: [company.webhook_secret], headers: request.headers, body: request.body })).toBe(true);
      expect(request.body).not.toContain('5182736');
      const event = JSON.parse(request.body) as { type: string; data: Record<string, unknown> };
      expect(event.data).toMatchObject({ verification_id: sent.body['verification_id'], appid: company.appid, recipient: to, channel: 'sms' });
    }
  });
});
