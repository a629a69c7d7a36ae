import { LaneQueue } from './lane-queue';

/** Gives the permit back; calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  lane: number;
  grant: (release: Release) => void;
}

/**
 * At most `capacity` holders at a time; a free permit goes to the most urgent lane's first
 * waiter. Bounds work that is started but not finished (e.g. submit_sm sent whose response is
 * not yet recorded), without letting a flood in a lower lane hold up a higher one for long.
 *
 * The least urgent lane may not take the last `reservedForOthers` permits: a flood there (a
 * campaign) cannot hold every permit, so work in the other lanes (an OTP) finds one at once
 * instead of waiting for the flood's next permits to come back.
 */
export class LanePermits {
  private held = 0;
  private readonly waiting: LaneQueue<Waiter>;
  private readonly lastLane: number;

  constructor(
    readonly capacity: number,
    laneCount: number,
    readonly reservedForOthers = 0,
  ) {
    if (!(capacity >= 1)) throw new RangeError('capacity must be at least 1');
    if (!(reservedForOthers >= 0 && reservedForOthers < capacity)) throw new RangeError('reservedForOthers must be at least 0 and below capacity');
    this.waiting = new LaneQueue(laneCount);
    this.lastLane = laneCount - 1;
  }

  /** Permits taken now. */
  get inUse(): number {
    return this.held;
  }

  /** Callers waiting for a permit. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with a release once a permit is this caller's. */
  acquire(lane: number): Promise<Release> {
    const rank = Math.min(Math.max(0, Math.trunc(lane)), this.lastLane);
    if (this.held < this.limitOf(rank) && this.waiting.lengthUpTo(rank) === 0) {
      this.held += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((grant) => this.waiting.push({ lane: rank, grant }, rank));
  }

  private limitOf(lane: number): number {
    return lane === this.lastLane && lane > 0 ? this.capacity - this.reservedForOthers : this.capacity;
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.peek();
      // The permit passes straight to the next waiter (held stays the same) if its lane may hold it.
      if (next && this.held - 1 < this.limitOf(next.lane)) {
        this.waiting.shift();
        next.grant(this.releaser());
      } else {
        this.held -= 1;
      }
    };
  }
}
