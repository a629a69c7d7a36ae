import { LaneQueue } from '@mp/batching';
import { TokenBucket } from './token-bucket';

/**
 * Paces the least urgent traffic (a campaign's parts) to `ratePerSecond` while other traffic (OTPs,
 * single sends) flows, i.e. was noted within `othersActiveMs`; otherwise it goes at once. A rate of
 * 0 never holds anything back.
 *
 * Those waiting go in arrival order, released by one timer every `tickMs`, all the tick's share at
 * once: released one by one, each part would be recorded (and its receipt) in a database
 * transaction of its own; a tick's parts share them, as a campaign's at full speed do. A
 * campaign's thousands of waiting parts do not each set a timer.
 */
export class YieldingPace {
  private readonly bucket: TokenBucket;
  private othersActiveUntil = Number.NEGATIVE_INFINITY;
  private readonly waiting = new LaneQueue<() => void>(1);
  private timer?: NodeJS.Timeout;

  constructor(
    readonly ratePerSecond: number,
    private readonly othersActiveMs = 1_000,
    private readonly now: () => number = () => performance.now(),
    private readonly tickMs = 50,
  ) {
    if (!(ratePerSecond >= 0)) throw new RangeError('ratePerSecond must be at least 0');
    if (!(tickMs >= 1)) throw new RangeError('tickMs must be at least 1');
    this.bucket = new TokenBucket(ratePerSecond, Math.max(1, Math.round((ratePerSecond * tickMs) / 1000)), now);
  }

  /** Parts waiting for their turn. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Other traffic is flowing now. */
  noteOthers(): void {
    if (this.ratePerSecond === 0) return;
    this.othersActiveUntil = this.now() + this.othersActiveMs;
  }

  /** Resolves when the next part may go: at once unless it must yield. */
  turn(): Promise<void> {
    if (this.queued === 0) {
      const wait = this.yielding() ? this.bucket.take() : 0;
      if (wait === 0) return Promise.resolve();
      this.schedule(wait);
    }
    // While anything waits, a timer is set to release it.
    return new Promise((resolve) => this.waiting.push(resolve, 0));
  }

  private yielding(): boolean {
    return this.ratePerSecond > 0 && this.now() < this.othersActiveUntil;
  }

  private pump(): void {
    this.timer = undefined;
    while (this.queued > 0) {
      const wait = this.yielding() ? this.bucket.take() : 0;
      if (wait > 0) return this.schedule(wait);
      (this.waiting.shift() as () => void)();
    }
  }

  /** Pumps at the next tick (or when a token is due, if later), or when the other traffic has stopped, if that is sooner. */
  private schedule(wait: number): void {
    if (this.timer) return;
    const untilFree = Math.max(1, Math.ceil(this.othersActiveUntil - this.now()));
    this.timer = setTimeout(() => this.pump(), Math.min(Math.max(wait, this.tickMs), untilFree));
  }
}
