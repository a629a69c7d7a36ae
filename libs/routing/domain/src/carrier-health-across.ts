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
