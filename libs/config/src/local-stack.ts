import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where `npm start` records the services it started, so the admin tool finds them too. */
export const LOCAL_STACK_FILE = join(process.cwd(), '.data', 'stack.json');

export interface LocalStack {
  databaseUrl: string;
  redisUrl: string;
}

/** The database URL of the stack `npm start` runs on this checkout, if one recorded itself. */
export function localStackDatabaseUrl(file = LOCAL_STACK_FILE): string | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const stack = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalStack>;
    return typeof stack.databaseUrl === 'string' ? stack.databaseUrl : undefined;
  } catch {
    return undefined;
  }
}
