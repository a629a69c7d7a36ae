import type { EntityManager } from 'typeorm';

/**
 * Serializes writers of carriers and routes: the trigger updates routing_version's one row
 * anyway, so taking its lock first costs nothing and lets a writer check the other rows (weights,
 * "no carrier yet") before it writes.
 */
export async function lockRouting(manager: EntityManager): Promise<void> {
  await manager.query(`SELECT version FROM routing_version FOR UPDATE`);
}
