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
 * Sorting by the key itself (not by the id) keeps the order total even if two ids share a key.
 * OFFSET 0 keeps the subquery, and so its ORDER BY, below the calls that take the locks.
 */
export async function lockCarrierIds(manager: EntityManager, carrierMessageIds: readonly string[]): Promise<void> {
  if (carrierMessageIds.length === 0) return;
  await manager.query(
    `SELECT pg_advisory_xact_lock(keys.key)
     FROM (SELECT DISTINCT hashtextextended(id, 0) AS key FROM unnest($1::text[]) AS id ORDER BY key OFFSET 0) keys`,
    [carrierMessageIds],
  );
}

/** Locks the message rows (those that exist) in id order; every part and message write comes after. */
export async function lockMessages(manager: EntityManager, messageIds: readonly string[]): Promise<string[]> {
  if (messageIds.length === 0) return [];
  const rows: { id: string }[] = await manager.query(`SELECT id FROM messages WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`, [
    [...new Set(messageIds)],
  ]);
  return rows.map((row) => row.id);
}
