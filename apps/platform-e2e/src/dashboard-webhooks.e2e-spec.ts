import { admin, answering, eventually, startStack, startWebhookReceiver, type RunningStack, type WebhookReceiver } from '@mp/testing';
import { verifyWebhook } from '@mp/webhooks';
import { ApiClient, createCompany, type Company, type Json } from './support/api-client';
import { createUser, DashboardClient, uniqueEmail } from './support/dashboard-client';

interface Delivery {
  id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  attempts: { attempt: number; status_code: number | null; resend: boolean }[];
}

/**
 * The console's webhooks through the real stack (gateway, dispatcher and SMSC simulator for the
 * events, webhook-notifier posting to real HTTP receivers): the signing secret revealed and
 * rotated by owners only, both secrets signing during the overlap and the new one alone after it,
 * the delivery log with its dead letters (a receiver answering 500 through a retry schedule scaled
 * down to seconds), and a resend that delivers a dead letter with the same webhook-id.
 */
describe('dashboard API: webhooks', () => {
  let stack: RunningStack;
  let acme: Company;
  let globex: Company;
  let receiver: WebhookReceiver;
  const emails = { owner: uniqueEmail('hooks-owner'), developer: uniqueEmail('hooks-dev'), operator: uniqueEmail('hooks-op'), globex: uniqueEmail('globex') };
  const url = () => stack.gatewayUrl;
  const api = new ApiClient(url, () => acme);

  async function signedIn(email: string): Promise<DashboardClient> {
    const client = new DashboardClient(url);
    expect((await client.signIn(email)).status).toBe(200);
    return client;
  }

  /** Sends an SMS whose events go to `webhookUrl`; answers the message id. */
  async function sendWithWebhook(webhookUrl: string): Promise<string> {
    const sent = await api.post<{ data: { message_id: string } }>('/sms/send', { to: '+33698700101', message: 'Parcel shipped', webhook_url: webhookUrl });
    expect(sent.status).toBe(200);
    return sent.body.data.message_id;
  }

  const requestsFor = (messageId: string) =>
    receiver.received.filter((r) => (JSON.parse(r.body) as { data: { message_id?: string } }).data.message_id === messageId);

  beforeAll(async () => {
    await admin(['db:migrate']);
    acme = await createCompany('Hooks Acme', '10');
    globex = await createCompany('Hooks Globex', '10');
    await createUser(acme.company_id, emails.owner);
    await createUser(acme.company_id, emails.developer, 'developer');
    await createUser(null, emails.operator);
    await createUser(globex.company_id, emails.globex);
    receiver = await startWebhookReceiver();
    stack = await startStack({
      apps: ['gateway', 'sms-dispatcher', 'smsc-simulator', 'webhook-notifier'],
      env: { WEBHOOK_RETRY_SCALE: '0.0001', WEBHOOK_TIMEOUT_MS: '2000' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('reveals the secret to owners and operators only, each reveal in the audit log, never cached', async () => {
    const owner = await signedIn(emails.owner);
    const revealed = await owner.get('/webhooks/secret');
    expect(revealed.status).toBe(200);
    expect(revealed.body).toEqual({ secret: acme.webhook_secret, rotated_at: null, previous_expires_at: null });
    expect(revealed.headers.get('cache-control')).toBe('no-store');

    const developer = await signedIn(emails.developer);
    expect(await developer.get('/webhooks/secret')).toMatchObject({ status: 403, body: { error: 'Your role does not allow this' } });
    expect((await developer.post('/webhooks/secret/rotate', {})).status).toBe(403);

    const operator = await signedIn(emails.operator);
    expect((await operator.get(`/webhooks/secret?company_id=${acme.company_id}`)).body).toMatchObject({ secret: acme.webhook_secret });
    expect((await operator.get('/webhooks/secret')).status).toBe(400);

    const other = await signedIn(emails.globex);
    expect(await other.get(`/webhooks/secret?company_id=${acme.company_id}`)).toMatchObject({ status: 404, body: { error: 'Company not found' } });

    const audit = (await owner.get('/audit')).body as { items: { action: string; actor: { email: string } | null; details: Json }[] };
    const reveals = audit.items.filter((entry) => entry.action === 'webhook_secret.revealed');
    expect(reveals.map((entry) => entry.actor?.email).sort()).toEqual([emails.operator, emails.owner].sort());
    expect(JSON.stringify(audit)).not.toContain(acme.webhook_secret.slice(6));
  });

  it('refuses a bad overlap, changing nothing', async () => {
    const owner = await signedIn(emails.owner);
    for (const body of [{ overlap_seconds: -1 }, { overlap_seconds: 604_801 }, { overlap_seconds: 'soon' }, { overlap_seconds: 1.5 }]) {
      expect(await owner.post('/webhooks/secret/rotate', body)).toMatchObject({
        status: 400,
        body: { error: 'overlap_seconds must be an integer from 0 to 604800' },
      });
    }
    expect((await owner.post('/webhooks/secret/rotate', { overlap: 5 })).status).toBe(400);
    expect((await owner.get('/webhooks/secret')).body).toMatchObject({ secret: acme.webhook_secret });
  });

  it('signs with both secrets during the overlap, each verifying alone, and with the new one alone after it', async () => {
    const owner = await signedIn(emails.owner);
    const first = await owner.post('/webhooks/secret/rotate', { overlap_seconds: 3600 });
    expect(first.status).toBe(200);
    const rotated = first.body as { secret: string; rotated_at: string; previous_expires_at: string; overlap_seconds: number };
    expect(rotated.overlap_seconds).toBe(3600);
    expect(Date.parse(rotated.previous_expires_at) - Date.parse(rotated.rotated_at)).toBe(3_600_000);

    const during = await sendWithWebhook(receiver.url);
    await eventually(
      () => requestsFor(during),
      (list) => list.length === 2,
    );
    for (const request of requestsFor(during)) {
      expect(request.headers['webhook-signature']?.split(' ')).toHaveLength(2);
      for (const secret of [rotated.secret, acme.webhook_secret]) {
        expect(verifyWebhook({ secrets: [secret], headers: request.headers, body: request.body })).toBe(true);
      }
    }

    const second = (await owner.post('/webhooks/secret/rotate', { overlap_seconds: 1 })).body as { secret: string; previous_expires_at: string };
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(second.previous_expires_at) - Date.now() + 50)));
    const after = await sendWithWebhook(receiver.url);
    await eventually(
      () => requestsFor(after),
      (list) => list.length === 2,
    );
    for (const request of requestsFor(after)) {
      expect(request.headers['webhook-signature']?.split(' ')).toHaveLength(1);
      expect(verifyWebhook({ secrets: [second.secret], headers: request.headers, body: request.body })).toBe(true);
      expect(verifyWebhook({ secrets: [rotated.secret, acme.webhook_secret], headers: request.headers, body: request.body })).toBe(false);
    }
    const audit = (await owner.get('/audit')).body as { items: { action: string; details: Json }[] };
    expect(audit.items.filter((entry) => entry.action === 'webhook_secret.rotated').map((entry) => entry.details['overlap_seconds'])).toEqual([1, 3600]);
  });

  it('lists a receiver’s failures as dead letters once the schedule gives up, and a resend delivers one with the same webhook-id', async () => {
    const failing = await startWebhookReceiver();
    failing.answer = answering(500);
    try {
      const messageId = await sendWithWebhook(failing.url);
      const developer = await signedIn(emails.developer);
      const deadLetters = async () => ((await developer.get('/webhooks/deliveries?status=dead')).body as { items: Delivery[] }).items;
      const dead = await eventually(deadLetters, (items) => items.length === 2, 90_000);
      expect(dead.map((d) => d.event_type).sort()).toEqual(['message.delivered', 'message.sent']);
      for (const delivery of dead) {
        expect(delivery.attempt_count).toBe(13);
        expect(delivery.attempts.map((a) => a.status_code)).toEqual(Array(13).fill(500));
      }
      const [letter] = dead;
      const all = (await developer.get('/webhooks/deliveries')).body as { items: Delivery[] };
      expect(all.items.length).toBeGreaterThanOrEqual(6);
      expect(((await developer.get('/webhooks/deliveries?event_type=message.sent&status=dead')).body as { items: Delivery[] }).items).toHaveLength(1);

      failing.answer = answering(204);
      const resent = await developer.post(`/webhooks/deliveries/${letter.id}/resend`);
      expect(resent).toMatchObject({ status: 202, body: { id: letter.id, attempt: 14, status: 'pending' } });
      const detail = await eventually(
        async () => (await developer.get(`/webhooks/deliveries/${letter.id}`)).body as unknown as Delivery & { payload: Json },
        (d) => d.status === 'delivered',
      );
      expect(detail.attempts.at(-1)).toMatchObject({ attempt: 14, status_code: 204, resend: true });
      expect(detail.payload).toMatchObject({ type: letter.event_type, data: { message_id: messageId } });
      const posts = failing.received.filter((r) => r.headers['webhook-id'] === letter.id);
      expect(posts).toHaveLength(14);
      expect(new Set(posts.map((r) => r.body)).size).toBe(1);
      expect(((await developer.get('/webhooks/deliveries?status=dead')).body as { items: Delivery[] }).items.map((d) => d.id)).not.toContain(letter.id);
    } finally {
      await failing.close();
    }
  });

  it("answers 404 for another company's delivery and 400 for bad filters", async () => {
    const owner = await signedIn(emails.owner);
    const [delivery] = ((await owner.get('/webhooks/deliveries')).body as { items: Delivery[] }).items;
    const other = await signedIn(emails.globex);
    expect(await other.get(`/webhooks/deliveries/${delivery.id}`)).toMatchObject({ status: 404, body: { error: 'Webhook delivery not found' } });
    expect(await other.post(`/webhooks/deliveries/${delivery.id}/resend`)).toMatchObject({ status: 404, body: { error: 'Webhook delivery not found' } });
    expect(((await other.get('/webhooks/deliveries')).body as { items: Delivery[] }).items).toEqual([]);
    expect((await owner.get('/webhooks/deliveries/not-a-uuid')).status).toBe(404);
    expect(await owner.get('/webhooks/deliveries?status=lost')).toMatchObject({
      status: 400,
      body: { error: 'status must be one of pending, delivered, dead' },
    });
    expect((await owner.get('/webhooks/deliveries?cursor=bm9wZQ')).status).toBe(400);
    expect((await owner.get('/webhooks/deliveries?page=2')).status).toBe(400);
    const operator = await signedIn(emails.operator);
    expect(((await operator.get(`/webhooks/deliveries?company_id=${acme.company_id}`)).body as { items: Delivery[] }).items.length).toBeGreaterThan(0);
  });

  it('rotates with a day of overlap when no body says otherwise', async () => {
    const owner = await signedIn(emails.owner);
    const rotated = await owner.post('/webhooks/secret/rotate');
    expect(rotated).toMatchObject({ status: 200, body: { overlap_seconds: 86_400 } });
    expect((await owner.get('/webhooks/secret')).body).toMatchObject({
      secret: rotated.body['secret'],
      previous_expires_at: rotated.body['previous_expires_at'],
    });
  });
});
