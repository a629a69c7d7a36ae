import { LoadingCache } from './loading-cache';

/** A load whose answers the test settles by hand, counting its calls. */
function manualLoad<V>() {
  const pending: { resolve: (value: V | undefined) => void; reject: (error: Error) => void }[] = [];
  const load = jest.fn(() => new Promise<V | undefined>((resolve, reject) => pending.push({ resolve, reject })));
  return { load, pending };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('LoadingCache', () => {
  it('answers a value without loading it again until half its TTL, then reloads it once in the background', async () => {
    let now = 1_000;
    const cache = new LoadingCache<string>({ ttlMs: 1_000, now: () => now });
    const { load, pending } = manualLoad<string>();
    const first = cache.get('a', load);
    pending[0].resolve('x');
    expect(await first).toBe('x');

    now += 499;
    expect(await cache.get('a', load)).toBe('x');
    expect(load).toHaveBeenCalledTimes(1);

    now += 1; // half the TTL: still answered, and reloaded behind the callers' backs, once
    expect(await Promise.all([cache.get('a', load), cache.get('a', load), cache.get('a', load)])).toEqual(['x', 'x', 'x']);
    expect(load).toHaveBeenCalledTimes(2);
    // A first load is told nothing is cached; a reload, the value it refreshes.
    expect(load.mock.calls).toEqual([[undefined], ['x']]);
    pending[1].resolve('y');
    await flush();
    expect(await cache.get('a', load)).toBe('y');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('never answers a value as old as its TTL: the caller waits for a load', async () => {
    let now = 0;
    const cache = new LoadingCache<string>({ ttlMs: 1_000, now: () => now });
    await cache.get('a', async () => 'old');
    now = 1_000;
    expect(await cache.get('a', async () => 'new')).toBe('new');
  });

  it('shares one load among the callers that ask for a key while it is being loaded', async () => {
    const cache = new LoadingCache<number>({ ttlMs: 1_000 });
    const { load, pending } = manualLoad<number>();
    const answers = Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]);
    expect(load).toHaveBeenCalledTimes(1);
    pending[0].resolve(7);
    expect(await answers).toEqual([7, 7, 7]);
  });

  it('caches no undefined answer, and drops a key whose reload answers undefined (a revoked credential)', async () => {
    let now = 0;
    const cache = new LoadingCache<string>({ ttlMs: 1_000, now: () => now });
    const missing = jest.fn(async () => undefined);
    expect(await cache.get('a', missing)).toBeUndefined();
    expect(await cache.get('a', missing)).toBeUndefined();
    expect(missing).toHaveBeenCalledTimes(2);

    await cache.get('b', async () => 'valid');
    now = 600;
    expect(await cache.get('b', missing)).toBe('valid'); // answered while the reload runs
    await flush();
    const loadAgain = jest.fn(async () => undefined);
    expect(await cache.get('b', loadAgain)).toBeUndefined();
    expect(loadAgain).toHaveBeenCalledTimes(1);
  });

  it('keeps a value whose background reload failed until its TTL ends; a failed load rejects its waiters and the next get tries again', async () => {
    let now = 0;
    const cache = new LoadingCache<string>({ ttlMs: 1_000, now: () => now });
    await cache.get('a', async () => 'x');
    now = 600;
    expect(await cache.get('a', () => Promise.reject(new Error('database down')))).toBe('x');
    await flush();
    now = 900;
    const { load, pending } = manualLoad<string>();
    expect(await cache.get('a', load)).toBe('x');

    now = 1_000;
    const waiters = [cache.get('a', load), cache.get('a', load)];
    pending[0].reject(new Error('database down')); // the background reload begun at 900
    for (const waiter of waiters) await expect(waiter).rejects.toThrow('database down');
    expect(await cache.get('a', async () => 'back')).toBe('back');
  });

  it('loads on every get with a TTL of 0, and drops the oldest key when full', async () => {
    const none = new LoadingCache<number>({ ttlMs: 0 });
    const load = jest.fn(async () => 1);
    await none.get('a', load);
    await none.get('a', load);
    expect(load).toHaveBeenCalledTimes(2);

    const small = new LoadingCache<number>({ ttlMs: 60_000, maxEntries: 2 });
    for (const [key, value] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      await small.get(key, async () => value);
    const gone = async () => undefined;
    expect([await small.get('a', gone), await small.get('b', gone), await small.get('c', gone)]).toEqual([undefined, 2, 3]);
  });
});
