import type { DataSource } from 'typeorm';
import { createDataSource } from './data-source';
import { inTransactionOpenedWith, sqlArray, sqlLiteral } from './opened-transaction';

describe('inTransactionOpenedWith (PostgreSQL)', () => {
  let db: DataSource;
  const table = `opened_tx_${process.pid}`;
  const rows = async () => (await db.query(`SELECT v FROM ${table} ORDER BY v`)).map((row: { v: string }) => row.v);

  beforeAll(async () => {
    db = createDataSource({ url: process.env['DATABASE_URL'] as string, applicationName: 'test-opened-transaction', poolSize: 4 });
    await db.initialize();
    await db.query(`CREATE TABLE ${table} (v text PRIMARY KEY)`);
  });
  afterEach(() => db.query(`TRUNCATE ${table}`));
  afterAll(async () => {
    await db.query(`DROP TABLE ${table}`);
    await db.destroy();
  });

  it("runs the opening statements with the BEGIN, hands their results to the work, and commits the work's writes", async () => {
    const answer = await inTransactionOpenedWith(db, `SET LOCAL statement_timeout = 4321; SELECT current_setting('statement_timeout') AS t, 7 AS n`, async (manager, opened) => {
      expect(opened.map((result) => result.rows)).toEqual([[], [{ t: '4321ms', n: 7 }]]);
      await manager.query(`INSERT INTO ${table} (v) VALUES ($1)`, ['kept']);
      const [{ active }] = await manager.query(`SELECT now() = statement_timestamp() AS active`);
      return active;
    });
    expect(answer).toBe(false);
    expect(await rows()).toEqual(['kept']);
    expect((await db.query(`SELECT current_setting('statement_timeout') AS t`))[0].t).not.toBe('4321ms');
  });

  it('rolls back everything when the work throws, and gives the connection back usable', async () => {
    await expect(
      inTransactionOpenedWith(db, `INSERT INTO ${table} (v) VALUES ('opening')`, async (manager) => {
        await manager.query(`INSERT INTO ${table} (v) VALUES ('work')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await rows()).toEqual([]);
    await expect(inTransactionOpenedWith(db, 'SELECT 1', async (manager) => manager.query('SELECT 2 AS two'))).resolves.toEqual([{ two: 2 }]);
  });

  it('rolls back and rethrows when an opening statement fails, without running the work', async () => {
    const work = jest.fn();
    await expect(inTransactionOpenedWith(db, `INSERT INTO ${table} (v) VALUES ('a'); SELECT 1 / 0`, work)).rejects.toThrow('division by zero');
    expect(work).not.toHaveBeenCalled();
    expect(await rows()).toEqual([]);
  });

  it('makes literals of any text, quotes and backslashes included', async () => {
    const tricky = [`it's`, `back\\slash`, `"; DROP TABLE ${table}; --`, '+33612345678'];
    await inTransactionOpenedWith(db, `INSERT INTO ${table} (v) SELECT unnest(${sqlArray(tricky, 'text')}); SELECT ${sqlLiteral(new Date(0))}::timestamptz AS at`, async (_, [, at]) => {
      expect(at.rows[0]['at']).toEqual(new Date(0));
    });
    expect((await rows()).sort()).toEqual([...tricky].sort());
  });
});
