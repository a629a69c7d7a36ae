/**
 * A FIFO queue per lane, read most urgent lane first: an item in lane 0 always leaves before
 * one in lane 1, whenever either arrived; within a lane, in arrival order.
 */
export class LaneQueue<T> {
  private readonly lanes: T[][];
  private size = 0;

  constructor(laneCount: number) {
    if (!(laneCount >= 1)) throw new RangeError('laneCount must be at least 1');
    this.lanes = Array.from({ length: laneCount }, () => []);
  }

  get length(): number {
    return this.size;
  }

  /** Items waiting in lanes 0 to `lane`, that lane included. */
  lengthUpTo(lane: number): number {
    let count = 0;
    for (let i = 0; i <= lane && i < this.lanes.length; i += 1) count += this.lanes[i].length;
    return count;
  }

  /** Adds the item at the end of its lane (a lane past the last counts as the last). */
  push(item: T, lane: number): void {
    this.lanes[Math.min(Math.max(0, Math.trunc(lane)), this.lanes.length - 1)].push(item);
    this.size += 1;
  }

  /** The first item of the most urgent lane that has one. */
  shift(): T | undefined {
    for (const lane of this.lanes) {
      if (lane.length > 0) {
        this.size -= 1;
        return lane.shift();
      }
    }
    return undefined;
  }

  /** The item shift would take, left in place. */
  peek(): T | undefined {
    for (const lane of this.lanes) if (lane.length > 0) return lane[0];
    return undefined;
  }

  /** Takes up to n items, most urgent first. */
  take(n: number): T[] {
    const taken: T[] = [];
    for (const lane of this.lanes) {
      if (taken.length >= n) break;
      taken.push(...lane.splice(0, n - taken.length));
    }
    this.size -= taken.length;
    return taken;
  }

  /** Takes the item out wherever it waits; false if it was not there. */
  remove(item: T): boolean {
    for (const lane of this.lanes) {
      const index = lane.indexOf(item);
      if (index >= 0) {
        lane.splice(index, 1);
        this.size -= 1;
        return true;
      }
    }
    return false;
  }

  /** Every item, most urgent first, leaving the queue empty. */
  drain(): T[] {
    this.size = 0;
    return this.lanes.flatMap((lane) => lane.splice(0));
  }

  /** Every item, most urgent first, leaving them in place. */
  toArray(): T[] {
    return this.lanes.flat();
  }
}
