import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalStack } from '@mp/config';

export const STACK_FILE_NAME = 'stack.json';

/**
 * Records the running stack's services in <data dir>/stack.json, where the admin tool (run from the
 * repository root, with the default data dir) finds the database. Rewritten on every start; left in
 * place on exit.
 */
export function writeStackFile(dataDir: string, stack: LocalStack): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, STACK_FILE_NAME);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(stack, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
  return file;
}
