import type { DataSource } from 'typeorm';
import { runMigrations } from '../data-source';
import { CarrierTlsCa1764800009000 } from './1764800009000-carrier-tls-ca';
import { openScratchDatabase, type ScratchDatabase } from './scratch-database';

describe('carrier TLS CA schema (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let db: DataSource;

  beforeAll(async () => {
    scratch = await openScratchDatabase('carrier_tls_ca', { server: process.env['MP_TEST_SERVER_URL'], run: process.env['MP_TEST_RUN'] });
    db = scratch.db;
  });

  afterAll(() => scratch?.drop());

  const insert = (name: string, tlsCa: string | null, tlsServerName: string | null) =>
    db.query(
      `INSERT INTO carriers (name, host, port, system_id, password, tls, tls_ca, tls_server_name) VALUES ($1, 'h.example', 2775, 's', 'p', true, $2, $3)`,
      [name, tlsCa, tlsServerName],
    );

  it('keeps a CA of up to 64 KiB and a server name per carrier, both optional', async () => {
    await insert('none', null, null);
    await insert('own', 'x'.repeat(65_536), 'smsc.example');
    await expect(insert('too-big', 'x'.repeat(65_537), null)).rejects.toThrow(/carriers_tls_ca_check/);
    await expect(insert('empty', '', null)).rejects.toThrow(/carriers_tls_ca_check/);
    await expect(insert('empty-name', null, '')).rejects.toThrow(/carriers_tls_server_name_check/);
    expect(await db.query(`SELECT name, length(tls_ca) AS ca, tls_server_name FROM carriers ORDER BY name`)).toEqual([
      { name: 'none', ca: null, tls_server_name: null },
      { name: 'own', ca: 65_536, tls_server_name: 'smsc.example' },
    ]);
  });

  it('moves down dropping the columns, keeping the carriers, and back up', async () => {
    await scratch.undoFrom(CarrierTlsCa1764800009000);
    await expect(db.query(`SELECT tls_ca FROM carriers`)).rejects.toThrow(/tls_ca/);
    expect(await db.query(`SELECT name FROM carriers ORDER BY name`)).toEqual([{ name: 'none' }, { name: 'own' }]);
    await runMigrations(db);
    expect(await db.query(`SELECT count(*)::int AS n FROM carriers WHERE tls_ca IS NULL`)).toEqual([{ n: 2 }]);
  });
});
