import type { DataSource, EntityManager } from 'typeorm';
import { CARRIER_DEFAULTS, checkCarrierSettings, type CarrierSettings } from './carrier-settings';
import type { CarrierRouteName } from './route-rule';
import { lockRouting } from './routing-lock';

/** The dispatcher's SMSC_* variables (SmsDispatcherEnv), as they configured the one SMSC before carriers were data. */
export interface SmscEnv {
  SMSC_HOST: string;
  SMSC_PORT: number;
  SMSC_SYSTEM_ID: string;
  SMSC_PASSWORD: string;
  SMSC_TLS?: boolean;
  SMPP_BINDS?: number;
  SMPP_WINDOW?: number;
  SMPP_MAX_PER_SECOND?: number;
  SMSC_STANDARD_HOST?: string;
  SMSC_STANDARD_PORT?: number;
  SMSC_STANDARD_SYSTEM_ID?: string;
  SMSC_STANDARD_PASSWORD?: string;
  SMSC_PREMIUM_HOST?: string;
  SMSC_PREMIUM_PORT?: number;
  SMSC_PREMIUM_SYSTEM_ID?: string;
  SMSC_PREMIUM_PASSWORD?: string;
}

export const DEFAULT_CARRIER = 'default';

/**
 * The carriers the variables describe: `default` (SMSC_*), and `standard` / `premium` where
 * SMSC_STANDARD_HOST / SMSC_PREMIUM_HOST give a route an SMSC of its own (port, system id and
 * password default to the default SMSC's, as they did). Each with the route `+` (every number)
 * of the SMS routes it served: `auto` always the default's.
 */
export function carriersFromEnv(env: SmscEnv): { settings: CarrierSettings; routes: CarrierRouteName[] }[] {
  const shared = {
    systemType: CARRIER_DEFAULTS.systemType,
    binds: env.SMPP_BINDS ?? CARRIER_DEFAULTS.binds,
    window: env.SMPP_WINDOW ?? CARRIER_DEFAULTS.window,
    maxPerSecond: env.SMPP_MAX_PER_SECOND ?? CARRIER_DEFAULTS.maxPerSecond,
    tls: env.SMSC_TLS ?? CARRIER_DEFAULTS.tls,
  };
  const base = { host: env.SMSC_HOST, port: env.SMSC_PORT, systemId: env.SMSC_SYSTEM_ID, password: env.SMSC_PASSWORD };
  const own = (name: 'standard' | 'premium', host?: string, port?: number, systemId?: string, password?: string) =>
    host === undefined
      ? []
      : [
          {
            settings: { ...shared, name, host, port: port ?? base.port, systemId: systemId ?? base.systemId, password: password ?? base.password },
            routes: [name],
          },
        ];
  const standard = own('standard', env.SMSC_STANDARD_HOST, env.SMSC_STANDARD_PORT, env.SMSC_STANDARD_SYSTEM_ID, env.SMSC_STANDARD_PASSWORD);
  const premium = own('premium', env.SMSC_PREMIUM_HOST, env.SMSC_PREMIUM_PORT, env.SMSC_PREMIUM_SYSTEM_ID, env.SMSC_PREMIUM_PASSWORD);
  const defaultRoutes: CarrierRouteName[] = ['auto', ...(standard.length ? [] : ['standard' as const]), ...(premium.length ? [] : ['premium' as const])];
  return [{ settings: { ...shared, name: DEFAULT_CARRIER, ...base }, routes: defaultRoutes }, ...standard, ...premium];
}

/**
 * At a dispatcher's start: when no carrier exists at all (a fresh install, or the first start
 * after the upgrade), creates those of the SMSC_* variables with their catch-all routes, so
 * `npm start` sends as before. Once any carrier exists it does nothing: the operator's carriers
 * are theirs, and a disabled `default` stays disabled. Safe when several dispatchers start at
 * once (they queue on routing_version's lock). Answers the names it created.
 */
export async function ensureDefaultCarrier(db: DataSource, env: SmscEnv): Promise<{ created: string[] }> {
  const carriers = carriersFromEnv(env).map((carrier) => ({ ...carrier, settings: checkCarrierSettings(carrier.settings) }));
  return db.transaction(async (manager) => {
    await lockRouting(manager);
    const [{ any }]: { any: boolean }[] = await manager.query(`SELECT EXISTS (SELECT 1 FROM carriers) AS any`);
    if (any) return { created: [] };
    for (const { settings, routes } of carriers) await insertWithRoutes(manager, settings, routes);
    return { created: carriers.map((carrier) => carrier.settings.name) };
  });
}

async function insertWithRoutes(manager: EntityManager, s: CarrierSettings, routes: readonly CarrierRouteName[]): Promise<void> {
  const [{ id }]: { id: number }[] = await manager.query(
    `INSERT INTO carriers (name, host, port, system_id, password, system_type, binds, "window", max_per_second, tls)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
    [s.name, s.host, s.port, s.systemId, s.password, s.systemType, s.binds, s.window, s.maxPerSecond, s.tls],
  );
  await manager.query(`INSERT INTO carrier_routes (prefix, route, carrier_id, priority) SELECT '+', route, $1, 1 FROM unnest($2::text[]) AS route`, [
    id,
    routes,
  ]);
}
