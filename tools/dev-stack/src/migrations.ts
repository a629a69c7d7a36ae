import { createDataSource, runMigrations } from '@mp/persistence';
import type { Output } from './output';

/** Applies the pending migrations to the database at url, saying what it applied. */
export async function migrate(url: string, output: Output): Promise<void> {
  // runMigrations holds a lock on one connection while migrating on another.
  const dataSource = createDataSource({ url, applicationName: 'dev-stack', poolSize: 2 });
  await dataSource.initialize();
  try {
    const applied = await runMigrations(dataSource);
    if (applied.length === 0) output.info('database schema is up to date');
    for (const name of applied) output.info(`applied migration ${name}`);
  } finally {
    await dataSource.destroy();
  }
}
