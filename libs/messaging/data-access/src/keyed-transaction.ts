import { GENERIC_PLANS, inTransactionOpenedWith, type Opening } from '@mp/persistence';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * Runs dispatch statements in one transaction planned to find rows by key (ids and carrier ids
 * in arrays). Statistics taken while few parts were pending (or the table was small) make the
 * planner scan message_parts instead, once per statement: with a campaign in flight that costs
 * tens of milliseconds a statement and grows with the table. Keys, always, and plans made once
 * (GENERIC_PLANS). The settings and the `locks` (see dispatch-locks.ts) travel with the BEGIN:
 * they cost no round trip of their own.
 */
export function inKeyedTransaction<T>(db: DataSource, work: (manager: EntityManager) => Promise<T>, locks: readonly Opening[] = []): Promise<T> {
  return inTransactionOpenedWith(db, ['SET LOCAL enable_seqscan = off', GENERIC_PLANS, ...locks], (manager) => work(manager));
}
