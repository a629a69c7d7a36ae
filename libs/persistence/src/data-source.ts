import { DataSource } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export interface DataSourceOptions {
  url: string;
  /** Shown in pg_stat_activity, so an operator sees which app holds a connection. */
  applicationName: string;
  poolSize?: number;
}

export function createDataSource({ url, applicationName, poolSize = 10 }: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName,
    extra: { max: poolSize, connectionTimeoutMillis: 5_000 },
  });
}

/** Any number to lock on, as long as every migrating process uses the same one. */
const MIGRATION_LOCK = 7_262_011;

/**
 * Runs pending migrations under a Postgres advisory lock, so that several processes starting at
 * once (replicas, test workers) apply each migration exactly once. Returns the names applied.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
