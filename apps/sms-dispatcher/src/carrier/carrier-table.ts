import type { CarrierBindSpec, SmppTransport } from '@mp/carrier';
import { parseMoney } from '@mp/billing-domain';
import { carriersFromEnv, type SmscEnv } from '@mp/routing';
import { candidateIndex, isRouteClass, type RouteClass, type RouteEntry } from '@mp/routing-domain';

/** A carrier as the dispatcher needs it (a RoutingSnapshot's carrier, or one of the SMSC_* variables). */
export interface CarrierRecord {
  name: string;
  host: string;
  port: number;
  systemId: string;
  password: string;
  binds: number;
  window: number;
  maxPerSecond: number;
  tls: boolean;
  /** The carrier's own CA (PEM) and certificate name; null or absent: SMSC_TLS_CA's and SMSC_TLS_SERVERNAME's. */
  tlsCa?: string | null;
  tlsServerName?: string | null;
  enabled: boolean;
}

/** A route as the dispatcher needs it; cost as stored (numeric text), null when unknown. */
export interface RouteRecord {
  prefix: string;
  route: string;
  carrier: string;
  priority: number;
  cost: string | null;
  weight: number | null;
}

/** The carriers to bind and the routes to their candidates, as of one routing version. */
export interface CarrierTable {
  /** The enabled carriers' binds. */
  binds: CarrierBindSpec[];
  /** Every carrier by name, with whether the operator enabled it. */
  enabled: ReadonlyMap<string, boolean>;
  candidates: (destination: string, routeClass: RouteClass) => RouteEntry[];
}

/**
 * How a TLS carrier's binds connect: `shared` (from SMSC_TLS_*), with the carrier's own CA and
 * server name in place of its CA and server name where the carrier has them. A carrier's own CA is
 * always verified, whatever SMSC_TLS_REJECT_UNAUTHORIZED says: it was given to be trusted. The
 * CA is part of the bind's target, so a changed one reopens the carrier's binds (CarrierBindSet).
 */
export function carrierTransport(carrier: CarrierRecord, shared: SmppTransport): SmppTransport | undefined {
  if (!carrier.tls) return undefined;
  if (!carrier.tlsCa && !carrier.tlsServerName) return shared;
  const ca = carrier.tlsCa ?? shared.ca;
  const servername = carrier.tlsServerName ?? shared.servername;
  return {
    tls: true,
    rejectUnauthorized: carrier.tlsCa ? true : shared.rejectUnauthorized,
    ...(ca === undefined ? {} : { ca }),
    ...(servername === undefined ? {} : { servername }),
  };
}

/**
 * Builds the table: route entries name their carrier by name (the id planRoute sees, and the
 * `smsc` label of metrics). A TLS carrier is reached with carrierTransport.
 */
export function carrierTable(carriers: readonly CarrierRecord[], routes: readonly RouteRecord[], tls: SmppTransport): CarrierTable {
  const binds = carriers
    .filter((carrier) => carrier.enabled)
    .map((carrier) => {
      const transport = carrierTransport(carrier, tls);
      return {
        name: carrier.name,
        target: { host: carrier.host, port: carrier.port, systemId: carrier.systemId, password: carrier.password, ...(transport ? { transport } : {}) },
        binds: carrier.binds,
        windowSize: carrier.window,
        maxPerSecond: carrier.maxPerSecond,
      };
    });
  const entries: RouteEntry[] = [];
  for (const route of routes) {
    if (!isRouteClass(route.route)) continue;
    const entry: RouteEntry = { prefix: route.prefix, routeClass: route.route, carrierId: route.carrier, priority: route.priority };
    if (route.cost !== null) entry.cost = parseMoney(route.cost);
    if (route.weight !== null) entry.weight = route.weight;
    entries.push(entry);
  }
  return { binds, enabled: new Map(carriers.map((carrier) => [carrier.name, carrier.enabled])), candidates: candidateIndex(entries) };
}

/** The SMSC_* carriers with their catch-all routes, for CARRIERS_FROM=environment. */
export function environmentCarriers(env: SmscEnv): { carriers: CarrierRecord[]; routes: RouteRecord[] } {
  const fromEnv = carriersFromEnv(env);
  const carriers = fromEnv.map(({ settings }) => ({
    name: settings.name,
    host: settings.host,
    port: settings.port,
    systemId: settings.systemId,
    password: settings.password,
    binds: settings.binds,
    window: settings.window,
    maxPerSecond: settings.maxPerSecond,
    tls: settings.tls,
    enabled: true,
  }));
  const routes = fromEnv.flatMap(({ settings, routes: names }) =>
    names.map((route) => ({ prefix: '+', route, carrier: settings.name, priority: 1, cost: null, weight: null })),
  );
  return { carriers, routes };
}
