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
 * A transaction whose first statements travel with its BEGIN, in one round trip, instead of
 * one round trip each: on a loaded machine every round trip also waits for the caller's busy
 * event loop. `opening` is one or more `;`-separated statements sent in the simple query
 * protocol, so without parameters: build its values with sqlLiteral and sqlArray only. Each
 * statement gets its own snapshot (READ COMMITTED), so a read after a lock in `opening` sees
 * what committed while it waited. `work` gets the opening statements' results, in order, and
 * runs in the transaction; COMMIT follows it, ROLLBACK any error.
 */
export async function inTransactionOpenedWith<T>(
  db: DataSource,
  opening: string,
  work: (manager: EntityManager, opened: SimpleResult[]) => Promise<T>,
): Promise<T> {
  const runner = db.createQueryRunner();
  const client = (await runner.connect()) as SimpleQueryClient;
  try {
    const results = await client.query(`BEGIN; ${opening}`);
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
