import type { DeliveryReceipt, SubmitOutcome } from '@mp/carrier';
import {
  carrierHealth,
  countersInWindow,
  DEFAULT_DEGRADATION_THRESHOLDS,
  emptyCounters,
  nextDegraded,
  type CarrierCounters,
  type CarrierHealth,
  type CounterBucket,
  type DegradationThresholds,
} from '@mp/routing-domain';
import { submitOutcomeLabel } from './submit-outcome-label';

/** Slices of this length are counted; a window is made of the last few. */
export const HEALTH_BUCKET_MS = 10_000;
/** The delivered share is judged over the last five minutes. */
export const HEALTH_WINDOW_MS = 5 * 60_000;

const UNDELIVERED = new Set(['UNDELIV', 'EXPIRED', 'REJECTD', 'DELETED', 'UNKNOWN']);

/**
 * This dispatcher's view of each carrier's health: submit outcomes and final receipts counted in
 * 10 s slices, judged over five minutes (nextDegraded, with its hysteresis) at each evaluate().
 * In memory, per process: each dispatcher judges from the traffic it sees.
 */
export class CarrierHealthTracker {
  private readonly buckets = new Map<string, CounterBucket[]>();
  private readonly degraded = new Set<string>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly thresholds: DegradationThresholds = DEFAULT_DEGRADATION_THRESHOLDS,
  ) {}

  submitAnswered(carrier: string, outcome: SubmitOutcome): void {
    const counters = this.current(carrier);
    counters.submits += 1;
    const label = submitOutcomeLabel(outcome);
    if (label === 'throttled') counters.throttled += 1;
    else if (label !== 'accepted') counters.errors += 1;
  }

  receiptArrived(carrier: string, receipt: Pick<DeliveryReceipt, 'stat'>): void {
    if (receipt.stat === 'DELIVRD') this.current(carrier).delivered += 1;
    else if (UNDELIVERED.has(receipt.stat)) this.current(carrier).undelivered += 1;
  }

  isDegraded(carrier: string): boolean {
    return this.degraded.has(carrier);
  }

  /** Judges every carrier over the window; answers those whose flag changed, with why. */
  evaluate(): { carrier: string; degraded: boolean; reason: string; health: CarrierHealth }[] {
    const changed = [];
    const now = this.now();
    for (const [carrier, buckets] of this.buckets) {
      const kept = buckets.filter((bucket) => bucket.startMs > now - HEALTH_WINDOW_MS);
      this.buckets.set(carrier, kept);
      const health = carrierHealth(countersInWindow(kept, now, HEALTH_WINDOW_MS), HEALTH_WINDOW_MS);
      const verdict = nextDegraded(this.degraded.has(carrier), health, this.thresholds);
      if (!verdict.changed) continue;
      if (verdict.degraded) this.degraded.add(carrier);
      else this.degraded.delete(carrier);
      changed.push({ carrier, degraded: verdict.degraded, reason: verdict.reason, health });
    }
    return changed;
  }

  private current(carrier: string): CarrierCounters {
    const startMs = Math.floor(this.now() / HEALTH_BUCKET_MS) * HEALTH_BUCKET_MS;
    let buckets = this.buckets.get(carrier);
    if (!buckets) this.buckets.set(carrier, (buckets = []));
    let last = buckets.at(-1);
    if (last?.startMs !== startMs) buckets.push((last = { startMs, counters: emptyCounters() }));
    return last.counters;
  }
}
