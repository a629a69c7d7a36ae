import type { DataSource } from 'typeorm';

/** Rows created in [from, before): either bound may be open. */
export interface CreatedRange {
  from: Date | null;
  before: Date | null;
}

/** 1-based page of `limit` rows. */
export interface PageRequest {
  page: number;
  limit: number;
}

export interface Paged<T> {
  items: T[];
  page: number;
  limit: number;
  total: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether text can be an OTP id at all: anything else matches no row (and must not reach a uuid column). */
export function isOtpId(text: string): boolean {
  return UUID.test(text);
}

/** A WHERE clause built from conditions and their numbered parameters. */
export class SqlWhere {
  readonly params: unknown[] = [];
  private readonly conditions: string[] = [];

  /** A parameter placeholder (`$n`) for the value. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** Adds `<left> $n`, e.g. `add('o.company_id =', id)`. */
  add(left: string, value: unknown): this {
    this.conditions.push(`${left} ${this.param(value)}`);
    return this;
  }

  /** Adds the condition only when a value is given. */
  addIf(left: string, value: unknown): this {
    return value === null || value === undefined ? this : this.add(left, value);
  }

  addRange(column: string, range: CreatedRange): this {
    return this.addIf(`${column} >=`, range.from).addIf(`${column} <`, range.before);
  }

  get sql(): string {
    return this.conditions.length === 0 ? 'true' : this.conditions.join(' AND ');
  }
}

export interface PagedQuery<Row, Item> {
  columns: string;
  /** FROM ... (joins included); every parameter it uses must be one of `where`'s. */
  from: string;
  where: SqlWhere;
  orderBy: string;
  page: PageRequest;
  map: (row: Row) => Item;
}

/** One page of rows and the count of all rows that match. */
export async function pagedQuery<Row, Item>(db: DataSource, query: PagedQuery<Row, Item>): Promise<Paged<Item>> {
  const { columns, from, where, orderBy, page } = query;
  const offset = (page.page - 1) * page.limit;
  const n = where.params.length;
  const [rows, counted] = await Promise.all([
    db.query(`SELECT ${columns} FROM ${from} WHERE ${where.sql} ORDER BY ${orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`, [
      ...where.params,
      page.limit,
      offset,
    ]) as Promise<Row[]>,
    db.query(`SELECT count(*)::int AS total FROM ${from} WHERE ${where.sql}`, where.params) as Promise<{ total: number }[]>,
  ]);
  return { items: rows.map(query.map), page: page.page, limit: page.limit, total: counted[0].total };
}
