import type { DataSource } from 'typeorm';
import { runMigrations } from '../data-source';
import { Carriers1764800006000 } from './1764800006000-carriers';
import { openScratchDatabase, type ScratchDatabase } from './scratch-database';

describe('carriers schema (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let db: DataSource;

  beforeAll(async () => {
    scratch = await openScratchDatabase('carriers', { server: process.env['MP_TEST_SERVER_URL'], run: process.env['MP_TEST_RUN'] });
    db = scratch.db;
  });

  afterAll(() => scratch?.drop());

  const carrier = async (name: string) =>
    (await db.query(`INSERT INTO carriers (name, host, port, system_id, password) VALUES ($1, 'smsc.example', 2775, 'acme', 'pw') RETURNING id`, [name]))[0]
      .id as number;
  const route = (prefix: string, carrierId: number, extra: { route?: string; weight?: number; cost?: string } = {}) =>
    db.query(`INSERT INTO carrier_routes (prefix, route, carrier_id, priority, cost, weight) VALUES ($1, $2, $3, 1, $4, $5)`, [
      prefix,
      extra.route ?? 'auto',
      carrierId,
      extra.cost ?? null,
      extra.weight ?? null,
    ]);
  const version = async () => BigInt((await db.query(`SELECT version FROM routing_version`))[0].version as string);

  it('holds one carrier per name without case, with the defaults of one bind, a window of 50, unlimited, plain, enabled', async () => {
    const id = await carrier('Acme');
    await expect(carrier('ACME')).rejects.toThrow(/carriers_name_ci/);
    await expect(carrier('bad name')).rejects.toThrow(/check/);
    expect(await db.query(`SELECT binds, "window", max_per_second, tls, enabled, system_type FROM carriers WHERE id = $1`, [id])).toEqual([
      { binds: 1, window: 50, max_per_second: 0, tls: false, enabled: true, system_type: null },
    ]);
    await expect(db.query(`UPDATE carriers SET port = 70000 WHERE id = $1`, [id])).rejects.toThrow(/check/);
  });

  it('holds routes of a known route and prefix form, once per carrier, for a carrier that exists, with a cost and weight in range', async () => {
    const id = await carrier('Routed');
    await route('+', id);
    await route('+44', id, { route: 'premium', cost: '0.0041', weight: 30 });
    await expect(route('+44', id, { route: 'premium' })).rejects.toThrow(/unique/);
    await expect(route('44', id)).rejects.toThrow(/check/);
    await expect(route('+45', id, { route: 'gold' })).rejects.toThrow(/check/);
    await expect(route('+46', id, { cost: '-0.1' })).rejects.toThrow(/check/);
    await expect(route('+47', id, { weight: 101 })).rejects.toThrow(/check/);
    await expect(route('+48', 999_999)).rejects.toThrow(/foreign key/);
    expect(await db.query(`SELECT cost FROM carrier_routes WHERE carrier_id = $1 AND prefix = '+44'`, [id])).toEqual([{ cost: '0.0041' }]);
  });

  it('counts every statement that writes carriers or routes in routing_version, deletes included', async () => {
    const id = await carrier('Counted');
    const before = await version();
    await route('+33', id);
    await db.query(`UPDATE carriers SET enabled = false WHERE id = $1`, [id]);
    await db.query(`DELETE FROM carrier_routes WHERE carrier_id = $1`, [id]);
    expect(await version()).toBe(before + 3n);
  });

  it('removes the tables, the counter and its function when moved down, and puts them back up', async () => {
    await scratch.undoFrom(Carriers1764800006000);
    for (const table of ['carriers', 'carrier_routes', 'routing_version']) await expect(db.query(`SELECT 1 FROM ${table}`)).rejects.toThrow(table);
    expect(await db.query(`SELECT count(*)::int AS n FROM pg_proc WHERE proname = 'routing_version_bump'`)).toEqual([{ n: 0 }]);
    await runMigrations(db);
    expect(await db.query(`SELECT version FROM routing_version`)).toEqual([{ version: '0' }]);
    expect(await db.query(`SELECT count(*)::int AS n FROM carriers`)).toEqual([{ n: 0 }]);
  });
});
