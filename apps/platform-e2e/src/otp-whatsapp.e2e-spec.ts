import { DEV_SECRETS } from '@mp/config';
import { admin, eventually, freePort, startStack, type RunningStack } from '@mp/testing';
import { Client } from 'pg';
import { ApiClient, createCompany, simulatorMessages, type Company } from './support/api-client';

/**
 * OTPs over WhatsApp: the otp app sends the authentication template through the Cloud API (the
 * WhatsApp simulator), and Meta's signed status webhooks settle the message.
 */
describe('OTP over WhatsApp end to end', () => {
  let stack: RunningStack;
  let company: Company;
  let simulatorUrl: string;
  let db: Client;

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Whats', '5');
    const simulatorPort = await freePort();
    simulatorUrl = `http://127.0.0.1:${simulatorPort}`;
    stack = await startStack({
      apps: ['gateway', 'otp', 'whatsapp-simulator'],
      env: { WHATSAPP_SIMULATOR_PORT: String(simulatorPort) },
    });
    db = new Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  it('sends the code as the authentication template, verifies it, and settles the message from the status webhooks', async () => {
    const to = '+33698765432';
    const sent = await api.post('/otp/send', { appid: company.appid, recipient: to, channel: 'whatsapp' });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ channel: 'whatsapp', recipient: to, cost: 0.01 });
    const inbox = await eventually(
      () => simulatorMessages<{ to: string; text: string }>(simulatorUrl, to),
      (list) => list.length > 0,
    );
    expect(inbox).toHaveLength(1);
    expect(inbox[0].text).toMatch(/^\d{6} is your verification code\. For your security, do not share this code\.$/);
    const code = inbox[0].text.slice(0, 6);
    expect((await api.post('/otp/verify', { verification_id: sent.body['verification_id'], code })).status).toBe(200);

    const events = async () =>
      (await db.query<{ event: string }>(`SELECT event FROM otp_events WHERE otp_id = $1 ORDER BY id`, [sent.body['verification_id']])).rows.map(
        (r) => r.event,
      );
    expect(await eventually(events, (list) => list.includes('delivered'))).toEqual(expect.arrayContaining(['sent', 'verified', 'delivered']));
    const { rows } = await db.query(`SELECT m.status FROM otps o JOIN messages m ON m.id = o.message_id WHERE o.id = $1`, [sent.body['verification_id']]);
    expect(rows).toEqual([{ status: 'delivered' }]);
  });

  it('refuses status webhooks without a valid signature, and answers the subscription handshake only to its token', async () => {
    const meta = api.anonymous();
    const forged = await meta.post(
      '/webhooks/whatsapp',
      { object: 'whatsapp_business_account', entry: [] },
      { headers: { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` } },
    );
    expect(forged.status).toBe(401);
    const handshake = (token: string) =>
      meta.get(`/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`);
    const ok = await handshake(DEV_SECRETS.WHATSAPP_VERIFY_TOKEN);
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('1158201444');
    expect((await handshake('wrong-token')).status).toBe(403);
  });
});
