// One run of a benchmark against the SMS path, whichever endpoint it loads: its settings, a
// throwaway database and Redis prefix with one company, the stack as `npm start` runs it, and
// the cleaning up afterwards, whatever happens.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
// A benchmark harness is test tooling: it starts the stack exactly as the end-to-end tests do.
import { freePort, startStack, type RunningStack } from '@mp/testing';
import { positive, redisVersion, repoRoot, runAdmin, say, waitForHealth } from './bench-process';
import { stopLoadOnInterrupt, type Company } from './http-load';
import { machine, revision, type Machine, type Revision } from './results';
import { serverProcesses, type ServerProcesses } from './server-processes';
import { createThrowawayServices, type ThrowawayServices } from './throwaway-services';

export const RECEIPT_DELAY_MS = 1_000;
export const APPS = ['gateway', 'sms-dispatcher', 'smsc-simulator'];
const OPENING_BALANCE = '1000000';

/** One run: its settings from the environment, when it started, and the commit it measures. */
export interface Run {
  root: string;
  durationS: number;
  connections: number;
  started: Date;
  rev: Revision;
}

/** A run with its throwaway services and its own session on the run's database. */
export interface Bench {
  run: Run;
  services: ThrowawayServices;
  db: Client;
  database: string;
  /** The SMSC simulator's inspection API (GET /stats, /messages). */
  simulatorUrl: string;
  /** The PostgreSQL and Redis server processes the run uses, whose CPU time it counts. */
  servers: ServerProcesses;
}

/** The company that sends every request, as company:create prints it. */
export interface BenchCompany extends Company {
  company_id: string;
  appid: string;
}

/** The environment of the admin tool and the stack: the run's database, Redis prefix, log level. */
export type RunEnv = Record<string, string>;

/** The stack's settings of the sms and otp runs: the simulator sends receipts after a second. */
export const DEFAULT_STACK_ENV: RunEnv = { SMSC_RECEIPT_DELAY_MS: String(RECEIPT_DELAY_MS) };

interface StackPorts {
  dispatcher: number;
  simulator: number;
}

export function newRun(env: NodeJS.ProcessEnv): Run {
  const durationS = positive(env['BENCH_DURATION_S'], 30, 'BENCH_DURATION_S');
  const connections = Math.round(positive(env['BENCH_CONNECTIONS'], 64, 'BENCH_CONNECTIONS'));
  const root = repoRoot();
  for (const entry of ['dist/out/tools/dev-stack/src/main.js', 'dist/out/tools/admin/src/main.js']) {
    if (!existsSync(join(root, entry))) throw new Error(`${entry} is missing: run npm run build first`);
  }
  return { root, durationS, connections, started: new Date(), rev: revision(root) };
}

/** Migrates the run's database and creates the one company that sends every request. */
export async function createBenchCompany(root: string, env: NodeJS.ProcessEnv): Promise<BenchCompany> {
  await runAdmin(root, ['db:migrate'], env);
  return createCompany(root, env, 'Bench');
}

/** One more company with the same large balance, on a migrated database. */
export async function createCompany(root: string, env: NodeJS.ProcessEnv, name: string): Promise<BenchCompany> {
  return (await runAdmin(root, ['company:create', '--name', name, '--balance', OPENING_BALANCE], env)) as unknown as BenchCompany;
}

function startBenchStack(runEnv: RunEnv, stackEnv: RunEnv, ports: StackPorts, run: string): Promise<RunningStack> {
  say(`starting ${APPS.join(', ')}`);
  return startStack({
    apps: APPS,
    env: {
      ...runEnv,
      ...stackEnv,
      SMS_DISPATCHER_PORT: String(ports.dispatcher),
      SMSC_SIMULATOR_PORT: String(ports.simulator),
      // Marks the run's processes, to find them in /proc for their CPU time.
      MP_BENCH_RUN: run,
    },
  });
}

/**
 * The run's lifecycle: throwaway services, `prepare` on the migrated database (with the admin
 * tool's environment), the stack (with `stackEnv` over the run's environment), `measure` against
 * the gateway; then everything removed.
 */
export async function withBench<T>(
  run: Run,
  prepare: (env: NodeJS.ProcessEnv) => Promise<T>,
  measure: (bench: Bench, gatewayUrl: string, prepared: T) => Promise<void>,
  stackEnv: RunEnv = DEFAULT_STACK_ENV,
): Promise<void> {
  const ports: StackPorts = { dispatcher: await freePort(), simulator: await freePort() };
  const stopHandlingInterrupt = stopLoadOnInterrupt();
  say('creating a throwaway database and queue prefix');
  const services = await createThrowawayServices(process.env);
  const runEnv: RunEnv = { DATABASE_URL: services.databaseUrl, REDIS_URL: services.redisUrl, QUEUE_PREFIX: services.queuePrefix, LOG_LEVEL: 'warn' };
  const db = new Client({ connectionString: services.databaseUrl, application_name: 'bench' });
  const database = new URL(services.databaseUrl).pathname.slice(1);
  const bench: Bench = { run, services, db, database, simulatorUrl: `http://127.0.0.1:${ports.simulator}`, servers: { postgres: null, redis: null } };
  let stack: RunningStack | undefined;
  try {
    await db.connect();
    bench.servers = await serverProcesses(db, services.redisUrl);
    const prepared = await prepare({ ...process.env, ...runEnv });
    stack = await startBenchStack(runEnv, stackEnv, ports, services.run);
    await waitForHealth(`http://127.0.0.1:${ports.dispatcher}/health/ready`);
    await measure(bench, stack.gatewayUrl, prepared);
  } catch (error) {
    if (stack) process.stderr.write(`[bench] the stack's last output:\n${stack.logs().split('\n').slice(-30).join('\n')}\n`);
    throw error;
  } finally {
    stopHandlingInterrupt();
    await db.end().catch(() => undefined);
    try {
      await stack?.stop();
    } finally {
      say('removing the throwaway database and queue keys');
      await services.remove();
    }
  }
}

/** The machine, with the versions of the run's PostgreSQL and Redis. */
export async function hostMachine({ db, services }: Bench): Promise<Machine> {
  const versions = await db.query<{ server_version: string }>(`SHOW server_version`);
  return machine(`PostgreSQL ${versions.rows[0].server_version}`, await redisVersion(services.redisUrl));
}
