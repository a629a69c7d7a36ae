// A postmaster.pid left in the data directory by a crash must not stop the next start: a server
// still running from an earlier run is stopped, a lock of a dead one removed.
import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Output } from './output';

/** The server's pid: the first line of postmaster.pid. */
export function parsePostmasterPid(contents: string): number | undefined {
  const first = contents.split('\n', 1)[0]?.trim() ?? '';
  if (!/^\d+$/.test(first)) return undefined;
  const pid = Number(first);
  return pid > 0 ? pid : undefined;
}

/** Whether a process's command line (NUL-separated, as in /proc) is a postgres server of dataDir. */
export function isPostmasterOf(cmdline: string, dataDir: string): boolean {
  const args = cmdline.split('\0').filter((arg) => arg !== '');
  const program = args[0] ?? '';
  if (!/(^|\/)postgres$/.test(program)) return false;
  const dirIndex = args.indexOf('-D');
  return dirIndex >= 0 && args[dirIndex + 1]?.replace(/\/+$/, '') === dataDir.replace(/\/+$/, '');
}

/** Whether pid names a live process (a zombie is not alive; one we may not signal is). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** The parent's pid, from /proc/<pid>/stat (whose second field, the name, may hold spaces). */
export function parentPidOf(stat: string): number | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
}

/** Whether the server is run by a live dev-stack (its parent is a postgres runner). */
function isManaged(pid: number): boolean {
  try {
    const ppid = parentPidOf(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    return ppid !== undefined && (commandLineOf(ppid) ?? '').includes('postgres-runner');
  } catch {
    return false;
  }
}

function commandLineOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
}

async function waitForDeath(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return !isAlive(pid);
}

/** Stops a server left running: fast shutdown, then immediate shutdown, then SIGKILL. */
async function stopOrphan(pid: number): Promise<void> {
  const steps: [NodeJS.Signals, number][] = [
    ['SIGINT', 20_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ];
  for (const [signal, timeoutMs] of steps) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    if (await waitForDeath(pid, timeoutMs)) return;
  }
  throw new Error(`Could not stop the PostgreSQL server (pid ${pid}) left running from an earlier run`);
}

/** Makes the data directory startable after a crash of the dev-stack or of PostgreSQL. */
export async function clearStalePostmaster(dataDir: string, output: Output): Promise<void> {
  const file = join(dataDir, 'postmaster.pid');
  if (!existsSync(file)) return;
  const pid = parsePostmasterPid(readFileSync(file, 'utf8'));
  if (pid !== undefined && isAlive(pid)) {
    const cmdline = commandLineOf(pid);
    if (cmdline === undefined) return; // cannot tell (no /proc): let postgres judge its lock itself
    if (isPostmasterOf(cmdline, dataDir)) {
      if (isManaged(pid)) throw new Error(`Another dev-stack already runs PostgreSQL on ${dataDir} (pid ${pid})`);
      output.warn(`PostgreSQL (pid ${pid}) is still running from an earlier run; stopping it`);
      await stopOrphan(pid);
    }
  }
  if (existsSync(file)) {
    unlinkSync(file);
    output.info(`removed the stale ${file}`);
  }
}
