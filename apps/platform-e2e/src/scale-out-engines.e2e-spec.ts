import {
  admin,
  eventually,
  freePort,
  startPgBouncer,
  startRedisCluster,
  startStack,
  startWebhookReceiver,
  type RunningPgBouncer,
  type RunningRedisCluster,
  type RunningStack,
  type WebhookReceiver,
} from '@mp/testing';
import Redis from 'ioredis';
import { Client } from 'pg';
import { ApiClient, createCompany, simulatorMessages, type Company } from './support/api-client';

type Data = { data: Record<string, unknown> };
/** PgBouncer's server connections per database: fewer than any one app's pool, so the apps share them. */
const SERVER_CONNECTIONS = 4;

/**
 * The whole platform on a three-node Redis Cluster (REDIS_URL redis+cluster://, QUEUE_PREFIX a
 * hash tag) and behind PgBouncer 1.18 in transaction pooling mode (DATABASE_POOLER), the
 * migrations run on PostgreSQL itself (MIGRATION_DATABASE_URL): SMS with its receipt and
 * webhooks, a campaign to completion, OTP send and verify, the OTP rate limit and idempotency.
 */
describe('the platform on a Redis Cluster and behind PgBouncer (transaction mode)', () => {
  let cluster: RunningRedisCluster;
  let bouncer: RunningPgBouncer;
  let stack: RunningStack;
  let receiver: WebhookReceiver;
  let simulatorUrl: string;
  let company: Company;
  let pgbouncerConsole: Client;
  /** The application_name of every client PgBouncer had while the stack ran, read every 200 ms. */
  const bouncedApps = new Set<string>();
  let watching: NodeJS.Timeout | undefined;
  let mostServers = 0;
  let nextNumber = 612700000;
  const newNumber = () => `+33${nextNumber++}`;
  // A fresh prefix for this spec, as a hash tag: every key of the run in one slot.
  const prefix = `{${process.env['QUEUE_PREFIX']}-scale}`;

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );
  const handset = (to: string) => simulatorMessages<{ text: string; from: string }>(simulatorUrl, to);
  const textAt = async (to: string) =>
    (
      await eventually(
        () => handset(to),
        (list) => list.length > 0,
      )
    )[0].text;

  /** Apps' connections come and go (their pools close idle ones): who connected, and how many server connections were ever open. */
  async function watchPgBouncer(): Promise<void> {
    const clients = await pgbouncerConsole.query<{ application_name: string }>('SHOW CLIENTS').catch(() => ({ rows: [] }));
    for (const row of clients.rows) bouncedApps.add(row.application_name);
    const servers = await pgbouncerConsole.query<{ database: string }>('SHOW SERVERS').catch(() => ({ rows: [] }));
    mostServers = Math.max(mostServers, servers.rows.length);
  }

  beforeAll(async () => {
    const direct = process.env['DATABASE_URL'] as string;
    await admin(['db:migrate']);
    company = await createCompany('Scale Out', '10');
    [cluster, bouncer, receiver] = await Promise.all([
      startRedisCluster(),
      startPgBouncer({ databaseUrl: direct, poolSize: SERVER_CONNECTIONS }),
      startWebhookReceiver(),
    ]);
    pgbouncerConsole = new Client({ connectionString: bouncer.adminUrl });
    await pgbouncerConsole.connect();
    watching = setInterval(() => void watchPgBouncer(), 200);
    const httpPort = await freePort();
    simulatorUrl = `http://127.0.0.1:${httpPort}`;
    stack = await startStack({
      env: {
        REDIS_URL: cluster.url,
        QUEUE_PREFIX: prefix,
        DATABASE_URL: bouncer.url,
        DATABASE_POOLER: 'pgbouncer-transaction',
        MIGRATION_DATABASE_URL: direct,
        SMSC_SIMULATOR_PORT: String(httpPort),
      },
    });
  });
  afterAll(async () => {
    clearInterval(watching);
    await pgbouncerConsole?.end().catch(() => undefined);
    await stack?.stop();
    await Promise.all([cluster?.stop(), bouncer?.stop(), receiver?.close()]);
  });

  it('sends an SMS that is delivered, with its receipt and its signed webhooks', async () => {
    const to = newNumber();
    const sent = await api.post<Data>('/sms/send', { to, message: 'Through the cluster', reference: 'scale-1', webhook_url: receiver.url });
    expect(sent.status).toBe(200);
    const id = sent.body.data['message_id'];
    const final = await eventually(
      async () => (await api.get<Data>(`/sms/${id}`)).body.data,
      (view) => view['status'] === 'delivered',
    );
    expect(final).toMatchObject({ status: 'delivered', parts: 1, completed_at: expect.any(String) });
    expect(await textAt(to)).toBe('Through the cluster');
    const types = await eventually(
      () => receiver.received.map((request) => (JSON.parse(request.body) as { type: string; data: { message_id: string } }).type).sort(),
      (list) => list.includes('message.delivered') && list.includes('message.sent'),
    );
    expect(types).toEqual(['message.delivered', 'message.sent']);
  });

  it('runs a campaign of spaced batches to completion', async () => {
    const phones = [newNumber(), newNumber(), newNumber(), newNumber()];
    const accepted = await api.post<Data>('/sms/send-bulk', {
      recipients: phones,
      message: 'Cluster sale',
      from: 'Shop',
      batch_size: 2,
      delay_between_batches: 1,
    });
    expect(accepted.status).toBe(200);
    const campaignId = accepted.body.data['campaign_id'];
    const done = await eventually(
      async () => (await api.get<{ data: { status: string; summary: Record<string, number> } }>(`/sms/campaigns/${campaignId}`)).body.data,
      (campaign) => campaign.status === 'completed',
    );
    expect(done.summary).toMatchObject({ queued: 0, processing: 0, sent: 0, delivered: 4, failed: 0 });
    for (const to of phones) expect(await textAt(to)).toBe('Cluster sale');
  });

  it('sends an OTP whose code, read at the SMSC, verifies once', async () => {
    const to = newNumber();
    const sent = await api.post('/otp/send', { appid: company.appid, phone: to });
    expect(sent.status).toBe(200);
    const code = /(\d{6})/.exec(await textAt(to))?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const verified = await api.post('/v1/otp/verify', { verification_id: sent.body['verification_id'], code });
    expect(verified).toMatchObject({ status: 200, body: { verified: true, recipient: to } });
    const again = await api.post('/v1/otp/verify', { verification_id: sent.body['verification_id'], code });
    expect(again).toMatchObject({ status: 400, body: { error: 'OTP already verified' } });
  });

  it("keeps the OTP rate limit in the cluster: the company's fourth send within a minute is refused", async () => {
    const limited = await createCompany('Scale Limited', '1');
    await admin(['company:update', '--company', limited.company_id, '--set', 'otp_rate_limit=3']);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await api.as(limited).post('/otp/send', { appid: limited.appid, recipient: newNumber() }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(answers[3].body['error']).toMatch(/try again in \d+ seconds/);
  });

  it('answers a repeated Idempotency-Key with the first response, sending and charging once', async () => {
    const keyed = await createCompany('Scale Keyed', '1');
    const send = (body: unknown) => api.as(keyed).post<Data>('/sms/send', body, { headers: { 'idempotency-key': 'scale-order-1' } });
    const [first, second] = await Promise.all([send({ to: '+33612799999', message: 'Once' }), send({ to: '+33612799999', message: 'Once' })]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.data['message_id']).toBe(first.body.data['message_id']);
    expect(await send({ to: '+33612799999', message: 'Other' })).toMatchObject({ status: 409 });
    expect((await api.as(keyed).get<{ data: { balance: number } }>('/balance')).body.data.balance).toBe(0.99);
  });

  it('has a live consumer on every queue in the cluster (admin queue:probe)', async () => {
    const probe = await admin(['queue:probe', '--timeout', '30000'], { REDIS_URL: cluster.url, QUEUE_PREFIX: prefix });
    expect(probe['ok']).toBe(true);
  });

  it("kept every key of the run in the prefix's one slot, and every app's connections went through PgBouncer's few", async () => {
    const owners = await Promise.all(
      cluster.nodes.map(async (node) => {
        const redis = new Redis(node.port, node.host);
        try {
          return (await redis.keys(`${prefix}:*`)).length;
        } finally {
          redis.disconnect();
        }
      }),
    );
    expect(owners.filter((count) => count > 0)).toHaveLength(1);
    expect(Math.max(...owners)).toBeGreaterThan(10);

    await watchPgBouncer();
    expect([...bouncedApps]).toEqual(expect.arrayContaining(['gateway', 'sms-dispatcher', 'billing', 'webhook-notifier', 'otp']));
    expect(mostServers).toBeGreaterThan(0);
    expect(mostServers).toBeLessThanOrEqual(SERVER_CONNECTIONS);
  });
});
