/**
 * Runs callbacks a fixed delay after they were queued, in order, with one timer for all of them.
 * At tens of thousands of parts a second, a Node timer per part (and its bookkeeping) is a good
 * share of the simulator's CPU and garbage; callbacks queued with the same delay fall due in the
 * order they came, so a queue per delay is enough.
 */
export class DelayQueue {
  private due: number[] = [];
  private callbacks: (() => void)[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly delayMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.callbacks.length - this.head;
  }

  push(callback: () => void): void {
    this.due.push(this.now() + this.delayMs);
    this.callbacks.push(callback);
    if (this.timer === undefined) this.arm(this.delayMs);
  }

  /** Drops every callback not run yet. */
  clear(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.due = [];
    this.callbacks = [];
    this.head = 0;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.fire(), Math.max(0, ms));
  }

  private fire(): void {
    this.timer = undefined;
    const now = this.now();
    while (this.head < this.callbacks.length && this.due[this.head] <= now) {
      const callback = this.callbacks[this.head];
      this.head += 1;
      callback();
    }
    if (this.head === this.callbacks.length) {
      this.due = [];
      this.callbacks = [];
      this.head = 0;
    } else {
      if (this.head > 1024) {
        this.due = this.due.slice(this.head);
        this.callbacks = this.callbacks.slice(this.head);
        this.head = 0;
      }
      if (this.timer === undefined) this.arm(this.due[this.head] - now);
    }
  }
}
