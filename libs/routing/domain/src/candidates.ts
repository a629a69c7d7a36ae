import type { RouteClass, RouteEntry } from './route-entry';

/**
 * The entry classes that may carry a message's class, nearest first. A message's own class is
 * its product (priced on its own in the price table); `auto` entries are the table every class
 * falls back to. An `auto` message (priced like `standard`) may also take `standard` routes, but
 * never `premium` ones, whose capacity and cost are sold at the premium price.
 */
export const ROUTE_CLASS_FALLBACK: Readonly<Record<RouteClass, readonly RouteClass[]>> = Object.freeze({
  standard: ['standard', 'auto'],
  premium: ['premium', 'auto'],
  auto: ['auto', 'standard'],
});

/**
 * The route entries that may take a part to `destination` (E.164 with '+') on `routeClass`.
 *
 * The class decides first, the prefix second: the nearest class (ROUTE_CLASS_FALLBACK) that has
 * any entry matching the number is used, and within it every entry of the longest matching
 * prefix. So "+44 premium → C" keeps UK premium traffic on C even when a cheaper "+4474 auto"
 * exists. A carrier listed twice at that prefix keeps its lowest priority (cheapest cost on a tie).
 * The entries come back by priority; planRoute orders them by health and cost.
 */
export function candidatesFor(routes: readonly RouteEntry[], destination: string, routeClass: RouteClass): RouteEntry[] {
  for (const entryClass of ROUTE_CLASS_FALLBACK[routeClass]) {
    const matching = routes.filter((entry) => entry.routeClass === entryClass && destination.startsWith(entry.prefix));
    if (matching.length === 0) continue;
    const longest = Math.max(...matching.map((entry) => entry.prefix.length));
    return onePerCarrier(matching.filter((entry) => entry.prefix.length === longest));
  }
  return [];
}

/**
 * candidatesFor for many parts: the table grouped by class and prefix once, then per number at
 * most 16 map lookups per class instead of a scan of every entry.
 */
export function candidateIndex(routes: readonly RouteEntry[]): (destination: string, routeClass: RouteClass) => RouteEntry[] {
  const byClassAndPrefix = new Map<string, RouteEntry[]>();
  for (const entry of routes) {
    const key = `${entry.routeClass} ${entry.prefix}`;
    byClassAndPrefix.set(key, [...(byClassAndPrefix.get(key) ?? []), entry]);
  }
  const chosen = new Map<string, RouteEntry[]>();
  for (const [key, entries] of byClassAndPrefix) chosen.set(key, onePerCarrier(entries));
  return (destination, routeClass) => {
    for (const entryClass of ROUTE_CLASS_FALLBACK[routeClass]) {
      for (let length = destination.length; length >= 1; length--) {
        const entries = chosen.get(`${entryClass} ${destination.slice(0, length)}`);
        if (entries) return [...entries];
      }
    }
    return [];
  };
}

function onePerCarrier(entries: readonly RouteEntry[]): RouteEntry[] {
  const byCarrier = new Map<string, RouteEntry>();
  for (const entry of entries) {
    const kept = byCarrier.get(entry.carrierId);
    if (!kept || comparePriority(entry, kept) < 0) byCarrier.set(entry.carrierId, entry);
  }
  return [...byCarrier.values()].sort(comparePriority);
}

function comparePriority(a: RouteEntry, b: RouteEntry): number {
  if (a.priority !== b.priority) return a.priority - b.priority;
  return compareCost(a, b) || compareIds(a.carrierId, b.carrierId);
}

/** Known costs ascending, an unknown cost after every known one. */
export function compareCost(a: RouteEntry, b: RouteEntry): number {
  if (a.cost === undefined || b.cost === undefined) return (a.cost === undefined ? 1 : 0) - (b.cost === undefined ? 1 : 0);
  return a.cost < b.cost ? -1 : a.cost > b.cost ? 1 : 0;
}

/** Carrier ids in code-unit order, the same on every machine (localeCompare is not). */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
