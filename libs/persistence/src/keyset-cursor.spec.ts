import { decodeCursor, encodeCursor, keysetPage } from './keyset-cursor';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const DIGITS = /[0-9]{1,20}/;
const SHAPE = [DIGITS, UUID];
const KEY = ['1795046400123456', '019a8f0e-7c3d-7a11-9b2e-3f4a5b6c7d8e'];

describe('keyset cursors', () => {
  it('reads back the key it was made from', () => {
    const cursor = encodeCursor(KEY);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, SHAPE)).toEqual(KEY);
  });

  it('refuses a key of another shape: other length, other types, values that only contain a match', () => {
    expect(decodeCursor(encodeCursor([KEY[0]]), SHAPE)).toBeNull();
    expect(decodeCursor(encodeCursor([...KEY, 'x']), SHAPE)).toBeNull();
    expect(decodeCursor(encodeCursor([KEY[1], KEY[0]]), SHAPE)).toBeNull();
    expect(decodeCursor(encodeCursor([`${KEY[0]}; DROP TABLE messages`, KEY[1]]), SHAPE)).toBeNull();
    expect(decodeCursor(encodeCursor(['12', `x${KEY[1]}`]), SHAPE)).toBeNull();
    expect(decodeCursor(Buffer.from(JSON.stringify([123, KEY[1]])).toString('base64url'), SHAPE)).toBeNull();
    expect(decodeCursor(Buffer.from(JSON.stringify({ 0: KEY[0], 1: KEY[1] })).toString('base64url'), SHAPE)).toBeNull();
  });

  it('refuses what is not a cursor at all', () => {
    for (const text of ['', 'not a cursor', '%%%', 'e30', Buffer.from('[1,').toString('base64url'), 'A'.repeat(600)]) {
      expect(decodeCursor(text, SHAPE)).toBeNull();
    }
  });

  it('makes a page from one row more than the limit: the next cursor is the last row kept', () => {
    const rows = [1, 2, 3].map((n) => ({ n }));
    const page = keysetPage(
      rows,
      2,
      (row) => [String(row.n)],
      (row) => row.n * 10,
    );
    expect(page.items).toEqual([10, 20]);
    expect(decodeCursor(page.next_cursor ?? '', [DIGITS])).toEqual(['2']);
    expect(
      keysetPage(
        rows,
        3,
        (row) => [String(row.n)],
        (row) => row.n,
      ),
    ).toEqual({ items: [1, 2, 3], next_cursor: null });
    expect(
      keysetPage(
        [],
        3,
        () => [],
        (row) => row,
      ),
    ).toEqual({ items: [], next_cursor: null });
  });
});
