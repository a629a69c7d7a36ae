import { LaneQueue } from './lane-queue';

/** Gives the permit back; calling it again does nothing. */
export type Release = () => void;

/**
 * At most `capacity` holders at a time; a free permit goes to the most urgent lane's first
 * waiter. Bounds work that is started but not finished (e.g. submit_sm sent whose response is
 * not yet recorded), without letting a flood in a lower lane hold up a higher one for long.
 */
export class LanePermits {
  private held = 0;
  private readonly waiting: LaneQueue<(release: Release) => void>;

  constructor(
    readonly capacity: number,
    laneCount: number,
  ) {
    if (!(capacity >= 1)) throw new RangeError('capacity must be at least 1');
    this.waiting = new LaneQueue(laneCount);
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
    if (this.held < this.capacity && this.waiting.length === 0) {
      this.held += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => this.waiting.push(resolve, lane));
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The permit passes straight to the next waiter: held stays the same.
      if (next) next(this.releaser());
      else this.held -= 1;
    };
  }
}
