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
  type DegradationVerdict,
} from '@mp/routing-domain';
import { RECENT_SUBMITS, RecentSubmits } from './recent-submits';
import { submitOutcomeLabel } from './submit-outcome-label';

/** Slices of this length are counted; a window is made of the last few. */
export const HEALTH_BUCKET_MS = 10_000;
/** The delivered share is judged over the last five minutes. */
export const HEALTH_WINDOW_MS = 5 * 60_000;

const UNDELIVERED = new Set(['UNDELIV', 'EXPIRED', 'REJECTD', 'DELETED', 'UNKNOWN']);

/** What this dispatcher counted of one carrier over the window, and its verdict: what it publishes. */
export interface CarrierHealthSnapshot {
  carrier: string;
  windowMs: number;
  counters: CarrierCounters;
  degraded: boolean;
  /** The reason of the last judgement (`too_few_receipts` before the first). */
  reason: DegradationVerdict['reason'];
}

/**
 * This dispatcher's view of each carrier's health: submit outcomes and final receipts counted in
 * 10 s slices, judged over five minutes (nextDegraded, with its hysteresis) at each evaluate().
 * A final receipt of a submit accepted recently (RecentSubmits) is timed from its submit_sm_resp.
 * In memory, per process: each dispatcher judges from the traffic it sees, and publishes what it
 * counted (snapshot) for the operators (docs/decisions/0060-carrier-health-in-redis.md).
 */
export class CarrierHealthTracker {
  private readonly buckets = new Map<string, CounterBucket[]>();
  private readonly degraded = new Set<string>();
  private readonly reasons = new Map<string, DegradationVerdict['reason']>();
  /** Recently accepted submits by carrier, to time their final receipts. */
  private readonly recent = new Map<string, RecentSubmits>();

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
    if (!outcome.ok) return;
    let recent = this.recent.get(carrier);
    if (!recent) this.recent.set(carrier, (recent = new RecentSubmits(RECENT_SUBMITS)));
    recent.answered(outcome.carrierMessageId, this.now());
  }

  /**
   * Counts a final receipt and answers how long after its submit's response it came (ms), when
   * that submit was accepted recently by this process; an intermediate receipt is neither counted
   * nor timed. The metrics' latency histogram takes the same figure (CarrierPool.onReceiptTimed).
   */
  receiptArrived(carrier: string, receipt: Pick<DeliveryReceipt, 'stat' | 'carrierMessageId'>): number | undefined {
    const delivered = receipt.stat === 'DELIVRD';
    if (!delivered && !UNDELIVERED.has(receipt.stat)) return undefined;
    const counters = this.current(carrier);
    if (delivered) counters.delivered += 1;
    else counters.undelivered += 1;
    const answeredAt = this.recent.get(carrier)?.take(receipt.carrierMessageId);
    if (answeredAt === undefined) return undefined;
    const latencyMs = Math.max(0, this.now() - answeredAt);
    counters.timedReceipts += 1;
    counters.receiptLatencyMsTotal += latencyMs;
    return latencyMs;
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
      this.reasons.set(carrier, verdict.reason);
      if (!verdict.changed) continue;
      if (verdict.degraded) this.degraded.add(carrier);
      else this.degraded.delete(carrier);
      changed.push({ carrier, degraded: verdict.degraded, reason: verdict.reason, health });
    }
    return changed;
  }

  /** Each carrier counted within the window: its counters, flag and the reason of its last judgement. */
  snapshot(): CarrierHealthSnapshot[] {
    const now = this.now();
    return [...this.buckets].map(([carrier, buckets]) => ({
      carrier,
      windowMs: HEALTH_WINDOW_MS,
      counters: countersInWindow(buckets, now, HEALTH_WINDOW_MS),
      degraded: this.degraded.has(carrier),
      reason: this.reasons.get(carrier) ?? 'too_few_receipts',
    }));
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

/** Carrier message ids are the carrier's own: two carriers may give the same one. */
