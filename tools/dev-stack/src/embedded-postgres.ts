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
 * As root, PostgreSQL runs as the user "postgres", which must be able to reach its data directory:
 * the data dir is made traversable, and any ancestor that is not is reported.
 */
function makeReachableByPostgres(dataDir: string, output: Output): void {
  if (process.getuid?.() !== 0) return;
  const mode = statSync(dataDir).mode;
  if ((mode & 0o001) === 0) {
    chmodSync(dataDir, (mode & 0o7777) | 0o001);
    output.info(`made ${dataDir} traversable (o+x) for the postgres user`);
  }
  for (let dir = dirname(dataDir); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) {
      throw new Error(`PostgreSQL runs as the user "postgres", which cannot reach ${dir}: chmod o+x it or set MP_DATA_DIR`);
    }
    if (dirname(dir) === dir) return;
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
