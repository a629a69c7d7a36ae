import { randomBytes, randomUUID } from 'node:crypto';
import dns from 'node:dns';
import { PlatformMetrics } from '@mp/metrics';
import { loadConfig } from '@mp/config';
import { Logger } from '@nestjs/common';
import { MessageWebhookEvents } from '@mp/messaging';
import type { MessageEventStatus } from '@mp/queue-contracts';
import type { EnqueueOptions, QueueProducer } from '@mp/queue-runtime';
import { answering, openTestDataSource, startWebhookReceiver, type WebhookReceiver } from '@mp/testing';
import { verifyWebhook, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_SECONDS } from '@mp/webhooks';
import { WebhookDeliveryRepository } from '@mp/webhooks-data-access';
import type { DataSource } from 'typeorm';
import { WebhookNotifierEnv } from '../webhook-notifier.env';
import { MessageEventRecorder } from './message-event-recorder.service';
import { OverdueDeliverySweeper } from './overdue-delivery-sweeper.service';
import { WebhookDeliverer } from './webhook-deliverer.service';

interface Enqueued {
  queue: string;
  name: string;
  data: { deliveryId: string };
  options: EnqueueOptions;
}

/** Keeps what would go to Redis; the test runs the jobs itself, without waiting for their delays. */
class RecordingProducer {
  readonly jobs: Enqueued[] = [];
  failNext = false;

  async enqueue(queue: string, name: string, data: { deliveryId: string }, options: EnqueueOptions): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('Redis is down');
    }
    this.jobs.push({ queue, name, data, options });
  }
}

