import { SlidingWindowLimiter } from './rate-limiter';

describe('SlidingWindowLimiter', () => {
  it('allows the limit in any sliding window, not counting refusals', () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter(2, 1_000, () => now);
    expect([limiter.tryAcquire(), limiter.tryAcquire(), limiter.tryAcquire()]).toEqual([true, true, false]);
    now = 600;
    expect(limiter.tryAcquire()).toBe(false);
    now = 1_000; // the first two leave the window
    expect([limiter.tryAcquire(), limiter.tryAcquire(), limiter.tryAcquire()]).toEqual([true, true, false]);
  });

  it('allows everything at 0', () => {
    const limiter = new SlidingWindowLimiter(0);
    expect(Array.from({ length: 100 }, () => limiter.tryAcquire()).every(Boolean)).toBe(true);
  });
});
