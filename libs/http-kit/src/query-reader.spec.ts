import { parseIsoDate, QueryError, rawQuery, readQuery, type PageDefaults } from './query-reader';

const PAGE: PageDefaults = { page: 1, limit: 20, maxLimit: 100 };

describe('readQuery', () => {
  it('answers what parse reads, also from an absent or prototype-less query string', () => {
    const parse = (q: { text(name: string): string | null }) => q.text('name');
    expect(readQuery({ name: ' Ann ' }, ['name'], parse)).toEqual({ ok: true, value: 'Ann' });
    expect(readQuery(Object.assign(Object.create(null), { name: 'Bo' }), ['name'], parse)).toEqual({ ok: true, value: 'Bo' });
    expect(readQuery(undefined, ['name'], parse)).toEqual({ ok: true, value: null });
  });

  it('refuses the first parameter it does not know, before reading any', () => {
    expect(readQuery({ name: ['a', 'b'], sort: 'asc' }, ['name'], (q) => q.text('name'))).toEqual({ ok: false, error: 'sort is not a known query parameter' });
  });

  it('answers a QueryError as the error and lets any other error through', () => {
    expect(
      readQuery({}, [], () => {
        throw new QueryError('from must be before to');
      }),
    ).toEqual({ ok: false, error: 'from must be before to' });
    expect(() =>
      readQuery({}, [], () => {
        throw new TypeError('bug');
      }),
    ).toThrow(TypeError);
  });
});

describe('QueryReader', () => {
  const read = <T>(query: Record<string, unknown>, parse: Parameters<typeof readQuery<T>>[2]) => readQuery(query, Object.keys(query), parse);

  it('reads text trimmed, empty as absent, once and at most 100 characters', () => {
    expect(read({ a: '  x ' }, (q) => q.text('a'))).toEqual({ ok: true, value: 'x' });
    expect(read({ a: '   ' }, (q) => q.text('a'))).toEqual({ ok: true, value: null });
    expect(read({ a: 'x'.repeat(100) }, (q) => q.text('a'))).toMatchObject({ ok: true });
    expect(read({ a: 'x'.repeat(101) }, (q) => q.text('a'))).toEqual({ ok: false, error: 'a is too long' });
    expect(read({ a: ['x', 'y'] }, (q) => q.text('a'))).toEqual({ ok: false, error: 'a must be given once, as text' });
    expect(read({}, (q) => q.required('a'))).toEqual({ ok: false, error: 'a is required' });
    expect(read({ a: '' }, (q) => q.required('a'))).toEqual({ ok: false, error: 'a is required' });
  });

  it('reads one of a list of values', () => {
    expect(read({ s: 'on' }, (q) => q.oneOf('s', ['on', 'off']))).toEqual({ ok: true, value: 'on' });
    expect(read({ s: 'up' }, (q) => q.oneOf('s', ['on', 'off']))).toEqual({ ok: false, error: 's must be one of on, off' });
  });

  it('reads text through a parser, naming what it must be', () => {
    const even = (text: string) => (Number(text) % 2 === 0 ? Number(text) : null);
    expect(read({ n: '4' }, (q) => q.parsed('n', 'an even number', even))).toEqual({ ok: true, value: 4 });
    expect(read({ n: '3' }, (q) => q.parsed('n', 'an even number', even))).toEqual({ ok: false, error: 'n must be an even number' });
    expect(read({}, (q) => q.parsed('n', 'an even number', even))).toEqual({ ok: true, value: null });
  });

  it.each([
    [{}, { ok: true, value: { page: 1, limit: 20 } }],
    [
      { page: '3', limit: '100' },
      { ok: true, value: { page: 3, limit: 100 } },
    ],
    [{ limit: '0' }, { ok: false, error: 'limit must be an integer from 1 to 100' }],
    [{ limit: '101' }, { ok: false, error: 'limit must be an integer from 1 to 100' }],
    [{ limit: '10.5' }, { ok: false, error: 'limit must be an integer from 1 to 100' }],
    [{ limit: '1e2' }, { ok: false, error: 'limit must be an integer from 1 to 100' }],
    [{ limit: '-1' }, { ok: false, error: 'limit must be an integer from 1 to 100' }],
    [{ page: '0' }, { ok: false, error: 'page must be an integer of at least 1' }],
    [{ page: 'two' }, { ok: false, error: 'page must be an integer of at least 1' }],
    [{ page: '99999999999999999999' }, { ok: false, error: 'page must be an integer of at least 1' }],
  ])('reads the page of %j', (query, result) => {
    expect(read(query, (q) => q.page(PAGE))).toEqual(result);
  });

  it('reads from and to as [from, before): a date covers its whole UTC day, a timestamp its millisecond', () => {
    expect(read({}, (q) => q.range())).toEqual({ ok: true, value: { from: null, before: null } });
    expect(read({ from: '2026-11-01', to: '2026-11-30' }, (q) => q.range())).toEqual({
      ok: true,
      value: { from: new Date('2026-11-01T00:00:00Z'), before: new Date('2026-12-01T00:00:00Z') },
    });
    expect(read({ from: '2026-11-22T10:00:00+02:00', to: '2026-11-22T12:00:00.250Z' }, (q) => q.range())).toEqual({
      ok: true,
      value: { from: new Date('2026-11-22T08:00:00Z'), before: new Date('2026-11-22T12:00:00.251Z') },
    });
  });

  it.each([
    [{ from: 'yesterday' }, 'from must be an ISO 8601 date'],
    [{ from: '2026-02-30' }, 'from must be an ISO 8601 date'],
    [{ to: '2026-11-22T10:00:00' }, 'to must be an ISO 8601 date'],
    [{ to: '2026-13-01' }, 'to must be an ISO 8601 date'],
    [{ from: '2026-11-23', to: '2026-11-22' }, 'from must be before to'],
  ])('refuses the range %j: %s', (query, error) => {
    expect(read(query, (q) => q.range())).toEqual({ ok: false, error });
  });
});

describe('parseIsoDate', () => {
  it('reads a date as midnight UTC and a timestamp with its offset', () => {
    expect(parseIsoDate('2028-02-29')).toEqual({ at: new Date('2028-02-29T00:00:00Z'), dateOnly: true });
    expect(parseIsoDate('2026-11-22T10:00Z')).toEqual({ at: new Date('2026-11-22T10:00:00Z'), dateOnly: false });
    expect(parseIsoDate('2026-02-29')).toBeNull();
    expect(parseIsoDate('22/11/2026')).toBeNull();
  });
});

describe('rawQuery', () => {
  it('copies an object and reads anything else as empty', () => {
    expect(rawQuery(Object.assign(Object.create(null), { a: '1' }))).toEqual({ a: '1' });
    expect(rawQuery(undefined)).toEqual({});
  });
});
