import type { DataSource } from 'typeorm';
import { Client } from 'pg';
import { createDataSource } from './data-source';
import { inTransactionOpenedWith, literalOf, sqlArray, sqlLiteral } from './opened-transaction';

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
    const answer = await inTransactionOpenedWith(
      db,
      ['SET LOCAL statement_timeout = 4321', `SELECT current_setting('statement_timeout') AS t, 7 AS n`],
      async (manager, opened) => {
        expect(opened.map((result) => result.rows)).toEqual([[], [{ t: '4321ms', n: 7 }]]);
        await manager.query(`INSERT INTO ${table} (v) VALUES ($1)`, ['kept']);
        const [{ active }] = await manager.query(`SELECT now() = statement_timestamp() AS active`);
        return active;
      },
    );
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

  it('sends the last statement with the COMMIT, its values as literals PostgreSQL reads back exactly', async () => {
    const texts = [`it's`, 'back\\slash', 'quote " inside', '{braces},commas', '', 'NULL', 'ünï €', '{"json": [1, "two"]}'];
    const values = [texts, [1, null, -3], [true, false, null], 'not an array', null];
    let answer: unknown;
    const sent: string[] = [];
    const spy = jest.spyOn(Client.prototype as unknown as { query: (text: unknown) => unknown }, 'query');
    try {
      answer = await inTransactionOpenedWith(db, ['SELECT 1'], async (_, __, commitWith) => {
        const result = await commitWith({
          text: `WITH i AS (INSERT INTO ${table} (v) SELECT unnest($1::text[]) RETURNING v)
                 SELECT (SELECT count(*)::int FROM i) AS inserted, $1::text[] AS texts, $2::int[] AS ints, $3::boolean[] AS flags, $4::text AS plain, $5::text AS nothing`,
          values,
        });
        return result.rows[0];
      });
    } finally {
      sent.push(...spy.mock.calls.map(([query]) => String(typeof query === 'string' ? query : (query as { text?: unknown }).text)));
      spy.mockRestore();
    }
    expect(answer).toEqual({ inserted: texts.length, texts, ints: [1, null, -3], flags: [true, false, null], plain: 'not an array', nothing: null });
    expect(sent.filter((text) => !text.startsWith('PREPARE ')).at(-1)).toMatch(/^EXECUTE mp_open_\w+\(.*\); COMMIT$/s);
    expect(sent).not.toContain('COMMIT');
    expect((await rows()).sort()).toEqual([...texts].sort());
  });

  it('writes NULL, and quotes everything else as text', () => {
    expect(literalOf(null)).toBe('NULL');
    expect(literalOf(undefined)).toBe('NULL');
    expect(literalOf(12)).toBe("'12'");
    expect(literalOf(["a'b", null, 'c,d'])).toBe(`'{"a''b",NULL,"c,d"}'`);
  });

  it('makes literals of any text, quotes and backslashes included', async () => {
    const tricky = [`it's`, `back\\slash`, `"; DROP TABLE ${table}; --`, '+33612345678'];
    await inTransactionOpenedWith(
      db,
      [`INSERT INTO ${table} (v) SELECT unnest(${sqlArray(tricky, 'text')})`, `SELECT ${sqlLiteral(new Date(0))}::timestamptz AS at`],
      async (_, [, at]) => {
        expect(at.rows[0]['at']).toEqual(new Date(0));
      },
    );
    expect((await rows()).sort()).toEqual([...tricky].sort());
  });
});
