import { join, raw, sql, type Sql } from '@mp/persistence';
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

/** A WHERE clause built from conditions and their values (parameters, numbered where the clause is put). */
export class SqlWhere {
  private readonly conditions: Sql[] = [];

  /** Adds `<left> <value>`, e.g. `add('o.company_id =', id)`; `left` is SQL text, never a value. */
  add(left: string, value: unknown): this {
    this.conditions.push(sql`${raw(left)} ${value}`);
    return this;
  }

  /** Adds the condition only when a value is given. */
  addIf(left: string, value: unknown): this {
    return value === null || value === undefined ? this : this.add(left, value);
  }

  addRange(column: string, range: CreatedRange): this {
    return this.addIf(`${column} >=`, range.from).addIf(`${column} <`, range.before);
  }

  get clause(): Sql {
    return this.conditions.length === 0 ? raw('true') : join(this.conditions, ' AND ');
  }
}

export interface PagedQuery<Row, Item> {
  columns: string;
  /** FROM ... (joins included). */
  from: string | Sql;
  where: SqlWhere;
  orderBy: string;
  page: PageRequest;
  map: (row: Row) => Item;
}

/** One page of rows and the count of all rows that match. */
export async function pagedQuery<Row, Item>(db: DataSource, query: PagedQuery<Row, Item>): Promise<Paged<Item>> {
  const { page } = query;
  const from = typeof query.from === 'string' ? raw(query.from) : query.from;
  const where = query.where.clause;
  const offset = (page.page - 1) * page.limit;
  const rows = sql`SELECT ${raw(query.columns)} FROM ${from} WHERE ${where} ORDER BY ${raw(query.orderBy)} LIMIT ${page.limit} OFFSET ${offset}`;
  const count = sql`SELECT count(*)::int AS total FROM ${from} WHERE ${where}`;
  const [found, counted] = await Promise.all([
    db.query(rows.text, rows.values) as Promise<Row[]>,
    db.query(count.text, count.values) as Promise<{ total: number }[]>,
  ]);
  return { items: found.map(query.map), page: page.page, limit: page.limit, total: counted[0].total };
}