describe('webhook-notifier processors (PostgreSQL, a receiver on 127.0.0.1)', () => {
  let db: DataSource;
  let repository: WebhookDeliveryRepository;
  let receiver: WebhookReceiver;
  let producer: RecordingProducer;
  let companyId: string;
  let secret: string;
  const at = '2026-03-04T05:06:07.089Z';

  const config = (env: Record<string, string> = {}) =>
    loadConfig(WebhookNotifierEnv, { WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_SCALE: '0.001', WEBHOOK_TIMEOUT_MS: '2000', ...env });
  const recorder = () => new MessageEventRecorder(new MessageWebhookEvents(db), new WebhookDeliveryRepository(db), producer as unknown as QueueProducer);
  const deliverer = (env?: Record<string, string>) =>
    new WebhookDeliverer(
      new WebhookDeliveryRepository(db),
      producer as unknown as QueueProducer,
      config(env),
      new PlatformMetrics('webhook-notifier', { defaultMetrics: false }),
    );

  const newMessage = async (webhookUrl: string | null = receiver.url, errorCode: string | null = null) => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO messages (id, company_id, request_id, route, sender, recipient, body, encoding, parts, price_per_part, cost,
         reference, webhook_url, status, error_code)
       VALUES ($1, $2, gen_random_uuid(), 'auto', 'Acme', '+33612345678', 'Hello', 'GSM-7', 1, 0.05, 0.05, 'order-7', $3, 'sent', $4)`,
      [id, companyId, webhookUrl, errorCode],
    );
    return id;
  };
  const statusEvent = async (messageId: string, status: MessageEventStatus) => {
    const result = await recorder().record({ messageId, status, occurredAt: at });
    if (!('deliveryId' in result)) throw new Error(`no delivery: ${result.skipped}`);
    return result.deliveryId;
  };
  /** Runs queued deliver jobs, as the worker would once each delay has passed, until none is left. */
  const runJobs = async (env?: Record<string, string>) => {
    const run = deliverer(env);
    for (let job = producer.jobs.shift(); job; job = producer.jobs.shift()) await run.deliver(job.data.deliveryId, job.options.jobId);
  };
  const attemptsOf = (id: string) => repository.listAttempts(id);

  beforeAll(async () => {
    db = await openTestDataSource('webhook-notifier-test');
    repository = new WebhookDeliveryRepository(db);
    secret = `whsec_${randomBytes(32).toString('base64')}`;
    [{ id: companyId }] = await db.query(`INSERT INTO companies (name, webhook_secret) VALUES ('Hooked', $1) RETURNING id`, [secret]);
  });
  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    producer = new RecordingProducer();
  });
  afterEach(() => receiver.close());
  afterAll(() => db.destroy());

  it('posts the documented payload, signed with the company secret, with the delivery id as webhook-id', async () => {
    const messageId = await newMessage();
    const deliveryId = await statusEvent(messageId, 'delivered');
    expect(producer.jobs).toEqual([{ queue: 'webhook.deliver', name: 'webhook.deliver', data: { deliveryId }, options: { jobId: `wh-${deliveryId}-1` } }]);
    await runJobs();
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request.path).toBe('/hooks/sms');
    expect(request.headers['webhook-id']).toBe(deliveryId);
    expect(verifyWebhook({ secrets: [secret], headers: request.headers, body: request.body })).toBe(true);
    expect(verifyWebhook({ secrets: [`whsec_${randomBytes(32).toString('base64')}`], headers: request.headers, body: request.body })).toBe(false);
    expect(request.body).toBe(
      `{"type":"message.delivered","timestamp":"${at}","data":{"message_id":"${messageId}","to":"+33612345678","status":"delivered","reference":"order-7","parts":1}}`,
    );
    expect(await repository.findById(deliveryId)).toMatchObject({ status: 'delivered', attempts: 1, deliveredAt: expect.any(Date) });
    expect(await attemptsOf(deliveryId)).toEqual([expect.objectContaining({ attempt: 1, statusCode: 204, error: null })]);
  });

  it('tells a failure as message.failed with its reason and error code', async () => {
    const deliveryId = await statusEvent(await newMessage(receiver.url, '0x0000000b'), 'undelivered');
    await runJobs();
    expect(JSON.parse(receiver.received[0].body)).toMatchObject({
      type: 'message.failed',
      data: { status: 'undelivered', reason: 'undelivered', error_code: '0x0000000b' },
    });
    expect((await repository.findById(deliveryId))?.eventType).toBe('message.failed');
  });

  it('retries after a 500, on the scaled schedule, and is delivered by the second attempt', async () => {
    receiver.answer = answering(500, 200);
    const deliveryId = await statusEvent(await newMessage(), 'sent');
    producer.jobs.length = 0;
    await deliverer().deliver(deliveryId, `wh-${deliveryId}-1`);
    expect(producer.jobs).toEqual([expect.objectContaining({ options: { jobId: `wh-${deliveryId}-2`, delayMs: expect.any(Number) } })]);
    expect(producer.jobs[0].options.delayMs).toBeGreaterThanOrEqual(4);
    expect(producer.jobs[0].options.delayMs).toBeLessThanOrEqual(6);
    await runJobs();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([deliveryId, deliveryId]);
    expect(receiver.received.every((r) => verifyWebhook({ secrets: [secret], headers: r.headers, body: r.body }))).toBe(true);
    expect(await attemptsOf(deliveryId)).toEqual([
      expect.objectContaining({ attempt: 1, statusCode: 500, error: 'HTTP 500', responseSnippet: 'answer 0' }),
      expect.objectContaining({ attempt: 2, statusCode: 200, error: null }),
    ]);
    expect(await repository.findById(deliveryId)).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('dead-letters after the last attempt of the schedule, every attempt recorded', async () => {
    receiver.answer = answering(500);
    const deliveryId = await statusEvent(await newMessage(), 'sent');
    const run = deliverer();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const delays: number[] = [];
    for (let job = producer.jobs.shift(); job; job = producer.jobs.shift()) {
      if (job.options.delayMs !== undefined) delays.push(job.options.delayMs);
      await run.deliver(job.data.deliveryId, job.options.jobId);
    }
    expect(receiver.received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    // At scale 0.001, a delay of s seconds (±20 % jitter) becomes s milliseconds.
    expect(delays.map((delay, i) => Math.abs(delay - WEBHOOK_RETRY_DELAYS_SECONDS[i]) <= WEBHOOK_RETRY_DELAYS_SECONDS[i] * 0.2 + 1)).toEqual(
      WEBHOOK_RETRY_DELAYS_SECONDS.map(() => true),
    );
    const attempts = await attemptsOf(deliveryId);
    expect(attempts.map((a) => [a.attempt, a.statusCode])).toEqual(Array.from({ length: WEBHOOK_MAX_ATTEMPTS }, (_, i) => [i + 1, 500]));
    expect(await repository.findById(deliveryId)).toMatchObject({
      status: 'dead',
      attempts: WEBHOOK_MAX_ATTEMPTS,
      lastError: 'HTTP 500',
      deadAt: expect.any(Date),
    });
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ msg: 'webhook delivery dead-lettered', deliveryId }));
    warn.mockRestore();
    expect(await run.deliver(deliveryId, `wh-${deliveryId}-${WEBHOOK_MAX_ATTEMPTS + 1}`)).toEqual({ skipped: 'dead' });
    expect(receiver.received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
  });

  it('refuses a receiver on 127.0.0.1 unless loopback is allowed: nothing arrives, dead-lettered at once with the reason', async () => {
    const deliveryId = await statusEvent(await newMessage(), 'sent');
    producer.jobs.length = 0;
    expect(await deliverer({ WEBHOOK_ALLOW_LOOPBACK: 'false' }).deliver(deliveryId, `wh-${deliveryId}-1`)).toEqual({ attempt: 1, outcome: 'dead' });
    expect(receiver.received).toEqual([]);
    const reason = 'forbidden address: 127.0.0.1 is a loopback address';
    expect(await attemptsOf(deliveryId)).toEqual([expect.objectContaining({ attempt: 1, statusCode: null, error: reason, responseSnippet: null })]);
    expect(await repository.findById(deliveryId)).toMatchObject({ status: 'dead', attempts: 1, lastError: reason, deadAt: expect.any(Date) });
    expect(producer.jobs).toEqual([]);
  });

  describe('a host whose addresses, once resolved, the guard refuses', () => {
    const url = () => receiver.url.replace('127.0.0.1', 'hooks.customer.test');
    /** The system resolver answers `address` for hooks.customer.test, as the customer's DNS could. */
    const resolving = (address: string) =>
      jest
        .spyOn(dns, 'lookup')
        .mockImplementation(((hostname: string, options: unknown, callback: (...args: unknown[]) => void) =>
          hostname === 'hooks.customer.test'
            ? callback(null, [{ address, family: 4 }])
            : callback(new Error(`unexpected lookup of ${hostname}`))) as typeof dns.lookup);
    afterEach(() => jest.restoreAllMocks());

    it('dead-letters the delivery at once, nothing sent, the refusal recorded as its last error and its attempt', async () => {
      resolving('10.1.2.3');
      const deliveryId = await statusEvent(await newMessage(url()), 'sent');
      producer.jobs.length = 0;
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      expect(await deliverer().deliver(deliveryId, `wh-${deliveryId}-1`)).toEqual({ attempt: 1, outcome: 'dead' });
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ msg: 'webhook delivery dead-lettered', deliveryId, refused: true }));
      expect(receiver.received).toEqual([]);
      expect(producer.jobs).toEqual([]);
      const reason = 'forbidden address: hooks.customer.test resolves to 10.1.2.3, which is a private address';
      expect(await repository.findById(deliveryId)).toMatchObject({ status: 'dead', attempts: 1, lastError: reason, deadAt: expect.any(Date) });
      expect(await attemptsOf(deliveryId)).toEqual([expect.objectContaining({ attempt: 1, statusCode: null, error: reason, responseSnippet: null })]);
      expect(await deliverer().deliver(deliveryId, `wh-${deliveryId}-2`)).toEqual({ skipped: 'dead' });
    });

    it('delivers when the operator allows that range', async () => {
      resolving('127.0.0.1');
      const deliveryId = await statusEvent(await newMessage(url()), 'sent');
      await runJobs();
      expect(await repository.findById(deliveryId)).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(receiver.received).toHaveLength(1);
    });
  });

  it('makes one delivery of the same event arriving twice', async () => {
    const messageId = await newMessage();
    const first = await statusEvent(messageId, 'delivered');
    expect(await statusEvent(messageId, 'delivered')).toBe(first);
    expect(producer.jobs.map((job) => job.options.jobId)).toEqual([`wh-${first}-1`, `wh-${first}-1`]);
    await runJobs();
    expect(receiver.received).toHaveLength(1);
    const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM webhook_deliveries WHERE message_id = $1`, [messageId]);
    expect(count).toBe(1);
  });

  it('counts a 302 as a failed attempt and does not follow it', async () => {
    const target = await startWebhookReceiver();
    try {
      receiver.answer = (_n, response) => response.writeHead(302, { location: target.url }).end();
      const deliveryId = await statusEvent(await newMessage(), 'sent');
      await deliverer().deliver(deliveryId, `wh-${deliveryId}-1`);
      expect(await attemptsOf(deliveryId)).toEqual([expect.objectContaining({ statusCode: 302, error: 'redirect not followed (302)' })]);
      expect(target.received).toEqual([]);
      expect((await repository.findById(deliveryId))?.status).toBe('pending');
    } finally {
      await target.close();
    }
  });

  it('does nothing for a message without a webhook_url', async () => {
    expect(await recorder().record({ messageId: await newMessage(null), status: 'delivered', occurredAt: at })).toEqual({ skipped: 'no webhook_url' });
    expect(producer.jobs).toEqual([]);
  });

  it('refuses for good an event about a message that does not exist', async () => {
    await expect(recorder().record({ messageId: randomUUID(), status: 'sent', occurredAt: at })).rejects.toThrow(/does not exist/);
  });

  it('when the next job could not be enqueued, the retried job enqueues it without posting again', async () => {
    receiver.answer = answering(503);
    const deliveryId = await statusEvent(await newMessage(), 'sent');
    producer.jobs.length = 0;
    const run = deliverer();
    producer.failNext = true;
    await expect(run.deliver(deliveryId, `wh-${deliveryId}-1`)).rejects.toThrow('Redis is down');
    expect(await run.deliver(deliveryId, `wh-${deliveryId}-1`)).toEqual({ skipped: 'already attempted' });
    expect(receiver.received).toHaveLength(1);
    expect(producer.jobs.map((job) => job.options.jobId)).toEqual([`wh-${deliveryId}-2`]);
    expect(await attemptsOf(deliveryId)).toHaveLength(1);
  });

  it('re-enqueues the next attempt of a delivery whose job was lost, once it is overdue, and nothing else', async () => {
    const sweeper = new OverdueDeliverySweeper(
      new WebhookDeliveryRepository(db),
      producer as unknown as QueueProducer,
      config({ WEBHOOK_OVERDUE_MS: '60000' }),
    );
    const lost = await statusEvent(await newMessage(), 'delivered');
    const onTime = await statusEvent(await newMessage(), 'delivered');
    producer.jobs.length = 0; // Redis lost both jobs
    await db.query(`UPDATE webhook_deliveries SET next_attempt_at = now() - interval '2 minutes' WHERE id = $1`, [lost]);
    expect(await sweeper.sweepOnce()).toBe(1);
    expect(producer.jobs.map((job) => job.options.jobId)).toEqual([`wh-${lost}-1`]);
    await runJobs();
    expect((await repository.findById(lost))?.status).toBe('delivered');
    expect((await repository.findById(onTime))?.status).toBe('pending');
    expect(await sweeper.sweepOnce()).toBe(0);
  });
});
