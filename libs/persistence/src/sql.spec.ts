import { empty, join, raw, sql, unnest } from './sql';

describe('sql', () => {
  it('numbers its parameters in order and keeps their values apart from the text', () => {
    const statement = sql`SELECT * FROM t WHERE a = ${1} AND b = ANY(${['x', 'y']}::text[])`;
    expect(statement.text).toBe('SELECT * FROM t WHERE a = $1 AND b = ANY($2::text[])');
    expect(statement.values).toEqual([1, ['x', 'y']]);
  });

  it('numbers the parameters of a fragment in its place, however deep', () => {
    const inner = sql`c = ${3}`;
    const middle = sql`b = ${2} AND ${inner}`;
    const statement = sql`SELECT ${'first'} WHERE ${middle} AND d = ${4}`;
    expect(statement.text).toBe('SELECT $1 WHERE b = $2 AND c = $3 AND d = $4');
    expect(statement.values).toEqual(['first', 2, 3, 4]);
    expect(sql`${inner}`.text).toBe('c = $1');
  });

  it('makes the same text for the same shape, whatever the values (a prepared statement is named after it)', () => {
    const lock = (ids: string[], update: boolean) => sql`SELECT id FROM t WHERE id = ANY(${ids}::uuid[])${update ? raw(' FOR UPDATE') : empty}`;
    expect(lock(['a'], true).text).toBe(lock(['b', 'c'], true).text);
    expect(lock(['a'], false).text).toBe('SELECT id FROM t WHERE id = ANY($1::uuid[])');
    expect(lock(['a'], true).text).toBe('SELECT id FROM t WHERE id = ANY($1::uuid[]) FOR UPDATE');
  });

  it('joins fragments with a separator', () => {
    const ctes = join([sql`a AS (SELECT ${1})`, sql`b AS (SELECT ${2})`], ', ');
    expect(sql`WITH ${ctes} SELECT ${3}`.text).toBe('WITH a AS (SELECT $1), b AS (SELECT $2) SELECT $3');
  });
});

describe('unnest', () => {
  it('casts each column to an array of its type', () => {
    const rows = unnest([
      [['a', 'b'], 'uuid'],
      [[1, 2], 'smallint'],
    ]);
    const statement = sql`INSERT INTO t (id, n) SELECT * FROM ${rows} RETURNING ${'x'}`;
    expect(statement.text).toBe('INSERT INTO t (id, n) SELECT * FROM unnest($1::uuid[], $2::smallint[]) RETURNING $3');
    expect(statement.values).toEqual([['a', 'b'], [1, 2], 'x']);
  });
});
