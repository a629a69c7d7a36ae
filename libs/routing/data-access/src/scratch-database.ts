import { createDataSource, runMigrations } from '@mp/persistence';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * For this lib's integration specs only (not exported): a migrated database of their own, since
 * carriers and routes are global (every company's traffic) and "no carrier yet" is a state of the
 * whole table, which specs sharing the run's database could not see or would disturb. `server`
 * and `run`: MP_TEST_SERVER_URL and MP_TEST_RUN of the integration global setup.
 */
export async function openRoutingScratchDatabase(
  suffix: string,
  { server, run }: { server?: string; run?: string },
): Promise<{ db: DataSource; drop(): Promise<void> }> {
  if (!server || !run) throw new Error('openRoutingScratchDatabase needs the integration global setup');
  const database = `mp_test_${run}_routing_${suffix}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(server);
  url.pathname = `/${database}`;
  const db = createDataSource({ url: url.toString(), applicationName: `test-routing-${suffix}`, poolSize: 4 });
  await db.initialize();
  await runMigrations(db);
  return {
    db,
    drop: async () => {
      await db.destroy();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    },
  };
}
