import { openOwnDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { CarrierStore } from './carrier-store';
import { DEFAULT_CARRIER, ensureDefaultCarrier, type SmscEnv } from './default-carrier';
import { RouteStore } from './route-store';
import { RoutingReader } from './routing-version';

const env: SmscEnv = {
  SMSC_HOST: '127.0.0.1',
  SMSC_PORT: 2775,
  SMSC_SYSTEM_ID: 'messaging',
  SMSC_PASSWORD: 'secret',
  SMPP_BINDS: 2,
  SMPP_WINDOW: 50,
  SMPP_MAX_PER_SECOND: 0,
};

describe('the default carrier from SMSC_* (PostgreSQL)', () => {
  let scratch: Awaited<ReturnType<typeof openOwnDataSource>>;
  let db: DataSource;

  afterEach(() => scratch?.drop());

  const routesOf = async () => (await new RouteStore(db).list()).map((r) => [r.prefix, r.route, r.carrier, r.priority]);

  it('creates "default" with every route of every number once, however many dispatchers start at once', async () => {
    scratch = await openOwnDataSource('routing_default_once');
    db = scratch.db;
    const results = await Promise.all([1, 2, 3].map(() => ensureDefaultCarrier(db, env)));
    expect(results.flatMap((r) => r.created)).toEqual([DEFAULT_CARRIER]);
    expect(await new CarrierStore(db).list()).toEqual([
      expect.objectContaining({
        name: 'default',
        host: '127.0.0.1',
        port: 2775,
        systemId: 'messaging',
        binds: 2,
        window: 50,
        maxPerSecond: 0,
        tls: false,
        enabled: true,
      }),
    ]);
    expect((await new RoutingReader(db).snapshot()).carriers[0].password).toBe('secret');
    expect(await routesOf()).toEqual([
      ['+', 'auto', 'default', 1],
      ['+', 'premium', 'default', 1],
      ['+', 'standard', 'default', 1],
    ]);
  });

  it('gives a route with an SMSC of its own a carrier of that name, with the default SMSC credentials where not given', async () => {
    scratch = await openOwnDataSource('routing_default_routes');
    db = scratch.db;
    const created = await ensureDefaultCarrier(db, { ...env, SMSC_PREMIUM_HOST: 'premium.example', SMSC_PREMIUM_PORT: 2800, SMSC_TLS: true });
    expect(created).toEqual({ created: ['default', 'premium'] });
    expect(await new CarrierStore(db).findByName('premium')).toMatchObject({ host: 'premium.example', port: 2800, systemId: 'messaging', tls: true });
    expect(await routesOf()).toEqual([
      ['+', 'auto', 'default', 1],
      ['+', 'premium', 'premium', 1],
      ['+', 'standard', 'default', 1],
    ]);
  });

  it('leaves the carriers alone once any exists: a disabled default stays disabled, an operator-made carrier keeps its place', async () => {
    scratch = await openOwnDataSource('routing_default_kept');
    db = scratch.db;
    const carriers = new CarrierStore(db);
    await carriers.create({
      name: 'own',
      host: 'own.example',
      port: 2775,
      systemId: 'me',
      password: 'x',
      systemType: null,
      binds: 1,
      window: 50,
      maxPerSecond: 0,
      tls: false,
    });
    expect(await ensureDefaultCarrier(db, env)).toEqual({ created: [] });
    expect((await carriers.list()).map((c) => c.name)).toEqual(['own']);
    const version = await new RoutingReader(db).version();
    expect(await ensureDefaultCarrier(db, env)).toEqual({ created: [] });
    expect((await new RoutingReader(db).version()).version).toBe(version.version);
  });
});
