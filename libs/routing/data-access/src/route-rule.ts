import { RoutingInputError } from './routing-errors';

/** The SMS routes of the API a carrier route can be set for. */
export const CARRIER_ROUTE_NAMES = ['auto', 'standard', 'premium'] as const;
export type CarrierRouteName = (typeof CARRIER_ROUTE_NAMES)[number];

/** For a destination prefix and a route: one carrier that may take its parts. */
export interface RouteRule {
  /** `+` and up to 15 digits; `+` alone matches every number. */
  prefix: string;
  route: CarrierRouteName;
  /** The carrier's name. */
  carrier: string;
  /** Lower first: breaks cost ties and orders failover. */
  priority: number;
  /** What the carrier charges per part, a decimal of up to 4 places as prices are (exact, as text); null: not known. */
  cost: string | null;
  /** Percentage of a split between the prefix's carriers, 1 to 100; null: not split. */
  weight: number | null;
}

const PREFIX = /^\+\d{0,15}$/;
const COST = /^(\d{1,8})(?:\.(\d{1,4}))?$/;
export const PRIORITY_RANGE = [0, 1_000_000] as const;
export const WEIGHT_RANGE = [1, 100] as const;

export function checkPrefix(prefix: string): string {
  if (!PREFIX.test(prefix))
    throw new RoutingInputError(`--prefix must be "+" followed by up to 15 digits, e.g. +44 ("+" alone: every number) (got "${prefix}")`);
  return prefix;
}

export function checkRouteName(route: string): CarrierRouteName {
  if (!(CARRIER_ROUTE_NAMES as readonly string[]).includes(route))
    throw new RoutingInputError(`--route must be one of ${CARRIER_ROUTE_NAMES.join(', ')} (got "${route}")`);
  return route as CarrierRouteName;
}

/** A cost as the operator writes it (`0.004`), in its shortest exact form; never a float. */
export function parseCost(text: string): string {
  const match = COST.exec(text.trim());
  if (!match) {
    const negative = /^-\s*\d/.test(text.trim());
    throw new RoutingInputError(
      negative ? `--cost must not be negative (got "${text}")` : `--cost must be a decimal with at most 4 decimals, e.g. 0.004 (got "${text}")`,
    );
  }
  return normalCost(text.trim());
}

/** `0.0040` (as PostgreSQL gives numeric(12,4)) as `0.004`, `1.0000` as `1`. */
export function normalCost(text: string): string {
  const [units, decimals = ''] = text.split('.');
  const kept = decimals.replace(/0+$/, '');
  return `${BigInt(units).toString()}${kept ? `.${kept}` : ''}`;
}

export function checkRouteRule(rule: RouteRule): RouteRule {
  checkPrefix(rule.prefix);
  checkRouteName(rule.route);
  const [minPriority, maxPriority] = PRIORITY_RANGE;
  if (!Number.isInteger(rule.priority) || rule.priority < minPriority || rule.priority > maxPriority) {
    throw new RoutingInputError(`--priority must be an integer from ${minPriority} to ${maxPriority} (got ${rule.priority})`);
  }
  if (rule.cost !== null) parseCost(rule.cost);
  const [minWeight, maxWeight] = WEIGHT_RANGE;
  if (rule.weight !== null && (!Number.isInteger(rule.weight) || rule.weight < minWeight || rule.weight > maxWeight)) {
    throw new RoutingInputError(`--weight must be a percentage from ${minWeight} to ${maxWeight} (got ${rule.weight})`);
  }
  return rule;
}
