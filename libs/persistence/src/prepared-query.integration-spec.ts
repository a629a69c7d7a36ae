import { QueryFailedError, type DataSource } from 'typeorm';
import { createDataSource } from './data-source';
import { queryPrepared } from './prepared-query';
import { sql } from './sql';

describe('queryPrepared (PostgreSQL)', () => {
  let db: DataSource;

  beforeAll(async () => {
    // No table of the schema is needed: the run's database as it is.
    db = createDataSource({ url: process.env['DATABASE_URL'] as string, applicationName: 'test-prepared', poolSize: 10 });
    await db.initialize();
  });
  afterAll(() => db.destroy());

  const doubled = 'SELECT x * 2 AS y FROM unnest($1::int[]) AS x ORDER BY x';

  it("runs a statement by name on the transaction's connection, parsed once there under a name made from its text", async () => {
    await db.transaction(async (manager) => {
      expect(await queryPrepared(manager, doubled, [[1, 2, 3]])).toEqual([{ y: 2 }, { y: 4 }, { y: 6 }]);
      expect(await queryPrepared(manager, doubled, [[5]])).toEqual([{ y: 10 }]);
      const prepared: { name: string }[] = await manager.query(`SELECT name FROM pg_prepared_statements WHERE statement = $1`, [doubled]);
      expect(prepared).toEqual([{ name: expect.stringMatching(/^mp_[0-9a-f]{20}$/) }]);
    });
  });

  it('runs a statement made with sql, under the same name as its text', async () => {
    const statement = sql`SELECT x * 2 AS y FROM unnest(${[7, 8]}::int[]) AS x ORDER BY x`;
    await db.transaction(async (manager) => {
      expect(await queryPrepared(manager, statement)).toEqual([{ y: 14 }, { y: 16 }]);
      expect(await queryPrepared(manager, doubled, [[1]])).toEqual([{ y: 2 }]);
      const prepared: { statement: string }[] = await manager.query(`SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%x * 2%'`);
      expect(prepared.map((row) => row.statement)).toEqual([doubled]);
    });
  });

  it('answers a failure as TypeORM does, with the driver error, and leaves the statement usable', async () => {
    const failing = 'SELECT 1 / x AS y FROM unnest($1::int[]) AS x';
    const failure = await db.transaction((manager) => queryPrepared(manager, failing, [[0]])).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect((failure as QueryFailedError & { driverError: { code: string } }).driverError.code).toBe('22012');
    await db.transaction(async (manager) => {
      expect(await queryPrepared(manager, failing, [[1]])).toEqual([{ y: 1 }]);
    });
  });

  it('runs outside a transaction on a pooled connection, which it gives back', async () => {
    const pool = (db.driver as unknown as { master: { totalCount: number; idleCount: number } }).master;
    expect(await queryPrepared(db.manager, doubled, [[4]])).toEqual([{ y: 8 }]);
    expect(await Promise.all(Array.from({ length: 40 }, (_, i) => queryPrepared(db.manager, doubled, [[i]])))).toHaveLength(40);
    expect(pool.idleCount).toBe(pool.totalCount);
  });
});
