/**
 * At most `limit` events in any sliding window of `windowMs` (0 = unlimited). Refused attempts do
 * not count, so a client that backs off gets through again after the window.
 */
export class SlidingWindowLimiter {
  private readonly times: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly windowMs = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  tryAcquire(): boolean {
    if (this.limit <= 0) return true;
    const now = this.now();
    while (this.times.length > 0 && this.times[0] <= now - this.windowMs) this.times.shift();
    if (this.times.length >= this.limit) return false;
    this.times.push(now);
    return true;
  }
}
