/** How many accepted submits are kept for timing receipts: a few seconds of submits at full speed (most receipts come sooner). */
export const RECENT_SUBMITS = 20_000;

/**
 * When the response of each of the last `capacity` accepted submits came, by a key naming the
 * submit (its carrier message id, or carrier and id): a receipt found here can be timed. Bounded,
 * so that a flood or lost receipts cannot grow it; the oldest entry goes first. A receipt of a
 * submit this process did not make, or made longer ago, is not found.
 */
export class RecentSubmits {
  private readonly answeredAt = new Map<string, number>();

  constructor(private readonly capacity: number) {
    if (!(Number.isInteger(capacity) && capacity > 0)) throw new RangeError(`capacity must be a whole number above 0, not ${capacity}`);
  }

  answered(key: string, atMs: number): void {
    this.answeredAt.delete(key);
    if (this.answeredAt.size >= this.capacity) this.answeredAt.delete(this.answeredAt.keys().next().value as string);
    this.answeredAt.set(key, atMs);
  }

  /** When the submit's response came, forgetting it (a receipt is timed once); undefined if not kept. */
  take(key: string): number | undefined {
    const at = this.answeredAt.get(key);
    if (at !== undefined) this.answeredAt.delete(key);
    return at;
  }

  get size(): number {
    return this.answeredAt.size;
  }
}
