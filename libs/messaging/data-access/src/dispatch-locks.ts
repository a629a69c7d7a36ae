import { lockKeysInOrder } from '@mp/persistence';
import type { EntityManager } from 'typeorm';

/*
 * Every dispatch transaction takes its locks in one global order, so that any number of them,
 * in one process or several, can never wait on each other in a cycle:
 *   1. the advisory locks of its carrier ids, by ascending lock key;
 *   2. its message rows, by ascending id;
 *   3. only then writes to message_parts and messages (parts only of messages it has locked).
 */

/**
 * Serialises the two writers of one carrier id — the receipt and the recording of the submit
 * response — so the second always sees the first: otherwise, running at the same moment, each
 * could look for the other before it committed, and the receipt would never be applied.
 */
export async function lockCarrierIds(manager: EntityManager, carrierMessageIds: readonly string[]): Promise<void> {
  await lockKeysInOrder(manager, carrierMessageIds);
}

/** Locks the message rows (those that exist) in id order; every part and message write comes after. */
export async function lockMessages(manager: EntityManager, messageIds: readonly string[]): Promise<string[]> {
  if (messageIds.length === 0) return [];
  const rows: { id: string }[] = await manager.query(`SELECT id FROM messages WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`, [
    [...new Set(messageIds)],
  ]);
  return rows.map((row) => row.id);
}
