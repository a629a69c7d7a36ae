import { createDataSource, inOneRoundTrip, inTransactionOpenedWith, openingOf, queryPrepared, raw, runMigrations, sql } from '@mp/persistence';
import type { DataSource } from 'typeorm';
import { startPgBouncer, type RunningPgBouncer } from './pgbouncer';

describe('PostgreSQL behind PgBouncer in transaction mode (startPgBouncer)', () => {
  let bouncer: RunningPgBouncer;
  let db: DataSource;
  const table = `bounced_${process.pid}`;

  beforeAll(async () => {
    bouncer = await startPgBouncer({ databaseUrl: process.env['DATABASE_URL'] as string, poolSize: 2 });
    // More clients than server connections: statements of one client run on either server connection.
    db = createDataSource({ url: bouncer.url, applicationName: 'test-pgbouncer', poolSize: 8, pooler: 'pgbouncer-transaction', genericPlans: true });
    await db.initialize();
    await db.query(`CREATE TABLE ${table} (v text PRIMARY KEY)`);
  });
  afterAll(async () => {
    await db?.query(`DROP TABLE ${table}`);
    await db?.destroy();
    await bouncer?.stop();
  });

  it('runs the same statements from many clients on two server connections (no statement kept prepared)', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `v${i}`);
    await Promise.all(texts.map((v) => queryPrepared(db.manager, sql`INSERT INTO ${raw(table)} (v) VALUES (${v}::text)`)));
    const counted = await Promise.all(texts.map(() => queryPrepared<{ n: string }>(db.manager, sql`SELECT count(*) AS n FROM ${raw(table)}`)));
    expect(counted.map(([row]) => Number(row.n))).toEqual(texts.map(() => texts.length));
  });

  it('runs transactions opened with prepared openings, and one that failed leaves nothing behind for the next', async () => {
    const insert = (v: string) => openingOf({ text: `INSERT INTO ${table} (v) VALUES ($1::text) RETURNING v`, values: [v] });
    await expect(inOneRoundTrip(db, [insert('dup'), insert('dup')])).rejects.toThrow(/duplicate key/);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        inTransactionOpenedWith(db, [insert(`t${i}`)], async (_manager, [opened], commitWith) => {
          const committed = await commitWith({ text: `INSERT INTO ${table} (v) VALUES ($1::text) RETURNING v`, values: [`c${i}`] });
          return [opened.rows[0]['v'], committed.rows[0]['v']];
        }),
      ),
    );
    expect(results[7]).toEqual(['t7', 'c7']);
    const [{ n }] = await db.query(`SELECT count(*) AS n FROM ${table} WHERE v LIKE 't%' OR v LIKE 'c%' OR v = 'dup'`);
    expect(Number(n)).toBe(40);
  });

  it('refuses to run the migrations through the pooler: their advisory lock is a session lock', async () => {
    await expect(runMigrations(db)).rejects.toThrow(/MIGRATION_DATABASE_URL/);
  });
});
