import { createHash } from 'node:crypto';
import { escapeLiteral } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';

interface SimpleQueryClient {
  query(text: string): Promise<SimpleResult | SimpleResult[]>;
}

/** One statement's result in a simple-protocol query. */
export interface SimpleResult {
  rows: Record<string, unknown>[];
}

/**
 * A statement of an opening that each connection keeps prepared (PREPARE once, then EXECUTE):
 * parsed once per connection, instead of parsed and planned in every transaction as a plain
 * text statement is. `text` numbers its parameters $1, $2… and casts each to its type; `args`
 * are their values as SQL literals (sqlLiteral, sqlArray), in order. `text` must come from a
 * small fixed set (never with values inside): each connection keeps every one it has seen.
 */
export interface PreparedOpening {
  text: string;
  args: readonly string[];
}

/** A statement to open a transaction with: plain text without parameters, or a PreparedOpening. */
export type Opening = string | PreparedOpening;

/**
 * A transaction whose first statements travel with its BEGIN, in one round trip, instead of
 * one round trip each: on a loaded machine every round trip also waits for the caller's busy
 * event loop. The opening is sent in the simple query protocol, so without parameters (see
 * Opening). Each statement gets its own snapshot (READ COMMITTED), so a read after a lock in
 * the opening sees what committed while it waited. `work` gets the opening statements' results,
 * in order, and runs in the transaction; COMMIT follows it, ROLLBACK any error.
 */
export async function inTransactionOpenedWith<T>(
  db: DataSource,
  opening: readonly Opening[],
  work: (manager: EntityManager, opened: SimpleResult[]) => Promise<T>,
): Promise<T> {
  const runner = db.createQueryRunner();
  const client = (await runner.connect()) as SimpleQueryClient;
  try {
    await prepareOn(client, opening);
    const results = await client.query(['BEGIN', ...opening.map(sqlOf)].join('; '));
    const value = await work(runner.manager, (Array.isArray(results) ? results : [results]).slice(1));
    await client.query('COMMIT');
    return value;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
  }
}

/** A value as an SQL literal, for statements sent without parameters. */
export function sqlLiteral(value: string | Date): string {
  return escapeLiteral(value instanceof Date ? value.toISOString() : value);
}

/** An array of values as an SQL literal of `type[]`, for statements sent without parameters. */
export function sqlArray(values: readonly (string | Date)[], type: string): string {
  return `ARRAY[${values.map(sqlLiteral).join(', ')}]::${type}[]`;
}

const preparedByConnection = new WeakMap<object, Set<string>>();
const namesByText = new Map<string, string>();

/** PREPAREs, once per connection and each in its own round trip, the statements of `opening` it has not seen yet. */
async function prepareOn(client: SimpleQueryClient, opening: readonly Opening[]): Promise<void> {
  let prepared = preparedByConnection.get(client);
  if (!prepared) preparedByConnection.set(client, (prepared = new Set()));
  for (const statement of opening) {
    if (typeof statement === 'string') continue;
    const name = nameOf(statement.text);
    if (prepared.has(name)) continue;
    await client.query(`PREPARE ${name} AS ${statement.text}`);
    prepared.add(name);
  }
}

function sqlOf(statement: Opening): string {
  if (typeof statement === 'string') return statement;
  const name = nameOf(statement.text);
  return statement.args.length === 0 ? `EXECUTE ${name}` : `EXECUTE ${name}(${statement.args.join(', ')})`;
}

function nameOf(text: string): string {
  let name = namesByText.get(text);
  if (!name) {
    name = `mp_open_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    namesByText.set(text, name);
  }
  return name;
}
