import { captureContext, type CapturedContext } from '@mp/observability';
import { LaneQueue } from './lane-queue';

export type ItemOutcome<O> = { ok: true; value: O } | { ok: false; error: unknown };

/** Does the work of several items at once: one outcome per item, in the items' order. */
export type Flush<I, O> = (items: readonly I[]) => Promise<ItemOutcome<O>[]>;

export interface GroupCommitOptions {
  /** The most items one flush takes. */
  maxBatch: number;
  /** Flushes that may run at the same time, each with its own items. Default 1. */
  concurrency?: number;
  /**
   * Lanes of waiting items (default 1): a flush takes the waiting items of lane 0 first, then
   * lane 1's, and so on, so urgent items never wait behind a flood of others for more than the
   * flush under way.
   */
  lanes?: number;
  /**
   * When a flush of several items throws, flush each item alone, so one bad item (or a deadlock
   * between batches) fails only itself. Default true.
   */
  isolateFailures?: boolean;
  /**
   * How long the first waiting item may wait for others before a flush takes it (default 0: a
   * flush starts at once). For work nobody waits on, such as marking outbox rows or storing
   * receipts: under light load a flush then carries many items instead of one, and the fixed cost
   * of each flush (a transaction, its round trips, its commit) is paid that much less often. A
   * full batch (maxBatch) goes at once, and idle() flushes what lingers.
   */
  lingerMs?: number;
  /**
   * With lingerMs: an item that arrives when nothing waits or is being flushed, more than
   * lingerMs after the item before it, goes at once. Nothing suggests company is coming, and
   * lingering would only add to its latency: a send at a few a second is not held for others.
   */
  lingerOnlyInBursts?: boolean;
  /**
   * With lingerMs: linger this many times as long as the last flush took, and at most lingerMs.
   * Where flushes are quick (a machine with CPU to spare) items go almost at once, and a linger
   * adds little to their latency; where they are slow (a busy machine) the items that gather
   * meanwhile make fewer, bigger flushes, which is what such a machine can least afford to waste.
   */
  lingerTimesLastFlush?: number;
}

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
  /** The submitter's context, while the log context (or tracing) is on. */
  context: CapturedContext | undefined;
}

/**
 * Coalesces work that arrives concurrently into one flush: one transaction, one commit, one round
 * trip for many callers. Without `lingerMs` there is no timer: a flush starts as soon as one may
 * run, and what arrives while it runs waits for the next. Under light load an item goes alone at
 * once; under heavy load batches grow by themselves to what one flush costs.
 */
export class GroupCommit<I, O> {
  private readonly waiting: LaneQueue<Waiting<I, O>>;
  private readonly maxBatch: number;
  private readonly concurrency: number;
  private readonly isolateFailures: boolean;
  private readonly lingerMs: number;
  private readonly lingerOnlyInBursts: boolean;
  private readonly lingerTimesLastFlush: number | undefined;
  private lastSubmitAt = Number.NEGATIVE_INFINITY;
  private lastFlushMs = 0;
  private running = 0;
  private scheduled = false;
  /** Set while the waiting items have lingered long enough (or must go: idle). */
  private released = false;
  private lingerTimer: NodeJS.Timeout | undefined;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly flush: Flush<I, O>,
    options: GroupCommitOptions,
  ) {
    if (!(options.maxBatch >= 1)) throw new RangeError('maxBatch must be at least 1');
    this.maxBatch = options.maxBatch;
    this.concurrency = Math.max(1, options.concurrency ?? 1);
    this.isolateFailures = options.isolateFailures ?? true;
    this.lingerMs = Math.max(0, options.lingerMs ?? 0);
    this.lingerOnlyInBursts = options.lingerOnlyInBursts ?? false;
    this.lingerTimesLastFlush = options.lingerTimesLastFlush;
    this.waiting = new LaneQueue(Math.max(1, options.lanes ?? 1));
  }

  /** Resolves with this item's outcome once the flush that carried it has finished. `lane` 0 is the most urgent. */
  submit(item: I, lane = 0): Promise<O> {
    const now = Date.now();
    if (this.lingerOnlyInBursts && this.pending === 0 && now - this.lastSubmitAt > this.lingerMs) this.released = true;
    this.lastSubmitAt = now;
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject, context: captureContext() }, lane);
      this.schedule();
    });
  }

  /** Items waiting or being flushed. */
  get pending(): number {
    return this.waiting.length + this.running;
  }

  /** Resolves when nothing waits and no flush runs (for a graceful shutdown). */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    if (this.waiting.length > 0) this.release();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  // Deferred to the end of the current I/O round, so that requests read in the same round share a flush.
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private release(): void {
    clearTimeout(this.lingerTimer);
    this.lingerTimer = undefined;
    this.released = true;
    this.pump();
  }

  /** Whether the waiting items may go now; if not, that they will once they have lingered. */
  private mayFlush(): boolean {
    const lingerMs = this.lingerTimesLastFlush === undefined ? this.lingerMs : Math.min(this.lingerMs, this.lingerTimesLastFlush * this.lastFlushMs);
    if (lingerMs === 0 || this.released || this.waiting.length >= this.maxBatch) return true;
    this.lingerTimer ??= setTimeout(() => this.release(), lingerMs);
    return false;
  }

  private pump(): void {
    while (this.running < this.concurrency && this.waiting.length > 0 && this.mayFlush()) {
      const batch = this.waiting.take(this.maxBatch);
      if (this.waiting.length === 0) this.released = false;
      this.running += 1;
      const started = Date.now();
      void this.run(batch).finally(() => {
        this.lastFlushMs = Date.now() - started;
        this.running -= 1;
        this.pump();
        if (this.pending === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      });
    }
  }

  private async run(batch: Waiting<I, O>[]): Promise<void> {
    let outcomes: ItemOutcome<O>[];
    try {
      // A flush runs in the context of its first item's submitter: its log lines carry that
      // request's or job's id, and the jobs it commits continue that trace (docs/decisions/0043).
      const items = batch.map((entry) => entry.item);
      const first = batch[0].context;
      outcomes = await (first ? first(() => this.flush(items)) : this.flush(items));
      if (outcomes.length !== batch.length) {
        throw new Error(`a flush of ${batch.length} items answered ${outcomes.length} outcomes`);
      }
    } catch (error) {
      if (batch.length > 1 && this.isolateFailures) {
        for (const entry of batch) await this.run([entry]);
        return;
      }
      for (const entry of batch) entry.reject(error);
      return;
    }
    outcomes.forEach((outcome, i) => (outcome.ok ? batch[i].resolve(outcome.value) : batch[i].reject(outcome.error)));
  }
}

/** The outcomes of a flush whose items all succeed with nothing to answer. */
export function allDone(items: readonly unknown[]): ItemOutcome<void>[] {
  return items.map(() => ({ ok: true, value: undefined }));
}
