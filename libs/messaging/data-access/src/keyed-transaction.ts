import { inTransactionOpenedWith } from '@mp/persistence';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * Runs dispatch statements in one transaction planned to find rows by key (ids and carrier ids
 * in arrays). Statistics taken while few parts were pending (or the table was small) make the
 * planner scan message_parts instead, once per statement: with a campaign in flight that costs
 * tens of milliseconds a statement and grows with the table. Keys, always. The setting travels
 * with the BEGIN, so it costs no round trip of its own.
 */
export function inKeyedTransaction<T>(db: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  return inTransactionOpenedWith(db, 'SET LOCAL enable_seqscan = off', (manager) => work(manager));
}
