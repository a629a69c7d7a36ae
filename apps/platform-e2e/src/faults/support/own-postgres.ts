// A PostgreSQL of the fault test's own: Debian's binaries (/usr/lib/postgresql/<newest>/bin),
// a cluster in a temporary directory, on a free port, so that stopping and restarting it disturbs
// nothing else on the machine. As root, initdb and postgres run as the system user "postgres".
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@mp/testing';

const run = promisify(execFile);
const DEBIAN_ROOT = '/usr/lib/postgresql';

export interface OwnPostgres {
  readonly port: number;
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication, loopback only). */
  readonly url: string;
  /** Stops the server at once (`pg_ctl stop -m immediate`: connections cut, crash recovery on the next start). */
  kill(): Promise<void>;
  /** Starts it again on the same port and data, and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  remove(): Promise<void>;
  /** The server's log so far. */
  log(): Promise<string>;
}

function binariesDir(): string {
  const versions = existsSync(DEBIAN_ROOT) ? readdirSync(DEBIAN_ROOT).filter((v) => existsSync(join(DEBIAN_ROOT, v, 'bin', 'initdb'))) : [];
  if (versions.length === 0)
    throw new Error(`the fault tests need Debian's PostgreSQL server binaries in ${DEBIAN_ROOT}/<version>/bin (apt-get install postgresql)`);
  return join(DEBIAN_ROOT, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary, as the user "postgres" when this process is root (initdb and postgres refuse root). */
async function pgCommand(bin: string, program: string, args: string[], cwd: string): Promise<string> {
  const command = asRoot ? 'runuser' : join(bin, program);
  const argv = asRoot ? ['-u', 'postgres', '--', join(bin, program), ...args] : args;
  const { stdout } = await run(command, argv, { cwd, timeout: 120_000 });
  return stdout;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = binariesDir();
  const dir = mkdtempSync(join(tmpdir(), 'mp-fault-pg-'));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  const port = await freePort();
  await pgCommand(bin, 'initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-locale', '-E', 'UTF8', '--no-sync'], dir);
  // Only TCP on loopback; the socket directory is the test's own, so no lock file clashes with another server's.
  const serverOptions = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c max_connections=200`;
  const start = async (): Promise<void> => {
    await pgCommand(bin, 'pg_ctl', ['-D', data, '-l', logFile, '-o', serverOptions, '-w', '-t', '120', 'start'], dir);
  };
  const kill = async (): Promise<void> => {
    await pgCommand(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'], dir);
  };
  await start();
  // pg_ctl's server outlives this process: a run that ends without remove() stops it on the way out.
  const stopOnExit = (): void => {
    try {
      const stopArgs = [join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop'];
      if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', ...stopArgs], { stdio: 'ignore' });
      else execFileSync(stopArgs[0], stopArgs.slice(1), { stdio: 'ignore' });
    } catch {
      // not running
    }
  };
  process.once('exit', stopOnExit);
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    kill,
    start,
    remove: async () => {
      process.off('exit', stopOnExit);
      await kill().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
    log: async () => (await run('cat', [logFile]).catch(() => ({ stdout: '' }))).stdout,
  };
}
