import { LaneQueue } from '@mp/batching';
import { TokenBucket } from './token-bucket';
import type { TrafficPolicy } from './traffic-policy';

const NOTHING_HELD = () => undefined;

/**
 * The traffic policy's pace (TrafficPolicy): holds the least urgent traffic (a campaign's parts) to
 * `campaigns.pacePerSecond` while other traffic (OTPs, single sends) flows, i.e. was noted within
 * `othersFlowMs`; otherwise it goes at once. A rate of 0 never holds anything back.
 *
 * Those waiting go in arrival order, released by one timer every `campaigns.paceTickMs`, all the
 * tick's share at once: released one by one, each part would be recorded (and its receipt) in a
 * database transaction of its own; a tick's parts share them, as a campaign's at full speed do. A
 * campaign's thousands of waiting parts do not each set a timer.
 *
 * Making a batch of parts (a campaign batch's message rows) costs more than sending them, so while
 * the pace holds, batches start one at a time (`startTurn`), and only once less than a second's
 * parts wait. And a campaign's lane starting after a quiet spell yields for its first
 * `othersFlowMs` as if others flowed (a slow start): an OTP arriving then finds the campaign
 * already paced, not several batches made and sent at full speed.
 */
export class YieldingPace {
  /** Parts a second while it holds; 0: never holds. */
  readonly ratePerSecond: number;
  private readonly othersActiveMs: number;
  private readonly tickMs: number;
  private readonly makingSlice: number;
  private readonly bucket: TokenBucket;
  private othersActiveUntil = Number.NEGATIVE_INFINITY;
  private lastUsedAt = Number.NEGATIVE_INFINITY;
  private readonly waiting = new LaneQueue<() => void>(1);
  private readonly starters = new LaneQueue<() => void>(1);
  private startsUnderway = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    traffic: TrafficPolicy,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.ratePerSecond = traffic.campaigns.pacePerSecond;
    this.othersActiveMs = traffic.othersFlowMs;
    this.tickMs = traffic.campaigns.paceTickMs;
    this.makingSlice = traffic.campaigns.makingSlice;
    this.bucket = new TokenBucket(this.ratePerSecond, Math.max(1, Math.round((this.ratePerSecond * this.tickMs) / 1000)), now);
  }

  /** Parts waiting for their turn. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Batch starts waiting for theirs. */
  get startsQueued(): number {
    return this.starters.length;
  }

  /** Other traffic is flowing now. */
  noteOthers(): void {
    if (this.ratePerSecond === 0) return;
    this.othersActiveUntil = this.now() + this.othersActiveMs;
  }

  /** Resolves when the next part may go: at once unless it must yield. */
  turn(): Promise<void> {
    if (this.ratePerSecond === 0) return Promise.resolve();
    this.noteUse();
    if (this.queued === 0) {
      const wait = this.yielding() ? this.bucket.take() : 0;
      if (wait === 0) return Promise.resolve();
      this.schedule(wait);
    }
    // While anything waits, a timer is set to release it.
    return new Promise((resolve) => this.waiting.push(resolve, 0));
  }

  /**
   * Resolves when a batch of parts may start being made, with the function to call once it is made
   * (its parts then wait for their turns). At once unless the pace holds.
   */
  startTurn(): Promise<() => void> {
    if (this.ratePerSecond === 0) return Promise.resolve(NOTHING_HELD);
    this.noteUse();
    return new Promise((resolve) => {
      this.starters.push(() => resolve(this.holdStart()), 0);
      this.admitStarters();
    });
  }

  /**
   * How a batch about to be made makes its messages: while the pace holds, the policy's
   * campaigns.makingSlice at a time (built, then inserted), a tick apart for as long as it holds;
   * otherwise undefined, all at once.
   * A batch made at once stops this process and takes a database core for a while, and the OTPs
   * of that moment wait behind it; made in slices, it goes between them
   * (docs/decisions/0035-campaign-start-and-batch-making.md).
   */
  makingSlices(): { slice: number; between: () => Promise<void> } | undefined {
    if (this.ratePerSecond === 0 || !this.yielding()) return undefined;
    const between = () => (this.yielding() ? new Promise<void>((resolve) => setTimeout(resolve, this.tickMs)) : Promise.resolve());
    return { slice: this.makingSlice, between };
  }

  private yielding(): boolean {
    return this.now() < this.othersActiveUntil;
  }

  /** The lane starting after a quiet spell yields at first, as if others flowed. */
  private noteUse(): void {
    const now = this.now();
    const idle = this.queued === 0 && this.startsUnderway === 0 && this.starters.length === 0;
    if (idle && now - this.lastUsedAt >= this.othersActiveMs) this.othersActiveUntil = Math.max(this.othersActiveUntil, now + this.othersActiveMs);
    this.lastUsedAt = now;
  }

  private holdStart(): () => void {
    this.startsUnderway += 1;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.startsUnderway -= 1;
      // Looked at on the next tick, once the batch's parts have joined those waiting.
      this.schedule(this.tickMs);
    };
  }

  private admitStarters(): void {
    while (this.starters.length > 0) {
      if (this.yielding() && (this.startsUnderway > 0 || this.queued >= this.ratePerSecond)) return this.schedule(this.tickMs);
      (this.starters.shift() as () => void)();
    }
  }

  private pump(): void {
    this.timer = undefined;
    while (this.queued > 0) {
      const wait = this.yielding() ? this.bucket.take() : 0;
      if (wait > 0) {
        this.schedule(wait);
        break;
      }
      (this.waiting.shift() as () => void)();
    }
    this.admitStarters();
  }

  /** Pumps at the next tick (or when a token is due, if later), or when the other traffic has stopped, if that is sooner. */
  private schedule(wait: number): void {
    if (this.timer) return;
    const untilFree = Math.max(1, Math.ceil(this.othersActiveUntil - this.now()));
    this.timer = setTimeout(() => this.pump(), Math.min(Math.max(wait, this.tickMs), untilFree));
  }
}
