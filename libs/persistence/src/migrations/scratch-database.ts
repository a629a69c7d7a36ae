import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '../data-source';
import { MIGRATIONS } from './index';

// For the migrations' own integration specs only (not exported): libs/testing depends on this
// library, so these cannot come from there.

/** A database of its own, migrated, for a spec that moves migrations down and up. */
export interface ScratchDatabase {
  db: DataSource;
  /** Undoes every migration from `migration` (included) to the newest. */
  undoFrom(migration: (typeof MIGRATIONS)[number]): Promise<void>;
  /** Closes it and drops the database. */
  drop(): Promise<void>;
}

/**
 * Makes `mp_test_<run>_<suffix>` on the test run's server (MP_TEST_SERVER_URL and MP_TEST_RUN of
 * the integration global setup) and migrates it; drop() it in afterAll.
 */
export async function openScratchDatabase(suffix: string, testRun: { server?: string; run?: string }): Promise<ScratchDatabase> {
  const { server, run } = testRun;
  if (!server || !run) throw new Error('openScratchDatabase needs the integration global setup');
  const database = `mp_test_${run}_${suffix}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(server);
  url.pathname = `/${database}`;
  const db = createDataSource({ url: url.toString(), applicationName: `test-${suffix}`, poolSize: 2 });
  await db.initialize();
  await runMigrations(db);
  return {
    db,
    undoFrom: async (migration) => {
      for (let i = MIGRATIONS.indexOf(migration); i < MIGRATIONS.length; i++) await db.undoLastMigration({ transaction: 'each' });
    },
    drop: async () => {
      await db.destroy();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    },
  };
}
