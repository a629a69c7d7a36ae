import { parseMoney, type Money } from '@mp/billing-domain';

/** A carrier's id as the carriers table names it; opaque here. */
export type CarrierId = string;

/**
 * The route classes of the API (`route` of a send). A route entry of class `auto` serves any
 * message class that has no entry of its own for the number (see candidatesFor).
 */
export const ROUTE_CLASSES = ['auto', 'standard', 'premium'] as const;
export type RouteClass = (typeof ROUTE_CLASSES)[number];

/** One line of the routing table: for numbers under `prefix`, on `routeClass`, `carrierId` may take the part. */
export interface RouteEntry {
  /** "+" followed by up to 15 digits; "+" alone matches every number. */
  prefix: string;
  routeClass: RouteClass;
  carrierId: CarrierId;
  /** Lower first: breaks ties of cost and orders failover. */
  priority: number;
  /** What the carrier charges us per part; unknown sorts after every known cost. */
  cost?: Money;
  /** Share of first choices, in percent, among the healthy carriers that have one. */
  weight?: number;
}

export class RouteEntryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RouteEntryError';
  }
}

const PREFIX = /^\+\d{0,15}$/;
const MAX_PRIORITY = 1_000_000;

export function isRouteClass(value: string): value is RouteClass {
  return (ROUTE_CLASSES as readonly string[]).includes(value);
}

/** An operator's route as text (an admin command's options); each error names the part that is wrong. */
export interface RouteEntryInput {
  prefix: string;
  routeClass?: string;
  carrierId: string;
  priority?: string | number;
  cost?: string;
  weight?: string | number;
}

/** Checks an operator's route entry: `auto` and priority 1 unless given; cost exact, weight a whole percentage. */
export function parseRouteEntry(input: RouteEntryInput): RouteEntry {
  if (!PREFIX.test(input.prefix)) throw new RouteEntryError('prefix must be "+" followed by up to 15 digits, e.g. +44');
  const routeClass = input.routeClass ?? 'auto';
  if (!isRouteClass(routeClass)) throw new RouteEntryError(`route must be one of ${ROUTE_CLASSES.join(', ')}`);
  const carrierId = input.carrierId.trim();
  if (carrierId === '') throw new RouteEntryError('carrier must be given');
  const priority = wholeNumber(input.priority ?? 1, 'priority', 0, MAX_PRIORITY);
  const entry: RouteEntry = { prefix: input.prefix, routeClass, carrierId, priority };
  if (input.cost !== undefined) entry.cost = parseCost(input.cost);
  if (input.weight !== undefined) entry.weight = wholeNumber(input.weight, 'weight', 0, 100);
  return entry;
}

function parseCost(text: string): Money {
  let cost: Money;
  try {
    cost = parseMoney(text);
  } catch {
    throw new RouteEntryError('cost must be a decimal with at most 4 decimals, e.g. 0.004');
  }
  if (cost < 0n) throw new RouteEntryError('cost must not be negative');
  return cost;
}

function wholeNumber(value: string | number, field: string, min: number, max: number): number {
  const number = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isInteger(number) || number < min || number > max) throw new RouteEntryError(`${field} must be a whole number from ${min} to ${max}`);
  return number;
}
