import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('answers a value until its TTL has passed, then nothing', () => {
    let now = 1_000;
    const cache = new TtlCache<string>(500, 10, () => now);
    cache.set('a', 'x');
    now += 499;
    expect(cache.get('a')).toBe('x');
    now += 1;
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the oldest entry when full, and caches nothing with a TTL of 0', () => {
    const cache = new TtlCache<number>(1_000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
    const none = new TtlCache<number>(0);
    none.set('a', 1);
    expect(none.get('a')).toBeUndefined();
  });
});
