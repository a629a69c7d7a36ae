import { QueueName } from '@mp/queue-contracts';
import { openTestDataSource, spyOnStatements } from '@mp/testing';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { MARK_LINGER_MS, OutboxRelay } from './outbox-relay';
import { OutboxRepository, type OutboxJob } from './outbox.repository';
import { QueueProducer } from './queue-producer';

describe('OutboxRelay (PostgreSQL, Redis)', () => {
  let db: DataSource;
  let producer: QueueProducer;
  let relay: OutboxRelay;

  beforeAll(async () => {
    Logger.overrideLogger(false); // the relay's warnings are expected here
    db = await openTestDataSource('test-outbox-relay');
    producer = new QueueProducer({
      redisUrl: process.env['REDIS_URL'] as string,
      prefix: `${process.env['QUEUE_PREFIX']}-relay`,
      appName: 'test-outbox-relay',
      consume: [],
    });
    relay = new OutboxRelay(producer, new OutboxRepository(db));
  });
  afterAll(async () => {
    await relay.onApplicationShutdown();
    await producer.onApplicationShutdown();
    await db.destroy();
  });

  /** Commits one outbox row per job, as a writer does, and answers their ids. */
  async function committed(count: number, options: { notBefore?: Date; priority?: number } = {}): Promise<{ ids: string[]; jobs: OutboxJob[] }> {
    const jobs = Array.from({ length: count }, () => ({
      queue: QueueName.BillingSettle,
      jobName: 'billing.refund',
      jobId: `relay-test-${randomUUID()}`,
      data: { messageId: randomUUID() },
      notBefore: options.notBefore ?? new Date(),
      priority: options.priority ?? null,
    }));
    const ids = await db.transaction((manager) => new OutboxRepository(db).insertMany(manager, jobs));
    return { ids, jobs };
  }

  const enqueuedAt = async (ids: string[]): Promise<(Date | null)[]> =>
    (await db.query(`SELECT enqueued_at FROM outbox WHERE id = ANY($1::bigint[]) ORDER BY id`, [ids])).map(
      (row: { enqueued_at: Date | null }) => row.enqueued_at,
    );

  it('answers once the jobs are in their queue, and marks the rows of relays close together with one UPDATE a little later', async () => {
    const groups = await Promise.all([committed(2), committed(1), committed(3)]);
    const statements = spyOnStatements();
    const marks = () => statements.texts().filter((sql) => sql.startsWith('UPDATE outbox o SET enqueued_at'));
    try {
      const started = Date.now();
      await expect(Promise.all(groups.map((group) => relay.relay(group.ids, group.jobs)))).resolves.toEqual([true, true, true]);
      const relayedBy = Date.now();
      for (const { jobs } of groups) {
        for (const job of jobs) expect(await producer.queue(QueueName.BillingSettle).getJob(job.jobId)).toBeDefined();
      }
      // Nothing marked yet: the marks linger to be written together.
      if (Date.now() - started < MARK_LINGER_MS / 2) expect(await enqueuedAt(groups.flatMap((g) => g.ids))).toEqual([null, null, null, null, null, null]);
      await relay.marked();
      // Each row says when its job was enqueued, not when the mark was written.
      const marked = await enqueuedAt(groups.flatMap((g) => g.ids));
      expect(marked.every((at) => at instanceof Date && at.getTime() >= started && at.getTime() <= relayedBy)).toBe(true);
      expect(marks()).toHaveLength(1);
    } finally {
      statements.restore();
    }
  });

  it.each([1, 3])('enqueues a relay of %i jobs with their ids, names, data, delays and priorities, once however often it is relayed', async (count) => {
    const queue = producer.queue(QueueName.BillingSettle);
    const due = await committed(count, { priority: 3 });
    const later = await committed(count, { notBefore: new Date(Date.now() + 60_000) });
    for (const group of [due, later, due, later]) await expect(relay.relay(group.ids, group.jobs)).resolves.toBe(true);
    for (const job of due.jobs) {
      const queued = await queue.getJob(job.jobId);
      expect(queued).toMatchObject({ id: job.jobId, name: 'billing.refund', data: job.data, opts: { priority: 3 } });
      expect(queued?.opts.delay ?? 0).toBe(0);
    }
    for (const job of later.jobs) {
      const queued = await queue.getJob(job.jobId);
      expect(queued).toMatchObject({ id: job.jobId, data: job.data });
      expect(queued?.opts.delay).toBeGreaterThan(55_000);
      expect(await queued?.getState()).toBe('delayed');
    }
    const ids = new Set([...due.jobs, ...later.jobs].map((job) => job.jobId));
    const listed = (await queue.getJobs(['waiting', 'prioritized', 'delayed'], 0, -1)).filter((job) => ids.has(job.id as string));
    expect(listed).toHaveLength(2 * count);
    await relay.marked();
  });

  it.each([1, 2])('leaves the rows of a relay of %i jobs unmarked when the queue cannot take them, for the sweeper to enqueue', async (count) => {
    const group = await committed(count);
    const down = () => Promise.reject(new Error('Redis is down'));
    const broken = new OutboxRelay({ queue: () => ({ add: down, addBulk: down }) } as unknown as QueueProducer, new OutboxRepository(db));
    await expect(broken.relay(group.ids, group.jobs)).resolves.toBe(false);
    await broken.marked();
    expect(await enqueuedAt(group.ids)).toEqual(group.ids.map(() => null));
    // Only rows older than olderThanMs are swept: these (and anything this run left) are.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await relay.sweep(10, 10_000)).toBeGreaterThanOrEqual(count);
    expect((await enqueuedAt(group.ids)).every((at) => at instanceof Date)).toBe(true);
    for (const job of group.jobs) expect(await producer.queue(QueueName.BillingSettle).getJob(job.jobId)).toBeDefined();
  });
});
