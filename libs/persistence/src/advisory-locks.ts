import type { EntityManager } from 'typeorm';
import { openingWithLiterals, sqlArray, type PreparedOpening } from './opened-transaction';
import { queryPrepared } from './prepared-query';
import { sql, type Sql } from './sql';

/**
 * Takes transaction-scoped advisory locks on these keys, in one statement and in the order of
 * their lock values, so that any number of transactions locking overlapping sets cannot wait on
 * each other in a cycle. Sorting by the lock value (not the key) keeps the order total even if two
 * keys share a value; OFFSET 0 keeps the subquery, and so its ORDER BY, below the locking calls.
 */
export async function lockKeysInOrder(manager: EntityManager, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await queryPrepared(manager, lockKeysSql(sql`${keys}::text[]`));
}

/** lockKeysInOrder as a statement to open a transaction with (inTransactionOpenedWith). */
export function lockKeysInOrderOpening(keys: readonly string[]): PreparedOpening {
  return openingWithLiterals(lockKeysSql(sql`${sqlArray(keys, 'text')}::text[]`));
}

function lockKeysSql(keys: Sql): Sql {
  return sql`SELECT pg_advisory_xact_lock(locks.value)
     FROM (SELECT DISTINCT hashtextextended(key, 0) AS value FROM unnest(${keys}) AS key ORDER BY value OFFSET 0) locks`;
}
