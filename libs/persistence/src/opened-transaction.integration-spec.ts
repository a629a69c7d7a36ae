import type { DataSource } from 'typeorm';
import { Client } from 'pg';
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
    const answer = await inTransactionOpenedWith(db, ['SET LOCAL statement_timeout = 4321', `SELECT current_setting('statement_timeout') AS t, 7 AS n`], async (manager, opened) => {
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
      inTransactionOpenedWith(db, [`INSERT INTO ${table} (v) VALUES ('opening')`], async (manager) => {
        await manager.query(`INSERT INTO ${table} (v) VALUES ('work')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await rows()).toEqual([]);
    await expect(inTransactionOpenedWith(db, ['SELECT 1'], async (manager) => manager.query('SELECT 2 AS two'))).resolves.toEqual([{ two: 2 }]);
  });

  it('rolls back and rethrows when an opening statement fails, without running the work', async () => {
    const work = jest.fn();
    await expect(inTransactionOpenedWith(db, [`INSERT INTO ${table} (v) VALUES ('a')`, 'SELECT 1 / 0'], work)).rejects.toThrow('division by zero');
    expect(work).not.toHaveBeenCalled();
    expect(await rows()).toEqual([]);
  });

  it('keeps a prepared opening statement prepared on each connection: PREPARE once, then EXECUTE with the values', async () => {
    // @mp/testing's statement spy would make this library depend on one that depends on it.
    const spy = jest.spyOn(Client.prototype as unknown as { query: (text: unknown) => unknown }, 'query');
    const sent: string[] = [];
    const insert = (v: string) => ({ text: `INSERT INTO ${table} (v) VALUES ($1::text) RETURNING v || '!' AS shout`, args: [sqlLiteral(v)] });
    try {
      // One connection, so the second transaction finds the statement prepared.
      const single = createDataSource({ url: process.env['DATABASE_URL'] as string, applicationName: 'test-opened-prepared', poolSize: 1 });
      await single.initialize();
      try {
        for (const v of ['one', 'two']) {
          await inTransactionOpenedWith(single, [insert(v)], async (_, [inserted]) => expect(inserted.rows).toEqual([{ shout: `${v}!` }]));
        }
        expect((await single.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE '%INSERT INTO ${table}%'`))[0].n).toBe(1);
      } finally {
        await single.destroy();
      }
    } finally {
      sent.push(...spy.mock.calls.map(([query]) => (typeof query === 'string' ? query : String((query as { text?: unknown }).text))));
      spy.mockRestore();
    }
    expect(sent.filter((text) => text.startsWith('PREPARE mp_open_'))).toHaveLength(1);
    expect(sent.filter((text) => /^BEGIN; EXECUTE mp_open_\w+\('(one|two)'\)$/.test(text))).toHaveLength(2);
    expect((await rows()).sort()).toEqual(['one', 'two']);
  });

  it('makes literals of any text, quotes and backslashes included', async () => {
    const tricky = [`it's`, `back\\slash`, `"; DROP TABLE ${table}; --`, '+33612345678'];
    await inTransactionOpenedWith(db, [`INSERT INTO ${table} (v) SELECT unnest(${sqlArray(tricky, 'text')})`, `SELECT ${sqlLiteral(new Date(0))}::timestamptz AS at`], async (_, [, at]) => {
      expect(at.rows[0]['at']).toEqual(new Date(0));
    });
    expect((await rows()).sort()).toEqual([...tricky].sort());
  });
});
