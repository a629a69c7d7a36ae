import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { firstFullWindow, releaseAll, SlidingWindowLimiter, takeAll } from './sliding-window-limiter';

describe('SlidingWindowLimiter (Redis)', () => {
  let redis: Redis;
  const prefix = `${process.env.QUEUE_PREFIX ?? 'mp-test'}:rate-limit`;

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('lets exactly `limit` of many concurrent takes through, across connections, and says how long to wait', async () => {
    const other = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    try {
      const key = randomUUID();
      const limiters = [new SlidingWindowLimiter(redis, prefix, 60_000), new SlidingWindowLimiter(other, prefix, 60_000)];
      const decisions = await Promise.all(Array.from({ length: 50 }, (_, i) => limiters[i % 2].take(key, 20)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
      const refused = decisions.filter((d) => !d.allowed);
      expect(refused).toHaveLength(30);
      for (const decision of refused) {
        if (decision.allowed) continue;
        expect(decision.retryAfterMs).toBeGreaterThan(55_000);
        expect(decision.retryAfterMs).toBeLessThanOrEqual(60_000);
      }
    } finally {
      other.disconnect();
    }
  });

  it('finds the first full window without taking a slot, with the wait until one frees', async () => {
    const minute = new SlidingWindowLimiter(redis, `${prefix}:peek-minute`, 60_000);
    const hour = new SlidingWindowLimiter(redis, `${prefix}:peek-hour`, 3_600_000);
    const key = randomUUID();
    const takes = [
      { limiter: minute, key, limit: 3 },
      { limiter: hour, key, limit: 2 },
    ];
    expect(await firstFullWindow(takes)).toBeNull();
    expect((await takeAll(takes)).allowed).toBe(true);
    expect(await firstFullWindow(takes)).toBeNull();
    expect((await minute.usage(key, 3)).used).toBe(1);
    expect((await takeAll(takes)).allowed).toBe(true);
    const full = await firstFullWindow(takes);
    expect(full?.index).toBe(1);
    expect(full?.retryAfterMs).toBeGreaterThan(3_500_000);
    expect(full?.retryAfterMs).toBeLessThanOrEqual(3_600_000);
    expect((await minute.usage(key, 3)).used).toBe(2);
    await redis.script('FLUSH');
    expect(await firstFullWindow([takes[0]])).toBeNull();
  });

  it('works on a Redis that has never seen its script, and after the script cache is flushed', async () => {
    const limiter = new SlidingWindowLimiter(redis, prefix, 60_000);
    const key = randomUUID();
    await redis.script('FLUSH');
    expect((await limiter.take(key, 2)).allowed).toBe(true);
    expect((await limiter.take(key, 2)).allowed).toBe(true);
    await redis.script('FLUSH');
    expect((await limiter.take(key, 2)).allowed).toBe(false);
    expect((await limiter.usage(key, 2)).used).toBe(2);
  });

  it('frees a slot when the oldest event leaves the rolling window', async () => {
    const limiter = new SlidingWindowLimiter(redis, prefix, 600);
    const key = randomUUID();
    expect((await limiter.take(key, 2)).allowed).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await limiter.take(key, 2)).allowed).toBe(true);
    const refused = await limiter.take(key, 2);
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.retryAfterMs).toBeLessThanOrEqual(310);
    await new Promise((resolve) => setTimeout(resolve, 320));
    expect((await limiter.take(key, 2)).allowed).toBe(true);
    expect((await limiter.take(key, 2)).allowed).toBe(false);
  });

  it('gives back a released slot, and reports usage without taking one', async () => {
    const limiter = new SlidingWindowLimiter(redis, prefix, 60_000);
    const key = randomUUID();
    const first = await limiter.take(key, 1);
    expect(first.allowed).toBe(true);
    expect((await limiter.take(key, 1)).allowed).toBe(false);
    const usage = await limiter.usage(key, 1);
    expect(usage).toMatchObject({ used: 1, limit: 1, remaining: 0 });
    expect(usage.resetAt?.getTime()).toBeGreaterThan(Date.now() + 50_000);
    if (first.allowed) await limiter.release(key, first.slot);
    expect(await limiter.usage(key, 1)).toEqual({ used: 0, limit: 1, remaining: 1, resetAt: null });
    expect((await limiter.take(key, 1)).allowed).toBe(true);
  });

  it('honours a lower limit set while events are counted: the wait is until enough of them leave', async () => {
    const limiter = new SlidingWindowLimiter(redis, prefix, 1_000);
    const key = randomUUID();
    for (let i = 0; i < 3; i++) {
      expect((await limiter.take(key, 3)).allowed).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const refused = await limiter.take(key, 1);
    expect(refused).toMatchObject({ allowed: false, used: 3 });
    if (!refused.allowed) expect(refused.retryAfterMs).toBeGreaterThan(700);
  });

  describe('takeAll', () => {
    it('takes a slot in every window or in none, and names the first full one with its wait', async () => {
      const hour = new SlidingWindowLimiter(redis, `${prefix}:hour`, 3_600_000);
      const minute = new SlidingWindowLimiter(redis, `${prefix}:minute`, 60_000);
      const [a, b] = [randomUUID(), randomUUID()];
      const takes = [
        { limiter: hour, key: a, limit: 2 },
        { limiter: minute, key: b, limit: 3 },
      ];
      expect(await takeAll(takes)).toMatchObject({ allowed: true, used: 1 });
      expect(await takeAll(takes)).toMatchObject({ allowed: true, used: 2 });
      const refused = await takeAll(takes);
      expect(refused).toMatchObject({ allowed: false, refused: 0, used: 2, limit: 2 });
      if (!refused.allowed) expect(refused.retryAfterMs).toBeGreaterThan(3_500_000);
      // The refusal took nothing in the other window: one slot is left there.
      expect((await minute.usage(b, 3)).used).toBe(2);
      expect(
        await takeAll([
          { limiter: minute, key: b, limit: 3 },
          { limiter: hour, key: randomUUID(), limit: 2 },
        ]),
      ).toMatchObject({ allowed: true });
      const second = await takeAll([
        { limiter: hour, key: randomUUID(), limit: 5 },
        { limiter: minute, key: b, limit: 3 },
      ]);
      expect(second).toMatchObject({ allowed: false, refused: 1, used: 3, limit: 3 });
      if (!second.allowed) expect(second.retryAfterMs).toBeLessThanOrEqual(60_000);
    });

    it('lets exactly the smaller limit through under concurrent takes, and gives a slot back in every window', async () => {
      const hour = new SlidingWindowLimiter(redis, `${prefix}:hour`, 3_600_000);
      const minute = new SlidingWindowLimiter(redis, `${prefix}:minute`, 60_000);
      const takes = [
        { limiter: hour, key: randomUUID(), limit: 7 },
        { limiter: minute, key: randomUUID(), limit: 10 },
      ];
      const decisions = await Promise.all(Array.from({ length: 30 }, () => takeAll(takes)));
      const allowed = decisions.filter((d) => d.allowed);
      expect(allowed).toHaveLength(7);
      expect((await minute.usage(takes[1].key, 10)).used).toBe(7);
      const first = allowed[0];
      if (first?.allowed) await releaseAll(takes, first.slot);
      expect((await hour.usage(takes[0].key, 7)).used).toBe(6);
      expect((await minute.usage(takes[1].key, 10)).used).toBe(6);
    });

    it('decides takes asked for together in one script call, each all-or-none, in the order they were asked for', async () => {
      const hour = new SlidingWindowLimiter(redis, `${prefix}:hour`, 3_600_000);
      const minute = new SlidingWindowLimiter(redis, `${prefix}:minute`, 60_000);
      const [company, prefixKey] = [randomUUID(), randomUUID()];
      // Every take counts against the company (limit 20); every third also against a prefix (limit 4).
      const takesOf = (i: number) =>
        i % 3 === 0
          ? [
              { limiter: minute, key: company, limit: 20 },
              { limiter: hour, key: prefixKey, limit: 4 },
            ]
          : [{ limiter: minute, key: company, limit: 20 }];
      const calls = jest.spyOn(redis, 'evalsha');
      let decisions: Awaited<ReturnType<typeof takeAll>>[];
      try {
        decisions = await Promise.all(Array.from({ length: 30 }, (_, i) => takeAll(takesOf(i))));
        expect(calls).toHaveBeenCalledTimes(1);
      } finally {
        calls.mockRestore();
      }
      // The same takes, decided one after the other by a model of the two windows.
      let [companyUsed, prefixUsed] = [0, 0];
      const expected = Array.from({ length: 30 }, (_, i) => {
        if (companyUsed >= 20) return { allowed: false, refused: 0, used: companyUsed, limit: 20 };
        if (i % 3 === 0 && prefixUsed >= 4) return { allowed: false, refused: 1, used: prefixUsed, limit: 4 };
        companyUsed += 1;
        if (i % 3 === 0) prefixUsed += 1;
        return { allowed: true, used: companyUsed };
      });
      expect(
        decisions.map((d) => (d.allowed ? { allowed: true, used: d.used } : { allowed: false, refused: d.refused, used: d.used, limit: d.limit })),
      ).toEqual(expected);
      expect((await minute.usage(company, 20)).used).toBe(20);
      expect((await hour.usage(prefixKey, 4)).used).toBe(4);
    });

    it('refuses windows on different Redis connections', async () => {
      const other = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
      const takes = [
        { limiter: new SlidingWindowLimiter(redis, prefix, 1_000), key: 'a', limit: 1 },
        { limiter: new SlidingWindowLimiter(other, prefix, 1_000), key: 'b', limit: 1 },
      ];
      await expect(takeAll(takes)).rejects.toThrow(/one Redis connection/);
      other.disconnect();
    });
  });
});
