import { createHash } from 'node:crypto';
import { QueryFailedError, type EntityManager } from 'typeorm';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { transactionPooled } from './pooler';

/** A statement and its parameter values, as `sql` makes them. */
export interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
}

interface PgClient {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs a statement as a named prepared statement of a pooled connection (the transaction's, when
 * `manager` runs one): PostgreSQL parses it once per connection and, once its plans settle, plans
 * it once too. The group commits and the dispatcher's flushes run the same few statements
 * thousands of times, and parsing and planning them afresh each time would be a large share of
 * PostgreSQL's work (docs/decisions/0020-named-prepared-statements.md). Answers the rows, as
 * EntityManager.query does for a statement that returns rows.
 *
 * A statement is named after its text's hash. Give only texts made from a small, fixed set of
 * variants (never with values inside): each connection keeps every one it has seen.
 *
 * Behind PgBouncer in transaction mode (DataSourceOptions.pooler) the statement goes unnamed:
 * PgBouncer 1.18 does not follow named statements from one server connection to another.
 */
export async function queryPrepared<Row>(manager: EntityManager, statement: Statement): Promise<Row[]>;
export async function queryPrepared<Row>(manager: EntityManager, text: string, values: readonly unknown[]): Promise<Row[]>;
export async function queryPrepared<Row>(manager: EntityManager, statement: Statement | string, parameters: readonly unknown[] = []): Promise<Row[]> {
  const text = typeof statement === 'string' ? statement : statement.text;
  const values = (typeof statement === 'string' ? parameters : statement.values) as unknown[];
  const name = transactionPooled(manager.connection) ? undefined : nameOf(text);
  const own = manager.queryRunner ? undefined : manager.connection.createQueryRunner();
  const runner = (manager.queryRunner ?? own) as PostgresQueryRunner;
  try {
    const client = (await runner.connect()) as PgClient;
    return (await client.query({ name, text, values })).rows as Row[];
  } catch (error) {
    throw error instanceof QueryFailedError ? error : new QueryFailedError(text, values, error as Error);
  } finally {
    await own?.release();
  }
}

function nameOf(text: string): string {
  return statementName('mp_', text);
}

const namesByPrefixAndText = new Map<string, string>();

/**
 * A prepared statement's name made from its text: the same text always gets the same name. The
 * prefix keeps apart the names of statements prepared by the driver (queryPrepared) and by SQL
 * PREPARE (inTransactionOpenedWith), which share one namespace per connection.
 */
export function statementName(prefix: string, text: string): string {
  const key = `${prefix}\u0000${text}`;
  let name = namesByPrefixAndText.get(key);
  if (!name) {
    name = `${prefix}${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    namesByPrefixAndText.set(key, name);
  }
  return name;
}
