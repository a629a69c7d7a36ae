import { DataSource } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { markTransactionPooled, transactionPooled } from './pooler';

export interface DataSourceOptions {
  url: string;
  /** Shown in pg_stat_activity, so an operator sees which app holds a connection. */
  applicationName: string;
  poolSize?: number;
  /**
   * Every prepared statement of the app's connections runs with the plan made once for all
   * values (plan_cache_mode = force_generic_plan). For an app whose statements all find rows by
   * key, such as the dispatcher: left to itself, PostgreSQL re-plans a statement on every call
   * when small arrays make a custom plan look cheaper, and with one or two OTPs a job the
   * dispatcher's load statement spent three times as long being planned as running.
   */
  genericPlans?: boolean;
  /**
   * The TypeORM entities its repositories use, given by the libs that own their tables (the
   * accounts lib's ACCOUNTS_ENTITIES); none for a data source that only runs SQL.
   */
  entities?: readonly (new () => object)[];
  /**
   * `pgbouncer-transaction`: `url` is PgBouncer in transaction pooling mode, where each
   * transaction may run on another server connection. Then no statement is kept prepared on a
   * connection (queryPrepared and the prepared openings send their text each time), genericPlans
   * is ignored (PgBouncer refuses the `options` startup parameter) and runMigrations refuses to
   * run (its lock is a session's). Default `none`.
   */
  pooler?: 'none' | 'pgbouncer-transaction';
}

export function createDataSource({ url, applicationName, poolSize = 10, genericPlans = false, entities = [], pooler = 'none' }: DataSourceOptions): DataSource {
  const pooled = pooler === 'pgbouncer-transaction';
  const startupPlans = genericPlans && !pooled ? { options: '-c plan_cache_mode=force_generic_plan' } : {};
  const dataSource = new DataSource({
    type: 'postgres',
    url,
    entities: [...entities],
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName,
    extra: { max: poolSize, connectionTimeoutMillis: 5_000, ...startupPlans },
  });
  if (pooled) markTransactionPooled(dataSource);
  return dataSource;
}

/** Any number to lock on, as long as every migrating process uses the same one. */
const MIGRATION_LOCK = 7_262_011;

/** How long a process waiting for another's migrations sleeps between two tries of the lock. */
const MIGRATION_LOCK_RETRY_MS = 100;

/**
 * Runs pending migrations under a Postgres advisory lock, so that several processes starting at
 * once (replicas, test workers) apply each migration exactly once. Returns the names applied.
 *
 * The lock is tried, not waited for: a session blocked in pg_advisory_lock holds a snapshot, and
 * CREATE INDEX CONCURRENTLY (a migration run outside a transaction) waits for every snapshot older
 * than its own, so the waiting processes and the migrating one would wait for each other for ever.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  if (transactionPooled(dataSource)) {
    throw new Error(
      'Migrations hold a session advisory lock, which PgBouncer in transaction mode does not keep: run them against PostgreSQL itself (MIGRATION_DATABASE_URL)',
    );
  }
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    for (;;) {
      const [{ locked }]: { locked: boolean }[] = await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK]);
      if (locked) break;
      await new Promise((resolve) => setTimeout(resolve, MIGRATION_LOCK_RETRY_MS));
    }
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
