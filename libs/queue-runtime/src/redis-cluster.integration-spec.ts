import { SlidingWindowLimiter, takeAll } from '@mp/rate-limit';
import { startRedisCluster, type RunningRedisCluster } from '@mp/testing';
import { publishBindStates, readBindStates } from './platform-status';
import { createRedisConnection, type RedisConnection } from './redis-connection';

describe('a Redis Cluster (startRedisCluster)', () => {
  let cluster: RunningRedisCluster;
  let redis: RedisConnection;
  const prefix = `{${process.env['QUEUE_PREFIX']}-cluster}`;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    redis = createRedisConnection(cluster.url, 'worker', 'cluster-spec');
  });
  afterAll(async () => {
    redis?.disconnect();
    await cluster?.stop();
  });

  it('has three masters that split the slots, and a redis+cluster:// URL naming them', async () => {
    expect(cluster.url).toMatch(/^redis\+cluster:\/\/127\.0\.0\.1:\d+,127\.0\.0\.1:\d+,127\.0\.0\.1:\d+$/);
    const slots = await redis.cluster('SLOTS');
    expect(new Set(slots.map(([, , [, port]]) => port))).toEqual(new Set(cluster.nodes.map((node) => node.port)));
  });

  it("takes slots of several windows in one script when the keys share the prefix's hash tag, and refuses at the limit", async () => {
    const minute = new SlidingWindowLimiter(redis, `${prefix}:spec-minute`, 60_000);
    const hour = new SlidingWindowLimiter(redis, `${prefix}:spec-hour`, 3_600_000);
    const takes = [
      { limiter: minute, key: 'company-a', limit: 2 },
      { limiter: hour, key: 'company-a', limit: 5 },
    ];
    const decisions = [await takeAll(takes), await takeAll(takes), await takeAll(takes)];
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, false]);
    expect(decisions[2]).toMatchObject({ allowed: false, refused: 0, used: 2, limit: 2 });
    expect((await hour.usage('company-a', 5)).used).toBe(2);
  });

  it('refuses a script whose keys have no common hash tag (why QUEUE_PREFIX must be one)', async () => {
    const a = new SlidingWindowLimiter(redis, 'untagged-a', 60_000);
    const b = new SlidingWindowLimiter(redis, 'untagged-b', 60_000);
    await expect(
      takeAll([
        { limiter: a, key: 'x', limit: 1 },
        { limiter: b, key: 'x', limit: 1 },
      ]),
    ).rejects.toThrow(/CROSSSLOT/);
  });

  it("reads every dispatcher's binds, wherever the cluster put them", async () => {
    const since = '2026-11-26T10:00:00.000Z';
    await publishBindStates(redis, prefix, 'a:1', [{ route: 'default', bind: 1, target: 'smsc:2775', state: 'bound', since }]);
    await publishBindStates(redis, prefix, 'b:2', [{ route: 'default', bind: 1, target: 'smsc:2775', state: 'connecting', since }]);
    expect((await readBindStates(redis, prefix)).map((bind) => [bind.dispatcher, bind.state])).toEqual([
      ['a:1', 'bound'],
      ['b:2', 'connecting'],
    ]);
  });
});
