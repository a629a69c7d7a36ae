import { openOwnDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { generate } from 'selfsigned';
import type { CarrierSettings } from './carrier-settings';
import { checkTlsCa } from './carrier-tls';
import { CarrierStore } from './carrier-store';
import { RouteStore } from './route-store';
import { CarrierNotFoundError, RoutingInputError } from './routing-errors';
import { RoutingReader } from './routing-version';

const settings = (name: string, change: Partial<CarrierSettings> = {}): CarrierSettings => ({
  name,
  host: 'smpp.example',
  port: 2775,
  systemId: 'acme',
  password: 'pw-of-' + name,
  systemType: null,
  binds: 1,
  window: 50,
  maxPerSecond: 0,
  tls: false,
  ...change,
});

describe('carrier and route stores (PostgreSQL)', () => {
  let scratch: Awaited<ReturnType<typeof openOwnDataSource>>;
  let db: DataSource;
  let carriers: CarrierStore;
  let routes: RouteStore;
  let reader: RoutingReader;

  beforeAll(async () => {
    scratch = await openOwnDataSource('routing_stores');
    db = scratch.db;
    [carriers, routes, reader] = [new CarrierStore(db), new RouteStore(db), new RoutingReader(db)];
  });
  afterAll(() => scratch?.drop());

  it('creates a carrier with its settings, finds it by name without case, and never shows its password', async () => {
    const created = await carriers.create(settings('Acme-UK', { binds: 2, tls: true, systemType: 'OTP', maxPerSecond: 40 }));
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'Acme-UK',
      host: 'smpp.example',
      port: 2775,
      systemId: 'acme',
      systemType: 'OTP',
      binds: 2,
      window: 50,
      maxPerSecond: 40,
      tls: true,
      tlsCa: null,
      tlsServerName: null,
      enabled: true,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect(await carriers.findByName('acme-uk')).toEqual(created);
    expect(await carriers.findByName('nobody')).toBeNull();
    expect(JSON.stringify(await carriers.list())).not.toContain('pw-of-');
    await expect(carriers.create(settings('ACME-uk'))).rejects.toThrow(/exists already/);
    await expect(carriers.create(settings('bad', { port: 0 }))).rejects.toThrow(RoutingInputError);
  });

  it('changes only the settings an update gives, and refuses an unknown carrier or an empty update', async () => {
    const before = await carriers.create(settings('Partial'));
    const after = await carriers.update('partial', { port: 2800, window: 10, password: 'rotated' });
    expect(after).toMatchObject({ name: 'Partial', host: 'smpp.example', port: 2800, window: 10, binds: 1, systemId: 'acme' });
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
    const snapshot = await reader.snapshot();
    expect(snapshot.carriers.find((c) => c.name === 'Partial')?.password).toBe('rotated');
    await expect(carriers.update('nobody', { port: 1 })).rejects.toThrow(CarrierNotFoundError);
    await expect(carriers.update('Partial', {})).rejects.toThrow(/nothing to change/);
    await expect(carriers.update('Partial', { binds: 33 })).rejects.toThrow(/--binds/);
  });

  it("keeps a carrier's TLS CA (normalised) and server name, hands them to the dispatchers, and clears them with null", async () => {
    const { cert } = await generate([{ name: 'commonName', value: 'acme-private-ca' }], { keyType: 'ec', algorithm: 'sha256' });
    const created = await carriers.create(settings('Private-CA', { tls: true, tlsCa: `# Acme's CA\n${cert}`, tlsServerName: 'smsc.acme.example' }));
    expect(created).toMatchObject({ tls: true, tlsCa: checkTlsCa(cert), tlsServerName: 'smsc.acme.example' });
    expect(created.tlsCa).not.toContain('Acme');
    const bound = (await reader.snapshot()).carriers.find((c) => c.name === 'Private-CA');
    expect(bound).toMatchObject({ tlsCa: checkTlsCa(cert), tlsServerName: 'smsc.acme.example' });
    expect(await carriers.update('private-ca', { port: 2800 })).toMatchObject({ port: 2800, tlsCa: checkTlsCa(cert), tlsServerName: 'smsc.acme.example' });
    expect(await carriers.update('private-ca', { tlsCa: null, tlsServerName: null })).toMatchObject({ tlsCa: null, tlsServerName: null });
    await expect(carriers.update('private-ca', { tlsCa: 'no certificate' })).rejects.toThrow(/--tls-ca-file holds no PEM certificate/);
    await expect(carriers.create(settings('Bad-CA', { tlsServerName: '10.0.0.1/8' }))).rejects.toThrow(RoutingInputError);
  });

  it('disables and enables a carrier, keeping its routes', async () => {
    await carriers.create(settings('Toggled'));
    await routes.set({ prefix: '+49', route: 'auto', carrier: 'Toggled', priority: 1, cost: null, weight: null });
    expect(await carriers.disable('toggled')).toMatchObject({ enabled: false });
    expect(await routes.list({ prefix: '+49' })).toEqual([expect.objectContaining({ carrier: 'Toggled', carrierEnabled: false })]);
    expect(await carriers.enable('Toggled')).toMatchObject({ enabled: true });
    await expect(carriers.disable('nobody')).rejects.toThrow(CarrierNotFoundError);
  });

  it('sets a route once per prefix, route and carrier, changing it in place, and lists by prefix in priority order', async () => {
    await carriers.create(settings('Cheap'));
    await carriers.create(settings('Backup'));
    await routes.set({ prefix: '+44', route: 'auto', carrier: 'Backup', priority: 2, cost: '0.0050', weight: null });
    const set = await routes.set({ prefix: '+44', route: 'auto', carrier: 'cheap', priority: 1, cost: '0.004', weight: null });
    expect(set).toEqual({
      prefix: '+44',
      route: 'auto',
      carrier: 'Cheap',
      carrierId: expect.any(Number),
      carrierEnabled: true,
      priority: 1,
      cost: '0.004',
      weight: null,
      updatedAt: expect.any(Date),
    });
    await routes.set({ prefix: '+44', route: 'auto', carrier: 'Cheap', priority: 3, cost: '0.0035', weight: null });
    await routes.set({ prefix: '+44', route: 'premium', carrier: 'Cheap', priority: 1, cost: null, weight: null });
    const listed = await routes.list({ prefix: '+44', route: 'auto' });
    expect(listed.map((r) => [r.carrier, r.priority, r.cost])).toEqual([
      ['Backup', 2, '0.005'],
      ['Cheap', 3, '0.0035'],
    ]);
    expect((await routes.list({ prefix: '+44' })).map((r) => r.route)).toEqual(['auto', 'auto', 'premium']);
    await expect(routes.set({ prefix: '+44', route: 'auto', carrier: 'nobody', priority: 1, cost: null, weight: null })).rejects.toThrow(CarrierNotFoundError);
  });

  it('refuses weights of one prefix and route that would add up to more than 100, and lets a carrier change its own', async () => {
    for (const name of ['SplitA', 'SplitB']) await carriers.create(settings(name));
    await routes.set({ prefix: '+33', route: 'auto', carrier: 'SplitA', priority: 1, cost: null, weight: 70 });
    await expect(routes.set({ prefix: '+33', route: 'auto', carrier: 'SplitB', priority: 1, cost: null, weight: 31 })).rejects.toThrow(/101 %/);
    await routes.set({ prefix: '+33', route: 'auto', carrier: 'SplitB', priority: 1, cost: null, weight: 30 });
    await routes.set({ prefix: '+33', route: 'auto', carrier: 'SplitA', priority: 1, cost: null, weight: 60 });
    await routes.set({ prefix: '+33', route: 'standard', carrier: 'SplitB', priority: 1, cost: null, weight: 100 });
    expect((await routes.list({ prefix: '+33', route: 'auto' })).map((r) => [r.carrier, r.weight])).toEqual([
      ['SplitA', 60],
      ['SplitB', 30],
    ]);
  });

  it('holds the weights to 100 when two splits of one prefix are set at once', async () => {
    for (const name of ['RaceA', 'RaceB']) await carriers.create(settings(name));
    const outcomes = await Promise.allSettled(
      ['RaceA', 'RaceB'].map((carrier) => routes.set({ prefix: '+34', route: 'auto', carrier, priority: 1, cost: null, weight: 60 })),
    );
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('removes a route, answering whether it was there', async () => {
    await carriers.create(settings('Removed'));
    await routes.set({ prefix: '+39', route: 'auto', carrier: 'Removed', priority: 1, cost: null, weight: null });
    expect(await routes.remove({ prefix: '+39', route: 'auto', carrier: 'removed' })).toBe(true);
    expect(await routes.remove({ prefix: '+39', route: 'auto', carrier: 'Removed' })).toBe(false);
    expect(await routes.list({ prefix: '+39' })).toEqual([]);
    await expect(routes.remove({ prefix: '+39', route: 'auto', carrier: 'nobody' })).rejects.toThrow(CarrierNotFoundError);
  });

  it('moves the version with every change, and the snapshot tells the version it was read at', async () => {
    const start = await reader.version();
    await carriers.create(settings('Versioned'));
    const created = await reader.version();
    expect(created.version).toBeGreaterThan(start.version);
    await routes.set({ prefix: '+31', route: 'auto', carrier: 'Versioned', priority: 1, cost: null, weight: null });
    await carriers.disable('Versioned');
    await routes.remove({ prefix: '+31', route: 'auto', carrier: 'Versioned' });
    const removed = await reader.version();
    expect(removed.version).toBeGreaterThanOrEqual(created.version + 3n);
    const snapshot = await reader.snapshot();
    expect(snapshot.version).toBeGreaterThanOrEqual(removed.version);
    expect(snapshot.carriers.find((c) => c.name === 'Versioned')).toMatchObject({ enabled: false, password: 'pw-of-Versioned' });
    expect(snapshot.routes.some((r) => r.prefix === '+31')).toBe(false);
  });
});
