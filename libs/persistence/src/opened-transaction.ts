import type { DataSource, EntityManager } from 'typeorm';
import { transactionPooled } from './pooler';
import { statementName } from './prepared-query';
import type { Sql } from './sql';
import { quoteLiteral } from './sql-literal';

interface SimpleQueryClient {
  query(text: string): Promise<SimpleResult | SimpleResult[]>;
}

/** One statement's result in a simple-protocol query. */
export interface SimpleResult {
  rows: Record<string, unknown>[];
  /** The statement's command tag (SELECT, PREPARE…). */
  command?: string;
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
 * A statement and its parameter values as a driver takes them (strings, numbers, booleans, null,
 * and arrays of those), to send with the COMMIT: kept prepared on each connection, as a
 * PreparedOpening is, and sent as EXECUTE with the values written as literals.
 */
export interface PreparedCall {
  text: string;
  values: readonly unknown[];
}

/** Sends `call` and the COMMIT in one round trip; answers the call's result. The transaction is over once it resolves. */
export type CommitWith = (call: PreparedCall) => Promise<SimpleResult>;

/**
 * For a transaction's opening (inTransactionOpenedWith): its prepared statements run with the plan
 * made once for all values. Left to itself, PostgreSQL plans a prepared statement afresh for
 * each call whenever the array sizes of the calls make a custom plan look cheaper than the
 * generic one, and planning the dispatcher's statements anew every time costs as much as running
 * them (docs/decisions/0007-dispatch-finds-rows-by-key.md). Every statement it is meant for finds
 * rows by key.
 */
export const GENERIC_PLANS = 'SET LOCAL plan_cache_mode = force_generic_plan';

/**
 * A transaction whose first statements travel with its BEGIN, in one round trip, instead of
 * one round trip each: on a loaded machine every round trip also waits for the caller's busy
 * event loop. The opening is sent in the simple query protocol, so without parameters (see
 * Opening). Each statement gets its own snapshot (READ COMMITTED), so a read after a lock in
 * the opening sees what committed while it waited. `work` gets the opening statements' results,
 * in order, and runs in the transaction; COMMIT follows it, ROLLBACK any error. Its last
 * statement may travel with the COMMIT (`commitWith`): then a row it locks is held only until
 * the commit, not for one more round trip.
 */
export async function inTransactionOpenedWith<T>(
  db: DataSource,
  opening: readonly Opening[],
  work: (manager: EntityManager, opened: SimpleResult[], commitWith: CommitWith) => Promise<T>,
): Promise<T> {
  const pooled = transactionPooled(db);
  return onConnection(db, opening, async (client, manager) => {
    let committed = false;
    const commitWith: CommitWith = async (call) => {
      const statement = openingOf(call);
      if (!pooled) await prepareOn(client, [statement]);
      const [result] = resultsOf(await client.query([...preparedInTransaction([statement], pooled), sqlOf(statement), 'COMMIT'].join('; ')));
      committed = true;
      return result;
    };
    const results = await client.query(['BEGIN', ...preparedInTransaction(opening, pooled), ...opening.map(sqlOf)].join('; '));
    const value = await work(manager, resultsOf(results).slice(1), commitWith);
    if (!committed) await client.query('COMMIT');
    return value;
  });
}

/**
 * A whole transaction in one round trip: BEGIN, `statements`, COMMIT, for a transaction whose
 * statements do not depend on what the ones before answered. Answers the statements' results, in
 * order; on an error nothing of it is committed.
 */
export function inOneRoundTrip(db: DataSource, statements: readonly Opening[]): Promise<SimpleResult[]> {
  const prepares = preparedInTransaction(statements, transactionPooled(db));
  return onConnection(db, statements, async (client) =>
    resultsOf(await client.query(['BEGIN', ...prepares, ...statements.map(sqlOf), 'COMMIT'].join('; '))).slice(1, -1),
  );
}

/** A pooled connection with `statements`' prepared ones PREPAREd on it, for `use`; ROLLBACK if it fails. */
async function onConnection<T>(
  db: DataSource,
  statements: readonly Opening[],
  use: (client: SimpleQueryClient, manager: EntityManager) => Promise<T>,
): Promise<T> {
  const runner = db.createQueryRunner();
  const client = (await runner.connect()) as SimpleQueryClient;
  try {
    if (!transactionPooled(db)) await prepareOn(client, statements);
    return await use(client, runner.manager);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
  }
}

/**
 * A statement made with `sql` whose values are already SQL literals (sqlLiteral, sqlArray) as an
 * opening: its parameters are EXECUTE's arguments as they are.
 */
export function openingWithLiterals(statement: Sql): PreparedOpening {
  return { text: statement.text, args: statement.values as string[] };
}

/** A statement with its driver values as an opening: the values written as literals. */
export function openingOf(call: PreparedCall): PreparedOpening {
  return { text: call.text, args: call.values.map(literalOf) };
}

/** A value as an SQL literal, for statements sent without parameters. */
export function sqlLiteral(value: string | Date): string {
  return quoteLiteral(value instanceof Date ? value.toISOString() : value);
}

/** An array of values as an SQL literal of `type[]`, for statements sent without parameters. */
export function sqlArray(values: readonly (string | Date)[], type: string): string {
  return `ARRAY[${values.map(sqlLiteral).join(', ')}]::${type}[]`;
}

const preparedByConnection = new WeakMap<object, Set<string>>();

/**
 * A value as the literal of an EXECUTE argument: the text a driver would send for it (arrays in
 * PostgreSQL's array syntax), quoted; PostgreSQL reads it as the parameter's type.
 */
export function literalOf(value: unknown): string {
  return value === null || value === undefined ? 'NULL' : quoteLiteral(Array.isArray(value) ? arrayText(value) : String(value));
}

function arrayText(values: readonly unknown[]): string {
  const element = (value: unknown): string => {
    if (value === null || value === undefined) return 'NULL';
    if (Array.isArray(value)) return arrayText(value);
    return `"${String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  };
  return `{${values.map(element).join(',')}}`;
}

/** The results of the statements sent, without those of the PREPAREs sent in the transaction (preparedInTransaction). */
function resultsOf(results: SimpleResult | SimpleResult[]): SimpleResult[] {
  return (Array.isArray(results) ? results : [results]).filter((result) => result.command !== 'PREPARE' && result.command !== 'DEALLOCATE');
}

/**
 * Behind PgBouncer in transaction mode (DataSourceOptions.pooler) a connection is PgBouncer's,
 * not a server's: a statement PREPAREd in one transaction may be missing, or another's, in the
 * next. There the prepared statements are PREPAREd in the transaction that EXECUTEs them, after
 * DEALLOCATE ALL drops what an earlier transaction on that server connection left (one that
 * failed before its end). Elsewhere: none, they are prepared once per connection (prepareOn).
 */
function preparedInTransaction(statements: readonly Opening[], pooled: boolean): string[] {
  if (!pooled) return [];
  const texts = new Set(statements.flatMap((statement) => (typeof statement === 'string' ? [] : [statement.text])));
  return texts.size === 0 ? [] : ['DEALLOCATE ALL', ...[...texts].map((text) => `PREPARE ${nameOf(text)} AS ${text}`)];
}

/** PREPAREs, once per connection and each in its own round trip, the prepared statements it has not seen yet. */
async function prepareOn(client: SimpleQueryClient, statements: readonly Opening[]): Promise<void> {
  let prepared = preparedByConnection.get(client);
  if (!prepared) preparedByConnection.set(client, (prepared = new Set()));
  for (const statement of statements) {
    if (typeof statement === 'string') continue;
    const name = nameOf(statement.text);
    if (prepared.has(name)) continue;
    await client.query(`PREPARE ${name} AS ${statement.text}`);
    prepared.add(name);
  }
}

function sqlOf(statement: Opening): string {
  return typeof statement === 'string' ? statement : executeSql(statement.text, statement.args);
}

function executeSql(text: string, args: readonly string[]): string {
  const name = nameOf(text);
  return args.length === 0 ? `EXECUTE ${name}` : `EXECUTE ${name}(${args.join(', ')})`;
}

function nameOf(text: string): string {
  return statementName('mp_open_', text);
}
