/**
 * What one carrier did in a slice of time. The dispatcher counts; these functions only read.
 * `errors` are submits answered with an error or not answered (timeouts); receipts are final ones.
 */
export interface CarrierCounters {
  submits: number;
  throttled: number;
  errors: number;
  delivered: number;
  undelivered: number;
  /** Final receipts whose submit_sm_resp this dispatcher saw recently enough to time them. */
  timedReceipts: number;
  /** Sum over the timed receipts of the time from submit_sm_resp to the receipt. */
  receiptLatencyMsTotal: number;
}

/** Counters of the slice starting at `startMs` (epoch ms); slices are of one length, e.g. 10 s. */
export interface CounterBucket {
  startMs: number;
  counters: CarrierCounters;
}

export function emptyCounters(): CarrierCounters {
  return { submits: 0, throttled: 0, errors: 0, delivered: 0, undelivered: 0, timedReceipts: 0, receiptLatencyMsTotal: 0 };
}

export function addCounters(a: CarrierCounters, b: CarrierCounters): CarrierCounters {
  return {
    submits: a.submits + b.submits,
    throttled: a.throttled + b.throttled,
    errors: a.errors + b.errors,
    delivered: a.delivered + b.delivered,
    undelivered: a.undelivered + b.undelivered,
    timedReceipts: a.timedReceipts + b.timedReceipts,
    receiptLatencyMsTotal: a.receiptLatencyMsTotal + b.receiptLatencyMsTotal,
  };
}

/** The sum of the buckets that started within the last `windowMs` before `nowMs` (now included). */
export function countersInWindow(buckets: readonly CounterBucket[], nowMs: number, windowMs: number): CarrierCounters {
  return buckets
    .filter((bucket) => bucket.startMs > nowMs - windowMs && bucket.startMs <= nowMs)
    .reduce((sum, bucket) => addCounters(sum, bucket.counters), emptyCounters());
}

/** Rates over a window; null where nothing was counted to divide by. */
export interface CarrierHealth {
  submitsPerSecond: number;
  /** Of submits. */
  throttledRate: number | null;
  /** Of submits. */
  errorRate: number | null;
  /** Final receipts in the window. */
  receipts: number;
  /** delivered / (delivered + undelivered). */
  deliveredShare: number | null;
  /** Over the timed receipts only. */
  meanReceiptLatencyMs: number | null;
}

export function carrierHealth(counters: CarrierCounters, windowMs: number): CarrierHealth {
  if (!(windowMs > 0)) throw new RangeError(`windowMs must be more than 0, not ${windowMs}`);
  const receipts = counters.delivered + counters.undelivered;
  return {
    submitsPerSecond: counters.submits / (windowMs / 1000),
    throttledRate: ratio(counters.throttled, counters.submits),
    errorRate: ratio(counters.errors, counters.submits),
    receipts,
    deliveredShare: ratio(counters.delivered, receipts),
    meanReceiptLatencyMs: ratio(counters.receiptLatencyMsTotal, counters.timedReceipts),
  };
}

function ratio(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

/**
 * When the delivered share marks a carrier degraded, and when it clears it. The gap between the
 * two thresholds is the hysteresis: a carrier near one threshold does not flap in and out.
 * A degraded carrier gets probe traffic only, so it needs a smaller sample to show it recovered.
 */
export interface DegradationThresholds {
  /** Degraded when the delivered share falls below this (0..1)… */
  degradeBelow: number;
  /** …with at least this many receipts in the window. */
  minReceipts: number;
  /** Healthy again at or above this share (more than degradeBelow)… */
  recoverAtOrAbove: number;
  /** …with at least this many receipts in the window. */
  minReceiptsToRecover: number;
}

export const DEFAULT_DEGRADATION_THRESHOLDS: Readonly<DegradationThresholds> = Object.freeze({
  degradeBelow: 0.5,
  minReceipts: 50,
  recoverAtOrAbove: 0.8,
  minReceiptsToRecover: 20,
});

export interface DegradationVerdict {
  degraded: boolean;
  /** It differs from the state before. */
  changed: boolean;
  /** Why it is as it is, for the operator's carrier list and the log. */
  reason: 'delivered_share_collapsed' | 'delivered_share_recovered' | 'too_few_receipts' | 'not_recovered' | 'delivering';
}

/**
 * The carrier's degraded flag after a window: degraded when the delivered share falls below
 * `degradeBelow` over at least `minReceipts` receipts, healthy again once it is at least
 * `recoverAtOrAbove` over at least `minReceiptsToRecover`. Too few receipts, or a share between
 * the thresholds, keeps the flag as it was.
 */
export function nextDegraded(
  wasDegraded: boolean,
  health: CarrierHealth,
  thresholds: DegradationThresholds = DEFAULT_DEGRADATION_THRESHOLDS,
): DegradationVerdict {
  checkThresholds(thresholds);
  const share = health.deliveredShare;
  const keep = (reason: DegradationVerdict['reason']): DegradationVerdict => ({ degraded: wasDegraded, changed: false, reason });
  if (wasDegraded) {
    if (share === null || health.receipts < thresholds.minReceiptsToRecover) return keep('too_few_receipts');
    return share >= thresholds.recoverAtOrAbove ? { degraded: false, changed: true, reason: 'delivered_share_recovered' } : keep('not_recovered');
  }
  if (share === null || health.receipts < thresholds.minReceipts) return keep('too_few_receipts');
  if (share < thresholds.degradeBelow) return { degraded: true, changed: true, reason: 'delivered_share_collapsed' };
  return keep('delivering');
}

function checkThresholds(t: DegradationThresholds): void {
  if (!(t.degradeBelow >= 0 && t.degradeBelow < t.recoverAtOrAbove && t.recoverAtOrAbove <= 1)) {
    throw new RangeError(`thresholds need 0 <= degradeBelow < recoverAtOrAbove <= 1, not ${t.degradeBelow} and ${t.recoverAtOrAbove}`);
  }
  if (!(Number.isInteger(t.minReceipts) && t.minReceipts > 0 && Number.isInteger(t.minReceiptsToRecover) && t.minReceiptsToRecover > 0)) {
    throw new RangeError('minReceipts and minReceiptsToRecover must be whole numbers above 0');
  }
}
