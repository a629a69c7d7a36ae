import { lockKeysInOrderOpening, openingWithLiterals, sql, sqlArray, type Opening, type Sql } from '@mp/persistence';
import type { EntityManager } from 'typeorm';

/*
 * Every dispatch transaction takes its locks in one global order, so that any number of them,
 * in one process or several, can never wait on each other in a cycle:
 *   1. the advisory locks of its carrier ids, by ascending lock key;
 *   2. message rows, by ascending id: those of messages with several parts, before it reads
 *      their parts' states to settle them (or all of its messages, when it has no carrier id);
 *   3. only then writes to messages.
 * A part that has a carrier id is only ever written under that id's advisory lock, so part
 * writes never wait. A message with ONE part is likewise only written by the holders of its one
 * carrier id's lock (scheduled messages, which cancel and release write, have none yet): its row
 * needs no lock of its own, which saves a row lock (a heap write) per message twice in its life.
 */

/**
 * Serialises the two writers of one carrier id — the receipt and the recording of the submit
 * response — so the second always sees the first: otherwise, running at the same moment, each
 * could look for the other before it committed, and the receipt would never be applied. A
 * statement to open the transaction with (inKeyedTransaction), none for no ids.
 */
export function carrierIdLocks(carrierMessageIds: readonly string[]): Opening[] {
  return carrierMessageIds.length === 0 ? [] : [lockKeysInOrderOpening(carrierMessageIds)];
}

/** Locks the message rows (those that exist) in id order; every part and message write comes after. */
export async function lockMessages(manager: EntityManager, messageIds: readonly string[]): Promise<string[]> {
  if (messageIds.length === 0) return [];
  const rows: { id: string }[] = await manager.query(`SELECT id FROM messages WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`, [[...new Set(messageIds)]]);
  return rows.map((row) => row.id);
}

/**
 * Locks, in id order, the rows of those of these messages that have several parts: two
 * transactions can each move one of their parts (under different carrier ids), and the second to
 * take the row lock then sees the first's part when it settles the message.
 */
export async function lockMultipartMessages(manager: EntityManager, messageIds: readonly string[]): Promise<void> {
  if (messageIds.length === 0) return;
  const statement = lockMultipartSql(sql`${[...new Set(messageIds)]}::uuid[]`);
  await manager.query(statement.text, statement.values);
}

/** lockMultipartMessages as a statement to open the transaction with, after carrierIdLocks. */
export function multipartMessageLocks(messageIds: readonly string[]): Opening[] {
  return messageIds.length === 0 ? [] : [openingWithLiterals(lockMultipartSql(sql`${sqlArray([...new Set(messageIds)], 'uuid')}::uuid[]`))];
}

function lockMultipartSql(ids: Sql): Sql {
  return sql`SELECT id FROM messages WHERE id = ANY(${ids}) AND parts > 1 ORDER BY id FOR UPDATE`;
}
