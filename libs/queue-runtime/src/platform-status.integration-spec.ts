import { QueueName } from '@mp/queue-contracts';
import { randomUUID } from 'node:crypto';
import { BIND_REPORT_TTL_SECONDS, publishBindStates, readBindStates, readQueueDepths, withdrawBindStates } from './platform-status';
import { QueueProducer } from './queue-producer';
import { createRedisConnection } from './redis-connection';

describe('platform status in Redis', () => {
  const prefix = `${process.env['QUEUE_PREFIX']}-status-${randomUUID()}`;
  const redis = createRedisConnection(process.env['REDIS_URL'] as string, 'worker', 'status-spec');
  const producer = new QueueProducer({ redisUrl: process.env['REDIS_URL'] as string, prefix, appName: 'status-spec', consume: [] });

  afterAll(async () => {
    await producer.onApplicationShutdown();
    redis.disconnect();
  });

  it("reads every dispatcher's published binds, by route, until one withdraws them; each report expires", async () => {
    const since = '2026-11-26T10:00:00.000Z';
    await publishBindStates(redis, prefix, 'b:2', [{ route: 'premium', bind: 1, target: 'smsc-p:2775', state: 'connecting', since }]);
    await publishBindStates(redis, prefix, 'a:1', [
      { route: 'premium', bind: 1, target: 'smsc-p:2775', state: 'bound', since },
      { route: 'default', bind: 1, target: 'smsc:2775', state: 'bound', since },
    ]);
    await publishBindStates(redis, `${prefix}-other`, 'c:3', [{ route: 'default', bind: 1, target: 'x:1', state: 'bound', since }]);
    expect((await readBindStates(redis, prefix)).map((b) => [b.route, b.dispatcher, b.state])).toEqual([
      ['default', 'a:1', 'bound'],
      ['premium', 'a:1', 'bound'],
      ['premium', 'b:2', 'connecting'],
    ]);
    const ttl = await redis.ttl(`${prefix}:status:smsc-binds:a:1`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(BIND_REPORT_TTL_SECONDS);
    await withdrawBindStates(redis, prefix, 'b:2');
    expect((await readBindStates(redis, prefix)).map((b) => b.dispatcher)).toEqual(['a:1', 'a:1']);
    await redis.del(`${prefix}-other:status:smsc-binds:c:3`, `${prefix}:status:smsc-binds:a:1`);
  });

  it('counts the jobs of every queue by state', async () => {
    await producer.enqueue(QueueName.BillingSettle, 'billing.refund' as never, {} as never, { jobId: 'depth-1' });
    await producer.enqueue(QueueName.BillingSettle, 'billing.refund' as never, {} as never, { jobId: 'depth-2', delayMs: 60_000 });
    await producer.enqueue(QueueName.BillingSettle, 'billing.refund' as never, {} as never, { jobId: 'depth-3', priority: 1 });
    const depths = await readQueueDepths((name) => producer.queue(name));
    expect(depths.map((d) => d.queue)).toEqual(Object.values(QueueName));
    expect(depths.find((d) => d.queue === QueueName.BillingSettle)).toEqual({ queue: QueueName.BillingSettle, waiting: 2, active: 0, delayed: 1, failed: 0 });
    expect(depths.find((d) => d.queue === QueueName.SmsDispatch)).toEqual({ queue: QueueName.SmsDispatch, waiting: 0, active: 0, delayed: 0, failed: 0 });
    await producer.queue(QueueName.BillingSettle).obliterate({ force: true });
  });
});
