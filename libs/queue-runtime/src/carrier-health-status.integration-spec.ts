import { randomUUID } from 'node:crypto';
import { CARRIER_HEALTH_TTL_SECONDS, publishCarrierHealth, readCarrierHealth, withdrawCarrierHealth } from './carrier-health-status';
import { readBindStates } from './platform-status';
import { createRedisConnection } from './redis-connection';

describe('carrier health in Redis', () => {
  const prefix = `${process.env['QUEUE_PREFIX']}-health-${randomUUID()}`;
  const redis = createRedisConnection(process.env['REDIS_URL'] as string, 'worker', 'carrier-health-spec');
  const counters = (submits: number, delivered: number) => ({
    submits,
    throttled: 0,
    errors: 1,
    delivered,
    undelivered: 0,
    timedReceipts: delivered,
    receiptLatencyMsTotal: delivered * 100,
  });
  const carrier = (name: string, submits: number, degraded = false) => ({
    carrier: name,
    windowMs: 300_000,
    counters: counters(submits, submits - 1),
    degraded,
    reason: degraded ? 'delivered_share_collapsed' : 'delivering',
  });

  afterAll(() => redis.disconnect());

  it("reads every dispatcher's published carriers, by carrier, until one withdraws them; each report expires", async () => {
    await publishCarrierHealth(redis, prefix, 'b:2', [carrier('uk', 5, true)]);
    await publishCarrierHealth(redis, prefix, 'a:1', [carrier('uk', 10), carrier('de', 3)]);
    await publishCarrierHealth(redis, `${prefix}-other`, 'c:3', [carrier('uk', 99)]);
    // A garbled report is skipped, not fatal.
    await redis.set(`${prefix}:status:carrier-health:x:9`, 'not json', 'EX', 30);

    const read = await readCarrierHealth(redis, prefix);
    expect(read.map((r) => [r.carrier, r.dispatcher, r.counters.submits, r.degraded])).toEqual([
      ['de', 'a:1', 3, false],
      ['uk', 'a:1', 10, false],
      ['uk', 'b:2', 5, true],
    ]);
    expect(read[1]).toEqual({ dispatcher: 'a:1', ...carrier('uk', 10) });
    // The bind reports of the same prefix are another key family: neither reader sees the other's.
    expect(await readBindStates(redis, prefix)).toEqual([]);

    const ttl = await redis.ttl(`${prefix}:status:carrier-health:a:1`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(CARRIER_HEALTH_TTL_SECONDS);

    await withdrawCarrierHealth(redis, prefix, 'b:2');
    expect((await readCarrierHealth(redis, prefix)).map((r) => `${r.carrier} ${r.dispatcher}`)).toEqual(['de a:1', 'uk a:1']);
    await redis.del(`${prefix}-other:status:carrier-health:c:3`, `${prefix}:status:carrier-health:a:1`, `${prefix}:status:carrier-health:x:9`);
    expect(await readCarrierHealth(redis, prefix)).toEqual([]);
  });
});
