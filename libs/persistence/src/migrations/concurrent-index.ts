import type { QueryRunner } from 'typeorm';

/**
 * CREATE INDEX CONCURRENTLY, for a migration that runs outside a transaction (`transaction =
 * false`): the table keeps taking writes while the index is built. A build that stopped midway
 * (an error, a killed process) leaves an invalid index behind, which is dropped and built again;
 * a valid one is kept, so the migration can simply be run again.
 */
export async function createIndexConcurrently(db: QueryRunner, name: string, definition: string): Promise<void> {
  const [found]: { valid: boolean }[] = await db.query(
    `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
    [name],
  );
  if (found && !found.valid) await db.query(`DROP INDEX CONCURRENTLY ${name}`);
  await db.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON ${definition}`);
}

/** DROP INDEX CONCURRENTLY: waits for the queries using it instead of blocking the table's writes. */
export async function dropIndexConcurrently(db: QueryRunner, name: string): Promise<void> {
  await db.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
}
