import { markTracingOn, startSpan, withSpan } from '@mp/observability';
import { QueueName } from '@mp/queue-contracts';
import { openTestDataSource } from '@mp/testing';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { runInJobSpan } from './job-tracing';
import { OutboxRelay } from './outbox-relay';
import { OutboxRepository } from './outbox.repository';
import { QueueProducer } from './queue-producer';

/** The trace a job is committed in survives the outbox: relayed at once, or by the sweeper long after. */
describe('the outbox carries the trace (PostgreSQL, Redis)', () => {
  const exporter = new InMemorySpanExporter();
  let db: DataSource;
  let producer: QueueProducer;
  let relay: OutboxRelay;

  beforeAll(async () => {
    new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();
    markTracingOn();
    db = await openTestDataSource('test-outbox-tracing');
    producer = new QueueProducer({
      redisUrl: process.env['REDIS_URL'] as string,
      prefix: `${process.env['QUEUE_PREFIX']}-tracing`,
      appName: 'test-outbox-tracing',
      consume: [],
    });
    relay = new OutboxRelay(producer, new OutboxRepository(db));
  });
  afterAll(async () => {
    await relay.onApplicationShutdown();
    await producer.onApplicationShutdown();
    await db.destroy();
  });

  /** Commits a refund job while serving a "request" (and relays it then, as a writer does), and answers the request's span and the job. */
  async function commitInRequest(relayed = false) {
    const job = {
      queue: QueueName.BillingSettle,
      jobName: 'billing.refund',
      jobId: `tracing-test-${randomUUID()}`,
      data: { messageId: randomUUID() },
      notBefore: new Date(),
      priority: null,
    };
    const request = startSpan('POST /sms/send');
    const ids = await withSpan(request, async () => {
      const inserted = await db.transaction((manager) => new OutboxRepository(db).insertMany(manager, [job]));
      if (relayed) expect(await relay.relay(inserted, [job])).toBe(true);
      return inserted;
    });
    if (!request) throw new Error('tracing is on here: every span starts');
    request.end();
    return { request: request.spanContext(), job, ids };
  }

  it('a job the sweeper enqueues long after its request still continues that request, and the sweep links to it', async () => {
    const { request, job, ids } = await commitInRequest();
    const [row] = await db.query(`SELECT data FROM outbox WHERE id = $1`, [ids[0]]);
    expect(row.data).toEqual({ ...job.data, traceparent: `00-${request.traceId}-${request.spanId}-01` });

    // Never relayed (Redis was down, say): the sweeper finds it. Other specs' rows left unrelayed on
    // purpose may be older, and a span keeps 128 links: sweep in rounds of 100, oldest first, until
    // ours goes; the last round's span is the one that enqueued it.
    for (let round = 0; !(await producer.queue(QueueName.BillingSettle).getJob(job.jobId)); round++) {
      if (round === 100) throw new Error('the sweeper never enqueued the job');
      await relay.sweep(0, 100);
    }
    const queued = await producer.queue(QueueName.BillingSettle).getJob(job.jobId);
    expect(queued?.data).toEqual(row.data);
    const sweep = exporter
      .getFinishedSpans()
      .filter((span) => span.name === 'outbox sweep')
      .at(-1);
    expect(sweep?.links.map((link) => link.context.spanId)).toContain(request.spanId);

    await runInJobSpan({ queue: QueueName.BillingSettle, jobId: job.jobId, name: job.jobName, attempt: 1, data: queued?.data }, () => Promise.resolve());
    const run = exporter.getFinishedSpans().find((span) => span.name === 'billing.settle process');
    expect(run?.spanContext().traceId).toBe(request.traceId);
    expect(run?.parentSpanContext?.spanId).toBe(request.spanId);
  });

  it('a job relayed right after its commit carries the traceparent its row does', async () => {
    const { request, job, ids } = await commitInRequest(true);
    const [row] = await db.query(`SELECT data FROM outbox WHERE id = $1`, [ids[0]]);
    const queued = await producer.queue(QueueName.BillingSettle).getJob(job.jobId);
    expect(queued?.data).toEqual({ ...job.data, traceparent: `00-${request.traceId}-${request.spanId}-01` });
    expect(queued?.data).toEqual(row.data);
  });
});
