import { randomBytes, randomUUID } from 'node:crypto';
import { WorkerAppModule } from '@mp/app-runtime';
import { loadConfig } from '@mp/config';
import { createHttpApp } from '@mp/http-kit';
import { PlatformMetrics } from '@mp/metrics';
import { createLogger } from '@mp/observability';
import { QueueName } from '@mp/queue-contracts';
import { QueueProducer } from '@mp/queue-runtime';
import { answering, eventually, openTestDataSource, parsePrometheusText, sampleSum, startWebhookReceiver, type WebhookReceiver } from '@mp/testing';
import { verifyWebhook } from '@mp/webhooks';
import { WebhookDeliveryRepository } from '@mp/webhooks-data-access';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DataSource } from 'typeorm';
import { WebhookNotifierApp } from './webhook-notifier.app';
import { WebhookNotifierEnv } from './webhook-notifier.env';

/** The app as it runs (its module, BullMQ on the run's Redis prefix), without the HTTP listener. */
describe('webhook-notifier app (PostgreSQL, Redis)', () => {
  let db: DataSource;
  let app: NestFastifyApplication;
  let receiver: WebhookReceiver;
  let secret: string;
  let companyId: string;

  beforeAll(async () => {
    db = await openTestDataSource('webhook-notifier-app-test');
    secret = `whsec_${randomBytes(32).toString('base64')}`;
    [{ id: companyId }] = await db.query(`INSERT INTO companies (name, webhook_secret) VALUES ('App', $1) RETURNING id`, [secret]);
    receiver = await startWebhookReceiver();
    const config = loadConfig(WebhookNotifierEnv, { ...process.env, WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_SCALE: '0.001' });
    const logger = createLogger({ app: 'webhook-notifier-test', level: 'silent' });
    app = await createHttpApp(WorkerAppModule.forRoot(WebhookNotifierApp, config), { logger });
    await app.init();
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    await db?.destroy();
  });

  const scrape = async () => parsePrometheusText((await app.get(PlatformMetrics).scrape()).text);

  it('turns a message.status job into a signed webhook, retried through the queue until it is delivered', async () => {
    const before = await scrape();
    receiver.answer = answering(500, 200);
    const messageId = randomUUID();
    await db.query(
      `INSERT INTO messages (id, company_id, request_id, route, sender, recipient, body, encoding, parts, price_per_part, cost,
         reference, webhook_url, status)
       VALUES ($1, $2, gen_random_uuid(), 'auto', 'Acme', '+33612345678', 'Hi', 'GSM-7', 1, 0.05, 0.05, NULL, $3, 'sent')`,
      [messageId, companyId, receiver.url],
    );
    await app
      .get(QueueProducer)
      .enqueue(
        QueueName.DeliveryEvents,
        'message.status',
        { messageId, status: 'sent', occurredAt: new Date().toISOString() },
        { jobId: `evt-${messageId}-sent` },
      );
    const repository = new WebhookDeliveryRepository(db);
    const deadline = Date.now() + 20_000;
    let deliveries = await repository.listForCompany(companyId);
    while (deliveries[0]?.status !== 'delivered' && Date.now() < deadline) {
      await new Promise((wake) => setTimeout(wake, 100));
      deliveries = await repository.listForCompany(companyId);
    }
    expect(deliveries).toEqual([expect.objectContaining({ messageId, eventType: 'message.sent', status: 'delivered', attempts: 2 })]);
    expect(receiver.received).toHaveLength(2);
    for (const request of receiver.received) {
      expect(verifyWebhook({ secrets: [secret], headers: request.headers, body: request.body })).toBe(true);
      expect(JSON.parse(request.body)).toMatchObject({ type: 'message.sent', data: { message_id: messageId, status: 'sent', reference: null } });
    }
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => sampleSum(after, name, labels) - sampleSum(before, name, labels);
    expect(moved('mp_webhook_attempts_total', { outcome: 'failed' })).toBe(1);
    expect(moved('mp_webhook_attempts_total', { outcome: 'delivered' })).toBe(1);
    expect(moved('mp_webhook_attempt_duration_seconds_count', {})).toBe(2);
    expect(moved('mp_job_duration_seconds_count', { queue: QueueName.WebhookDeliver, job: 'webhook.deliver', outcome: 'completed' })).toBe(2);
    expect(moved('mp_job_duration_seconds_count', { queue: QueueName.DeliveryEvents, job: 'message.status', outcome: 'completed' })).toBe(1);
  });

  it('counts a job that fails for good, and reports the depths of the queues it consumes', async () => {
    const failures = { queue: QueueName.WebhookDeliver, job: 'webhook.deliver', final: 'true' };
    const before = await scrape();
    // No such delivery: the handler throws UnrecoverableError, so BullMQ does not retry.
    await app.get(QueueProducer).enqueue(QueueName.WebhookDeliver, 'webhook.deliver', { deliveryId: randomUUID() }, { jobId: `missing-${randomUUID()}` });
    const after = await eventually(scrape, (now) => sampleSum(now, 'mp_job_failures_total', failures) > sampleSum(before, 'mp_job_failures_total', failures));
    expect(sampleSum(after, 'mp_job_failures_total', failures) - sampleSum(before, 'mp_job_failures_total', failures)).toBe(1);
    expect(
      sampleSum(after, 'mp_job_duration_seconds_count', { queue: QueueName.WebhookDeliver, outcome: 'failed' }) -
        sampleSum(before, 'mp_job_duration_seconds_count', { queue: QueueName.WebhookDeliver, outcome: 'failed' }),
    ).toBe(1);
    const queues = new Set(after.samples.filter((sample) => sample.name === 'mp_queue_backlog').map((sample) => sample.labels['queue']));
    expect(queues).toEqual(new Set([QueueName.DeliveryEvents, QueueName.WebhookDeliver]));
    expect(after.samples.every((sample) => sample.labels['app'] === 'webhook-notifier')).toBe(true);
  });
});
