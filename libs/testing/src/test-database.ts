import { createDataSource, runMigrations, type DataSourceOptions } from '@mp/persistence';
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
