/**
 * Opaque cursors for keyset pagination ("the rows after this one", never OFFSET): the sort key of
 * a page's last row, as text values, written as base64url JSON. A cursor is read back only
 * against the shape it was made for; anything else (edited, truncated, another list's) reads as
 * null, for the caller to refuse.
 */
export type CursorShape = readonly RegExp[];

/** A cursor that is not one of the list asked for: the caller answers 400 with this message. */
export class InvalidCursorError extends Error {
  constructor() {
    super('cursor is not valid: pass the next_cursor of the previous page as it was given');
    this.name = 'InvalidCursorError';
  }
}

/** The key of a row as a cursor. */
export function encodeCursor(key: readonly string[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Far more than any key of ours needs: a longer text is not a cursor of ours. */
const MAX_CURSOR_LENGTH = 512;

/** The key a cursor holds, if it has the shape given (one pattern per value, each matched whole); else null. */
export function decodeCursor(cursor: string, shape: CursorShape): string[] | null {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !BASE64URL.test(cursor)) return null;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(key) || key.length !== shape.length) return null;
  const values = key.filter((value): value is string => typeof value === 'string');
  if (values.length !== shape.length || !values.every((value, i) => wholeMatch(shape[i], value))) return null;
  return values;
}

/** decodeCursor, throwing InvalidCursorError for a cursor of another shape. */
export function decodeCursorOrThrow(cursor: string, shape: CursorShape): string[] {
  const key = decodeCursor(cursor, shape);
  if (key === null) throw new InvalidCursorError();
  return key;
}

function wholeMatch(pattern: RegExp, value: string): boolean {
  const match = pattern.exec(value);
  return match !== null && match.index === 0 && match[0].length === value.length;
}

/** A page of a keyset-paginated list: `next_cursor` is null on the last page. */
export interface KeysetPage<T> {
  items: T[];
  next_cursor: string | null;
}

/**
 * The page from rows read with one more than `limit`: the extra row only tells that there is a
 * next page, which starts after the last row kept.
 */
export function keysetPage<Row, Item>(rows: readonly Row[], limit: number, keyOf: (row: Row) => readonly string[], map: (row: Row) => Item): KeysetPage<Item> {
  const kept = rows.slice(0, limit);
  const last = kept.at(-1);
  return { items: kept.map(map), next_cursor: rows.length > limit && last !== undefined ? encodeCursor(keyOf(last)) : null };
}
