import { addCounters, carrierHealth, emptyCounters, type CarrierCounters, type CarrierHealth } from './carrier-health';

/** One dispatcher's view of one carrier: its raw counters over its window and its verdict. */
export interface DispatcherCarrierHealth {
  dispatcher: string;
  carrier: string;
  /** The window the counters cover, in ms (HEALTH_WINDOW_MS of the dispatcher). */
  windowMs: number;
  counters: CarrierCounters;
  degraded: boolean;
  /** Why the flag is as it is (DegradationVerdict['reason']). */
  reason: string;
}

/** A carrier's health over every dispatcher that reported it. */
export interface CarrierHealthAcross {
  carrier: string;
  /** The dispatchers that reported the carrier. */
  dispatchers: number;
  /** How many of them judge it degraded (each judges from the traffic it sees). */
  degradedBy: number;
  /** Their reasons, each once, sorted. */
  reasons: string[];
  windowMs: number;
  /** The counters summed: the dispatchers' traffic is disjoint, so rates over the sum are the carrier's. */
  counters: CarrierCounters;
  health: CarrierHealth;
}

/**
 * Sums each carrier's counters over the dispatchers that reported it and computes its rates
 * (carrierHealth) over the longest window reported; by carrier name.
 */
export function carrierHealthAcross(reports: readonly DispatcherCarrierHealth[]): Map<string, CarrierHealthAcross> {
  const byCarrier = new Map<string, DispatcherCarrierHealth[]>();
  for (const report of reports) byCarrier.set(report.carrier, [...(byCarrier.get(report.carrier) ?? []), report]);
  const result = new Map<string, CarrierHealthAcross>();
  for (const [carrier, own] of [...byCarrier].sort(([a], [b]) => a.localeCompare(b))) {
    const counters = own.reduce((sum, report) => addCounters(sum, report.counters), emptyCounters());
    const windowMs = Math.max(...own.map((report) => report.windowMs));
    result.set(carrier, {
      carrier,
      dispatchers: new Set(own.map((report) => report.dispatcher)).size,
      degradedBy: own.filter((report) => report.degraded).length,
      reasons: [...new Set(own.map((report) => report.reason))].sort(),
      windowMs,
      counters,
      health: carrierHealth(counters, windowMs),
    });
  }
  return result;
}

/** A carrier's health as `admin carrier:list` and the operators' API show it (snake_case JSON). */
export interface ShownCarrierHealth {
  /** The window the counts cover (five minutes), in seconds. */
  window_seconds: number;
  /** The dispatchers that reported the carrier. */
  dispatchers: number;
  submits: number;
  submits_per_second: number;
  /** Of submits (0..1); null with no submit. */
  throttled_rate: number | null;
  error_rate: number | null;
  /** Final receipts. */
  receipts: number;
  delivered_share: number | null;
  /** Over the receipts a dispatcher could time; null when none. */
  mean_receipt_latency_ms: number | null;
  /** At least one dispatcher judges it degraded (it gets probe traffic only from those). */
  degraded: boolean;
  degraded_by: number;
  reasons: string[];
}

const rounded = (value: number | null, decimals: number) => (value === null ? null : Number(value.toFixed(decimals)));

export function shownCarrierHealth(across: CarrierHealthAcross): ShownCarrierHealth {
  const { health } = across;
  return {
    window_seconds: across.windowMs / 1000,
    dispatchers: across.dispatchers,
    submits: across.counters.submits,
    submits_per_second: rounded(health.submitsPerSecond, 3) as number,
    throttled_rate: rounded(health.throttledRate, 4),
    error_rate: rounded(health.errorRate, 4),
    receipts: health.receipts,
    delivered_share: rounded(health.deliveredShare, 4),
    mean_receipt_latency_ms: rounded(health.meanReceiptLatencyMs, 0),
    degraded: across.degradedBy > 0,
    degraded_by: across.degradedBy,
    reasons: across.reasons,
  };
}
