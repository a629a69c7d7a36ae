import type { DataSource, EntityManager } from 'typeorm';
import { CARRIER_VIEW_COLUMNS, carrierView, type CarrierRow, type CarrierView } from './carrier-store';
import { ROUTE_ORDER, ROUTE_VIEW_SQL, routeView, type RouteView } from './route-store';

/** Goes up with every statement that writes carriers or carrier_routes (a trigger keeps it). */
export interface RoutingVersion {
  version: bigint;
  changedAt: Date;
}

/** A carrier with what a dispatcher needs to bind: its password too. Never print one. */
export interface CarrierConnection extends CarrierView {
  password: string;
}

/** Every carrier and route as of one version. */
export interface RoutingSnapshot extends RoutingVersion {
  carriers: CarrierConnection[];
  routes: RouteView[];
}

/**
 * What the dispatchers read: `version()` is one row by key, cheap to poll every second or so;
 * when it moved, `snapshot()` reads everything again, consistently with the version it tells.
 */
export class RoutingReader {
  constructor(private readonly db: DataSource) {}

  async version(manager: DataSource | EntityManager = this.db): Promise<RoutingVersion> {
    const [row]: { version: string; changed_at: Date }[] = await manager.query(`SELECT version, changed_at FROM routing_version`);
    return { version: BigInt(row.version), changedAt: row.changed_at };
  }

  /** Carriers (enabled or not) by name and routes in prefix, route and priority order, in one read-only snapshot. */
  async snapshot(): Promise<RoutingSnapshot> {
    return this.db.transaction('REPEATABLE READ', async (manager) => {
      await manager.query('SET TRANSACTION READ ONLY');
      const version = await this.version(manager);
      const carriers: (CarrierRow & { password: string })[] = await manager.query(
        `SELECT ${CARRIER_VIEW_COLUMNS}, c.password FROM carriers c ORDER BY lower(c.name)`,
      );
      const routes = await manager.query(`${ROUTE_VIEW_SQL} ${ROUTE_ORDER}`);
      return {
        ...version,
        carriers: carriers.map((row) => ({ ...carrierView(row), password: row.password })),
        routes: routes.map(routeView),
      };
    });
  }
}
