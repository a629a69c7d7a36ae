import { burstFor, TokenBucket } from './token-bucket';

describe('TokenBucket', () => {
  it('gives its capacity at once, then a token every 1/rate seconds', () => {
    let now = 0;
    const bucket = new TokenBucket(10, 2, () => now);
    expect([bucket.take(), bucket.take()]).toEqual([0, 0]);
    expect(bucket.take()).toBe(100);
    now = 50;
    expect(bucket.take()).toBe(50);
    now = 100;
    expect(bucket.take()).toBe(0);
    expect(bucket.take()).toBe(100);
  });

  it('saves up no more than its capacity', () => {
    let now = 0;
    const bucket = new TokenBucket(10, 2, () => now);
    bucket.take();
    bucket.take();
    now = 10_000;
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([0, 0, 100]);
  });

  it('keeps to the rate over time', () => {
    let now = 0;
    const bucket = new TokenBucket(50, 1, () => now);
    let taken = 0;
    for (; now < 1_000; now += 1) if (bucket.take() === 0) taken += 1;
    expect(taken).toBe(50);
  });

  it('is unlimited at rate 0', () => {
    const bucket = new TokenBucket(0);
    expect(Array.from({ length: 1000 }, () => bucket.take()).every((wait) => wait === 0)).toBe(true);
  });

  it('refuses a negative rate or a capacity below 1', () => {
    expect(() => new TokenBucket(-1)).toThrow(RangeError);
    expect(() => new TokenBucket(5, 0)).toThrow(RangeError);
  });
});

describe('burstFor', () => {
  it('is 20 ms worth of the rate, at least 1', () => {
    expect([burstFor(0), burstFor(5), burstFor(100), burstFor(1000)]).toEqual([1, 1, 2, 20]);
  });
});
