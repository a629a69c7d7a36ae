import type { DataSource } from 'typeorm';
import { runMigrations } from '../data-source';
import { HOT_PATH_FOREIGN_KEYS, HotPathForeignKeys1764300000000, NEVER_DELETED_TABLES } from './1764300000000-hot-path-foreign-keys';
import { openScratchDatabase, type ScratchDatabase } from './scratch-database';

async function foreignKeys(db: DataSource): Promise<string[]> {
  const rows: { conname: string }[] = await db.query(`SELECT conname FROM pg_constraint WHERE contype = 'f' AND conname = ANY($1::text[]) ORDER BY conname`, [
    HOT_PATH_FOREIGN_KEYS.map(([, constraint]) => constraint),
  ]);
  return rows.map((row) => row.conname);
}

describe('the per-message tables without foreign keys (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let db: DataSource;

  beforeAll(async () => {
    scratch = await openScratchDatabase('fk', { server: process.env['MP_TEST_SERVER_URL'], run: process.env['MP_TEST_RUN'] });
    db = scratch.db;
  });

  afterAll(() => scratch?.drop());

  it('has none of the dropped keys', async () => {
    expect(await foreignKeys(db)).toEqual([]);
  });

  it.each(NEVER_DELETED_TABLES)('refuses to delete or truncate %s, whose rows others refer to', async (table) => {
    await expect(db.query(`DELETE FROM ${table} WHERE false`)).rejects.toThrow(/never deleted.*DELETE refused/);
    await expect(db.query(`TRUNCATE ${table} CASCADE`)).rejects.toThrow(/never deleted.*TRUNCATE refused/);
  });

  it('puts the keys back, and allows deleting again, when reverted; then drops them again', async () => {
    // This one and every migration after it.
    await scratch.undoFrom(HotPathForeignKeys1764300000000);
    expect(await foreignKeys(db)).toEqual(HOT_PATH_FOREIGN_KEYS.map(([, constraint]) => constraint).sort());
    await expect(db.query(`DELETE FROM messages WHERE false`)).resolves.toBeDefined();
    await runMigrations(db);
    expect(await foreignKeys(db)).toEqual([]);
  });
});
