import {
  CARRIER_DEFAULTS,
  CARRIER_LIMITS,
  CarrierStore,
  checkRouteName,
  integerSetting,
  parseCost,
  PRIORITY_RANGE,
  RouteStore,
  RoutingInputError,
  WEIGHT_RANGE,
  type CarrierChanges,
  type CarrierView,
  type RouteView,
} from '@mp/routing';
import { shownCarrierHealth } from '@mp/routing-domain';
import { parseOptions } from './arguments';
import type { AdminContext, Command } from './commands';
import { readCarrierBinds, type CarrierBinds } from './carrier-binds';
import { shownTls, TLS_CLEAR_FLAGS, TLS_OPTIONS, tlsChangesFrom } from './carrier-tls-options';
import { UsageError } from './usage-error';

const carriers = async (context: AdminContext) => new CarrierStore(await context.database());
const routes = async (context: AdminContext) => new RouteStore(await context.database());

/** A carrier as the tool prints it: never its password. */
const shownCarrier = (c: CarrierView) => ({
  name: c.name,
  host: c.host,
  port: c.port,
  system_id: c.systemId,
  system_type: c.systemType,
  binds: c.binds,
  window: c.window,
  max_per_second: c.maxPerSecond,
  tls: c.tls,
  ...shownTls(c),
  enabled: c.enabled,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

const shownRoute = (r: RouteView) => ({
  prefix: r.prefix,
  route: r.route,
  carrier: r.carrier,
  priority: r.priority,
  cost: r.cost === null ? null : Number(r.cost),
  weight: r.weight,
  carrier_enabled: r.carrierEnabled,
});

const SETTING_OPTIONS = ['host', 'port', 'system-id', 'password', 'system-type', 'binds', 'window', 'max-per-second'];

/** The settings given on the command line; numbers parsed and range-checked, the rest checked by the store. */
function changesFrom(values: Record<string, string>): CarrierChanges {
  const integer = (option: string, limits: readonly [number, number]) =>
    values[option] === undefined ? undefined : integerSetting(option, values[option], limits);
  const systemType = values['system-type'];
  return {
    host: values.host,
    port: integer('port', CARRIER_LIMITS.port),
    systemId: values['system-id'],
    password: values.password,
    systemType: systemType === undefined ? undefined : systemType === 'none' ? null : systemType,
    binds: integer('binds', CARRIER_LIMITS.binds),
    window: integer('window', CARRIER_LIMITS.window),
    maxPerSecond: integer('max-per-second', CARRIER_LIMITS.maxPerSecond),
  };
}

function tlsFrom(flags: Record<string, boolean>): boolean | undefined {
  if (flags.tls && flags['no-tls']) throw new UsageError('give --tls or --no-tls, not both');
  return flags.tls ? true : flags['no-tls'] ? false : undefined;
}

const routeOf = (text: string | undefined) => checkRouteName(text ?? 'auto');

/** The carriers the dispatchers submit to (carriers) and which of them each prefix may use (carrier_routes). */
export const CARRIER_COMMANDS: Record<string, Command> = {
  'carrier:create': {
    summary: 'add a carrier (an SMPP account) the dispatchers bind to within seconds; its password is never shown again',
    usage:
      'carrier:create --name N --host H --port P --system-id S --password W [--system-type T] [--binds 1] [--window 50] [--max-per-second 0 (unlimited)] [--tls [--tls-ca-file ca.pem] [--tls-server-name smsc.example]]',
    run: async (args, context) => {
      const { values, flags } = parseOptions(args, {
        required: ['name', 'host', 'port', 'system-id', 'password'],
        optional: ['system-type', 'binds', 'window', 'max-per-second', ...TLS_OPTIONS],
        flags: ['tls'],
      });
      const given = changesFrom(values);
      const tls = tlsChangesFrom(values, flags);
      if (!flags.tls && (tls.tlsCa !== undefined || tls.tlsServerName !== undefined))
        throw new UsageError('--tls-ca-file and --tls-server-name are for a TLS carrier: add --tls');
      const created = await (
        await carriers(context)
      ).create({
        name: values.name,
        host: values.host,
        port: given.port as number,
        systemId: values['system-id'],
        password: values.password,
        systemType: given.systemType ?? CARRIER_DEFAULTS.systemType,
        binds: given.binds ?? CARRIER_DEFAULTS.binds,
        window: given.window ?? CARRIER_DEFAULTS.window,
        maxPerSecond: given.maxPerSecond ?? CARRIER_DEFAULTS.maxPerSecond,
        tls: flags.tls,
        ...tls,
      });
      return shownCarrier(created);
    },
  },
  'carrier:update': {
    summary:
      'change the settings given of a carrier, the others kept ("--system-type none" clears it, --no-tls-ca and --no-tls-server-name go back to SMSC_TLS_*); the dispatchers rebind within seconds',
    usage:
      'carrier:update --name N [--host H] [--port P] [--system-id S] [--password W] [--system-type T|none] [--binds B] [--window W] [--max-per-second R] [--tls|--no-tls] [--tls-ca-file ca.pem|--no-tls-ca] [--tls-server-name N|--no-tls-server-name]',
    run: async (args, context) => {
      const { values, flags } = parseOptions(args, {
        required: ['name'],
        optional: [...SETTING_OPTIONS, ...TLS_OPTIONS],
        flags: ['tls', 'no-tls', ...TLS_CLEAR_FLAGS],
      });
      const changes = { ...changesFrom(values), tls: tlsFrom(flags), ...tlsChangesFrom(values, flags) };
      return shownCarrier(await (await carriers(context)).update(values.name, changes));
    },
  },
  'carrier:disable': {
    summary: 'stop using a carrier: its binds close, its routes are skipped; settings and routes are kept',
    usage: 'carrier:disable --name N',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['name'] });
      return shownCarrier(await (await carriers(context)).disable(values.name));
    },
  },
  'carrier:enable': {
    summary: 'use a disabled carrier again',
    usage: 'carrier:enable --name N',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['name'] });
      return shownCarrier(await (await carriers(context)).enable(values.name));
    },
  },
  'carrier:list': {
    summary:
      'list the carriers (never their passwords) with the binds the running dispatchers report for each, and their health over the last five minutes (submits per second, throttled and error rates, delivered share, receipt latency, degraded)',
    usage: 'carrier:list',
    run: async (args, context) => {
      parseOptions(args, { required: [] });
      const listed = await (await carriers(context)).list();
      const binds: CarrierBinds = await readCarrierBinds(context.config);
      return {
        carriers: listed.map((carrier) => {
          const own = binds.ok ? (binds.byCarrier.get(carrier.name) ?? []) : null;
          const health = binds.ok ? binds.health.get(carrier.name) : undefined;
          return {
            ...shownCarrier(carrier),
            bound: own === null ? null : own.filter((b) => b.state === 'bound').length,
            bind_states: own,
            health: health ? shownCarrierHealth(health) : null,
          };
        }),
        ...(binds.ok ? {} : { bind_states_error: binds.error }),
      };
    },
  },
  'route:set': {
    summary:
      'let a carrier take a prefix\'s parts on a route ("+" alone: every number), or change its priority (lower first), cost per part and weight (a percentage of a split); an omitted cost or weight is cleared',
    usage: 'route:set --prefix +44 --carrier N --priority 1 [--route auto|standard|premium] [--cost 0.004] [--weight 30]',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['prefix', 'carrier', 'priority'], optional: ['route', 'cost', 'weight'] });
      const set = await (
        await routes(context)
      ).set({
        prefix: values.prefix,
        route: routeOf(values.route),
        carrier: values.carrier,
        priority: integerSetting('priority', values.priority, PRIORITY_RANGE),
        cost: values.cost === undefined ? null : parseCost(values.cost),
        weight: values.weight === undefined ? null : integerSetting('weight', values.weight, WEIGHT_RANGE),
      });
      return shownRoute(set);
    },
  },
  'route:remove': {
    summary: "take a carrier off a prefix's route",
    usage: 'route:remove --prefix +44 --carrier N [--route auto|standard|premium]',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['prefix', 'carrier'], optional: ['route'] });
      const removed = await (await routes(context)).remove({ prefix: values.prefix, route: routeOf(values.route), carrier: values.carrier });
      if (!removed) throw new RoutingInputError(`carrier "${values.carrier}" has no ${routeOf(values.route)} route for ${values.prefix}`);
      return { removed: true };
    },
  },
  'route:list': {
    summary: 'list the carrier routes, or those of one prefix (exactly) and/or route, in priority order',
    usage: 'route:list [--prefix +44] [--route auto|standard|premium]',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: [], optional: ['prefix', 'route'] });
      const route = values.route === undefined ? undefined : checkRouteName(values.route);
      return { routes: (await (await routes(context)).list({ prefix: values.prefix, route })).map(shownRoute) };
    },
  },
};
