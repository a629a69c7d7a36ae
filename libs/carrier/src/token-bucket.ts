/**
 * A token bucket: `ratePerSecond` tokens a second, at most `capacity` saved up (the largest
 * burst). A rate of 0 means unlimited.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly capacity = 1,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(ratePerSecond >= 0) || !(capacity >= 1)) throw new RangeError('TokenBucket needs ratePerSecond >= 0 and capacity >= 1');
    this.tokens = capacity;
    this.last = now();
  }

  /** Takes a token and returns 0, or takes none and returns the milliseconds until one is there. */
  take(): number {
    if (this.ratePerSecond === 0) return 0;
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) * this.ratePerSecond) / 1000);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil(((1 - this.tokens) * 1000) / this.ratePerSecond));
  }
}

/**
 * The burst a bind is allowed: 20 ms worth of its rate, at least one. Small, so that the rate
 * over any one second stays within what a carrier counting per second allows.
 */
export function burstFor(ratePerSecond: number): number {
  return Math.max(1, Math.floor(ratePerSecond / 50));
}
