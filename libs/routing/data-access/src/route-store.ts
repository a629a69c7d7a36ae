import type { DataSource, EntityManager } from 'typeorm';
import { CarrierNotFoundError, RoutingInputError } from './routing-errors';
import { checkPrefix, checkRouteName, checkRouteRule, normalCost, type CarrierRouteName, type RouteRule } from './route-rule';
import { lockRouting } from './routing-lock';

/** A route as stored, with its carrier's name and whether that carrier is enabled. */
export interface RouteView extends RouteRule {
  carrierId: number;
  carrierEnabled: boolean;
  updatedAt: Date;
}

interface RouteRow {
  prefix: string;
  route: CarrierRouteName;
  carrier: string;
  carrier_id: number;
  carrier_enabled: boolean;
  priority: number;
  cost: string | null;
  weight: number | null;
  updated_at: Date;
}

export const ROUTE_VIEW_SQL = `SELECT r.prefix, r.route, c.name AS carrier, r.carrier_id, c.enabled AS carrier_enabled, r.priority, r.cost::text AS cost, r.weight, r.updated_at
  FROM carrier_routes r JOIN carriers c ON c.id = r.carrier_id`;
export const ROUTE_ORDER = `ORDER BY r.prefix, r.route, r.priority, lower(c.name)`;

export function routeView(row: RouteRow): RouteView {
  return {
    prefix: row.prefix,
    route: row.route,
    carrier: row.carrier,
    carrierId: row.carrier_id,
    carrierEnabled: row.carrier_enabled,
    priority: row.priority,
    cost: row.cost === null ? null : normalCost(row.cost),
    weight: row.weight,
    updatedAt: row.updated_at,
  };
}

export interface RouteKey {
  prefix: string;
  route: CarrierRouteName;
  carrier: string;
}

/**
 * The carriers each prefix and route may use (`carrier_routes`). Writes take the routing_version
 * row's lock first, so two operators splitting one prefix cannot together exceed 100 %.
 */
export class RouteStore {
  constructor(private readonly db: DataSource) {}

  /** Adds the carrier to the prefix's route, or changes its priority, cost and weight there. */
  async set(rule: RouteRule): Promise<RouteView> {
    const r = checkRouteRule(rule);
    return this.db.transaction(async (manager) => {
      await lockRouting(manager);
      const carrierId = await carrierIdOf(manager, r.carrier);
      if (r.weight !== null) await checkWeights(manager, r, carrierId);
      await manager.query(
        `INSERT INTO carrier_routes (prefix, route, carrier_id, priority, cost, weight) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (prefix, route, carrier_id) DO UPDATE SET priority = excluded.priority, cost = excluded.cost, weight = excluded.weight, updated_at = now()`,
        [r.prefix, r.route, carrierId, r.priority, r.cost, r.weight],
      );
      const rows: RouteRow[] = await manager.query(`${ROUTE_VIEW_SQL} WHERE r.prefix = $1 AND r.route = $2 AND r.carrier_id = $3`, [
        r.prefix,
        r.route,
        carrierId,
      ]);
      return routeView(rows[0]);
    });
  }

  /** Takes the carrier off the prefix's route; false if it was not on it. */
  async remove(key: RouteKey): Promise<boolean> {
    checkPrefix(key.prefix);
    checkRouteName(key.route);
    return this.db.transaction(async (manager) => {
      await lockRouting(manager);
      const carrierId = await carrierIdOf(manager, key.carrier);
      const [, removed]: [unknown, number] = await manager.query(`DELETE FROM carrier_routes WHERE prefix = $1 AND route = $2 AND carrier_id = $3`, [
        key.prefix,
        key.route,
        carrierId,
      ]);
      return removed > 0;
    });
  }

  /** Every route, or those of one prefix (exactly) and/or one route, in prefix, route and priority order. */
  async list(filter: { prefix?: string; route?: CarrierRouteName } = {}): Promise<RouteView[]> {
    if (filter.prefix !== undefined) checkPrefix(filter.prefix);
    if (filter.route !== undefined) checkRouteName(filter.route);
    const rows: RouteRow[] = await this.db.query(
      `${ROUTE_VIEW_SQL} WHERE ($1::text IS NULL OR r.prefix = $1) AND ($2::text IS NULL OR r.route = $2) ${ROUTE_ORDER}`,
      [filter.prefix ?? null, filter.route ?? null],
    );
    return rows.map(routeView);
  }
}

async function carrierIdOf(manager: EntityManager, name: string): Promise<number> {
  const rows: { id: number }[] = await manager.query(`SELECT id FROM carriers WHERE lower(name) = lower($1)`, [name]);
  if (rows.length === 0) throw new CarrierNotFoundError(name);
  return rows[0].id;
}

/** The weights of one prefix and route's carriers, this one's new weight included, add up to 100 at most. */
async function checkWeights(manager: EntityManager, rule: RouteRule, carrierId: number): Promise<void> {
  const [{ others }]: { others: number }[] = await manager.query(
    `SELECT coalesce(sum(weight), 0)::int AS others FROM carrier_routes WHERE prefix = $1 AND route = $2 AND carrier_id <> $3`,
    [rule.prefix, rule.route, carrierId],
  );
  if (others + (rule.weight ?? 0) > 100) {
    throw new RoutingInputError(
      `--weight ${rule.weight} would split ${rule.prefix} (${rule.route}) over ${others + (rule.weight ?? 0)} %: the other carriers there have ${others} %, at most 100 in all`,
    );
  }
}
