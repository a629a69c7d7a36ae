import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '../data-source';
import { CONSOLE_INDEXES, ConsoleIndexes1764600001000 } from './1764600001000-console-indexes';
import { OtpCountry1764600000000 } from './1764600000000-otp-country';
import { createIndexConcurrently } from './concurrent-index';
import { MIGRATIONS } from './index';
import { openScratchDatabase, type ScratchDatabase } from './scratch-database';

const testRun = { server: process.env['MP_TEST_SERVER_URL'], run: process.env['MP_TEST_RUN'] };
const NAMES = CONSOLE_INDEXES.map(([name]) => name);

async function indexes(db: DataSource): Promise<{ name: string; valid: boolean }[]> {
  return db.query(
    `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname = ANY($1::text[]) ORDER BY c.relname`,
    [[...NAMES, 'messages_company_created_idx']],
  );
}

describe('the console indexes (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let db: DataSource;

  beforeAll(async () => {
    scratch = await openScratchDatabase('console_indexes', testRun);
    db = scratch.db;
  });

  afterAll(() => scratch?.drop());

  it('builds each index valid and drops the company-created index nothing read', async () => {
    expect(await indexes(db)).toEqual([...NAMES].sort().map((name) => ({ name, valid: true })));
  });

  it('moves down (in a transaction) and up again (outside one)', async () => {
    await scratch.undoFrom(ConsoleIndexes1764600001000);
    expect(await indexes(db)).toEqual([{ name: 'messages_company_created_idx', valid: true }]);
    await runMigrations(db);
    expect((await indexes(db)).map((index) => index.name)).toEqual([...NAMES].sort());
  });

  it('builds again an index whose concurrent build stopped midway (left invalid), and keeps a valid one', async () => {
    const runner = db.createQueryRunner();
    try {
      // A unique index over duplicates fails in its concurrent build and is left behind, invalid.
      await runner.query(`CREATE TABLE half_built (n int)`);
      await runner.query(`INSERT INTO half_built VALUES (1), (1)`);
      await expect(runner.query(`CREATE UNIQUE INDEX CONCURRENTLY half_built_idx ON half_built (n)`)).rejects.toThrow(/could not create unique index/);
      const invalid = await runner.query(`SELECT indisvalid FROM pg_index WHERE indexrelid = 'half_built_idx'::regclass`);
      expect(invalid).toEqual([{ indisvalid: false }]);
      await createIndexConcurrently(runner, 'half_built_idx', 'half_built (n)');
      expect(await runner.query(`SELECT indisvalid FROM pg_index WHERE indexrelid = 'half_built_idx'::regclass`)).toEqual([{ indisvalid: true }]);
      const before = await runner.query(`SELECT 'half_built_idx'::regclass::oid AS oid`);
      await createIndexConcurrently(runner, 'half_built_idx', 'half_built (n)');
      expect(await runner.query(`SELECT 'half_built_idx'::regclass::oid AS oid`)).toEqual(before);
    } finally {
      await runner.query(`DROP TABLE IF EXISTS half_built`);
      await runner.release();
    }
  });

  it('adds the country of OTP recipients as two capital letters, or none', async () => {
    await expect(db.query(`SELECT country FROM otps`)).resolves.toEqual([]);
    const [{ check }] = await db.query(
      `SELECT pg_get_constraintdef(oid) AS check FROM pg_constraint WHERE conrelid = 'otps'::regclass AND pg_get_constraintdef(oid) LIKE '%country%'`,
    );
    expect(check).toContain('[A-Z]{2}');
    await scratch.undoFrom(OtpCountry1764600000000);
    await expect(db.query(`SELECT country FROM otps`)).rejects.toThrow(/country/);
    await runMigrations(db);
  });
});

describe('migrating from several processes at once (PostgreSQL)', () => {
  const database = `mp_test_${testRun.run}_concurrent_migrations`;
  const admin = new Client({ connectionString: testRun.server });
  const sources: DataSource[] = [];

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
  });

  afterAll(async () => {
    await Promise.all(sources.map((source) => source.destroy()));
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  it('applies every migration once while the others wait for the lock, concurrent index builds included', async () => {
    const url = new URL(testRun.server ?? '');
    url.pathname = `/${database}`;
    for (let i = 0; i < 3; i++) {
      const source = createDataSource({ url: url.toString(), applicationName: `test-migrate-${i}`, poolSize: 2 });
      sources.push(await source.initialize());
    }
    // A process blocked in pg_advisory_lock would hold a snapshot that CREATE INDEX CONCURRENTLY
    // waits for, while it waits for the lock: the three would never finish.
    const applied = await Promise.all(sources.map((source) => runMigrations(source)));
    expect(applied.flat().sort()).toEqual(MIGRATIONS.map((migration) => new migration().name).sort());
    expect(await indexes(sources[0])).toEqual([...NAMES].sort().map((name) => ({ name, valid: true })));
  });
});
