import { compareCost, compareIds } from './candidates';
import type { CarrierId, RouteEntry } from './route-entry';

/** What the dispatcher knows of a carrier right now. */
export interface CarrierStatus {
  id: CarrierId;
  /** The operator's switch: a disabled carrier takes nothing. */
  enabled: boolean;
  /** At least one of its binds is bound. */
  bound: boolean;
  /** Its delivered share collapsed (nextDegraded); it gets probe traffic only. */
  degraded: boolean;
}

/** healthy: enabled, bound, not degraded; degraded: bound but degraded; unbound: enabled, no bound bind. */
export type CarrierHealthTier = 'healthy' | 'degraded' | 'unbound';

export interface PlannedCarrier {
  carrierId: CarrierId;
  entry: RouteEntry;
  tier: CarrierHealthTier;
}

/**
 * How the first carrier was chosen: the cheapest healthy one, a weighted draw among the healthy,
 * a probe of a degraded one, no healthy carrier at all (the order is failover only), or nothing.
 */
export type FirstChoice = 'least_cost' | 'weighted' | 'probe' | 'no_healthy' | 'none';

export interface RoutePlan {
  /** Submit to the first; on failover, the next ones in order. */
  carriers: PlannedCarrier[];
  firstChoice: FirstChoice;
  /** Candidates left out: switched off by the operator, or not known to the dispatcher. */
  skipped: { carrierId: CarrierId; reason: 'disabled' | 'unknown' }[];
}

export interface RoutePlanOptions {
  /** A number in [0, 1), like Math.random; tests pass a fixed sequence. */
  random: () => number;
  /** Share of parts each degraded, bound carrier gets first, to see it recover. Default 0.01. */
  probeShare?: number;
}

export const DEFAULT_PROBE_SHARE = 0.01;

/**
 * Orders a part's candidates (candidatesFor) into the carriers to try.
 *
 * Tiers: healthy, then degraded but bound, then unbound; disabled and unknown carriers are
 * skipped. Unhealthy carriers stay in the order, so failover has somewhere to go when every
 * healthy one fails; a degraded carrier can still take a submit, an unbound one cannot.
 * Within a tier: least cost (unknown cost last), then priority, then id.
 *
 * The first choice, in this order, drawing `random` only when the step applies:
 * 1. probe: with probability `probeShare` per degraded bound carrier (one draw), that carrier first;
 * 2. weighted: when some healthy carriers have a weight, one draw picks among them by weight
 *    (weights of unhealthy carriers drop out, the rest keep their proportions);
 * 3. least cost: the first healthy one.
 * The rest follow in tier order as failover.
 */
export function planRoute(candidates: readonly RouteEntry[], statuses: readonly CarrierStatus[], options: RoutePlanOptions): RoutePlan {
  const probeShare = options.probeShare ?? DEFAULT_PROBE_SHARE;
  if (!(probeShare >= 0 && probeShare <= 1)) throw new RangeError(`probeShare must be from 0 to 1, not ${probeShare}`);
  const statusById = new Map(statuses.map((status) => [status.id, status]));
  const tiers: Record<CarrierHealthTier, PlannedCarrier[]> = { healthy: [], degraded: [], unbound: [] };
  const skipped: RoutePlan['skipped'] = [];
  for (const entry of candidates) {
    const status = statusById.get(entry.carrierId);
    if (!status) skipped.push({ carrierId: entry.carrierId, reason: 'unknown' });
    else if (!status.enabled) skipped.push({ carrierId: entry.carrierId, reason: 'disabled' });
    else tiers[tierOf(status)].push({ carrierId: entry.carrierId, entry, tier: tierOf(status) });
  }
  for (const tier of Object.values(tiers)) tier.sort(leastCostFirst);
  const carriers = [...tiers.healthy, ...tiers.degraded, ...tiers.unbound];
  if (carriers.length === 0) return { carriers, firstChoice: 'none', skipped };
  if (tiers.healthy.length === 0) return { carriers, firstChoice: 'no_healthy', skipped };

  const probed = drawProbe(tiers.degraded, probeShare, options.random);
  if (probed) return { carriers: moveToFront(carriers, probed), firstChoice: 'probe', skipped };
  const weighted = drawByWeight(tiers.healthy, options.random);
  if (weighted) return { carriers: moveToFront(carriers, weighted), firstChoice: 'weighted', skipped };
  return { carriers, firstChoice: 'least_cost', skipped };
}

function tierOf(status: CarrierStatus): CarrierHealthTier {
  if (!status.bound) return 'unbound';
  return status.degraded ? 'degraded' : 'healthy';
}

function leastCostFirst(a: PlannedCarrier, b: PlannedCarrier): number {
  return compareCost(a.entry, b.entry) || a.entry.priority - b.entry.priority || compareIds(a.carrierId, b.carrierId);
}

/** One draw: [0, share) probes the first degraded carrier, [share, 2·share) the second, and so on. */
function drawProbe(degraded: readonly PlannedCarrier[], share: number, random: () => number): PlannedCarrier | undefined {
  if (degraded.length === 0 || share === 0) return undefined;
  const slot = Math.floor(random() / share);
  return degraded[slot];
}

function drawByWeight(healthy: readonly PlannedCarrier[], random: () => number): PlannedCarrier | undefined {
  const weighted = healthy.filter((carrier) => (carrier.entry.weight ?? 0) > 0);
  const total = weighted.reduce((sum, carrier) => sum + (carrier.entry.weight ?? 0), 0);
  if (total === 0) return undefined;
  let point = random() * total;
  for (const carrier of weighted) {
    point -= carrier.entry.weight ?? 0;
    if (point < 0) return carrier;
  }
  return weighted[weighted.length - 1];
}

function moveToFront(carriers: readonly PlannedCarrier[], first: PlannedCarrier): PlannedCarrier[] {
  return [first, ...carriers.filter((carrier) => carrier !== first)];
}
