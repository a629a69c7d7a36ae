import { GENERIC_PLANS, inOneRoundTrip, inTransactionOpenedWith, type Opening, type SimpleResult } from '@mp/persistence';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * Runs dispatch statements in one transaction planned to find rows by key (ids and carrier ids
 * in arrays). Statistics taken while few parts were pending (or the table was small) make the
 * planner scan message_parts instead, once per statement, a cost that grows with the table
 * (docs/decisions/0007-dispatch-finds-rows-by-key.md). Keys, always, and plans made once
 * (GENERIC_PLANS). The settings and the `locks` (see dispatch-locks.ts) travel with the BEGIN:
 * they cost no round trip of their own.
 */
export function inKeyedTransaction<T>(db: DataSource, work: (manager: EntityManager) => Promise<T>, locks: readonly Opening[] = []): Promise<T> {
  return inTransactionOpenedWith(db, [...KEYED, ...locks], (manager) => work(manager));
}

/** inKeyedTransaction for statements that do not depend on each other's answers: all in one round trip with BEGIN and COMMIT. */
export async function inKeyedRoundTrip(db: DataSource, statements: readonly Opening[]): Promise<SimpleResult[]> {
  return (await inOneRoundTrip(db, [...KEYED, ...statements])).slice(KEYED.length);
}

const KEYED = ['SET LOCAL enable_seqscan = off', GENERIC_PLANS];
