import { createDataSource, runMigrations, type DataSourceOptions } from '@mp/persistence';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * The run's database (made by global-setup), migrated; close it in afterAll. `entities`: those of
 * the repositories the spec uses through TypeORM (ACCOUNTS_ENTITIES for the accounts lib's).
 */
export async function openTestDataSource(applicationName = 'test', entities: DataSourceOptions['entities'] = []): Promise<DataSource> {
  const url = process.env['DATABASE_URL'];
  if (!url || !process.env['MP_TEST_RUN']) throw new Error('openTestDataSource needs the integration global setup');
  const dataSource = createDataSource({ url, applicationName, poolSize: 20, entities });
  await dataSource.initialize();
  await runMigrations(dataSource);
  return dataSource;
}

/** A database of a spec's own on the run's server, for what is global to a database (carriers, the margin report). */
export interface OwnDatabase {
  /** Its address: DATABASE_URL for the apps and the admin tool the spec starts. */
  url: string;
  /** Drops it (connections closed by force). */
  drop(): Promise<void>;
}

/**
 * Makes `mp_test_<run>_<suffix>`, empty, on the run's server (MP_TEST_SERVER_URL and MP_TEST_RUN
 * of the global setup); the spec migrates it (`admin db:migrate`, or openOwnDataSource).
 */
export async function createOwnDatabase(suffix: string): Promise<OwnDatabase> {
  const server = process.env['MP_TEST_SERVER_URL'];
  const run = process.env['MP_TEST_RUN'];
  if (!server || !run) throw new Error('createOwnDatabase needs the global setup');
  const database = `mp_test_${run}_${suffix}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(server);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** createOwnDatabase, migrated and opened; drop() closes it and drops the database. */
export async function openOwnDataSource(suffix: string, poolSize = 4): Promise<{ db: DataSource; url: string; drop(): Promise<void> }> {
  const own = await createOwnDatabase(suffix);
  const db = createDataSource({ url: own.url, applicationName: `test-${suffix}`, poolSize });
  await db.initialize();
  await runMigrations(db);
  return {
    db,
    url: own.url,
    drop: async () => {
      await db.destroy();
      await own.drop();
    },
  };
}
