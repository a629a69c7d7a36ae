// Runs the whole stack for an end-to-end test: the compiled dev-stack (`npm start` without the
// build; run `npm run build` first) on the test run's database, Redis and queue prefix, with every
// app on a free port and its data directory in a temporary directory.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCompiled } from './compiled-process';
import { gatewayRunning } from './test-traffic';

export interface StackOptions {
  /**
   * Variables for the dev-stack, over the test run's; an empty value unsets one (e.g.
   * DATABASE_URL: '' starts an embedded PostgreSQL). MP_DATA_DIR defaults to a temporary
   * directory, removed by stop().
   */
  env?: Record<string, string>;
  /** The processes to run (MP_APPS); default all. */
  apps?: string[];
}

export interface RunningStack {
  gatewayUrl: string;
  /** Sends SIGINT and waits until the dev-stack (which stops everything it started) has exited. */
  stop(): Promise<void>;
  /** Everything the dev-stack printed so far. */
  logs(): string;
}

const MAIN = 'dist/out/tools/dev-stack/src/main.js';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 60_000;
/** The processes besides the gateway; each is given a free port through <NAME>_PORT. */
const WORKERS = ['otp', 'sms-dispatcher', 'billing', 'webhook-notifier', 'smsc-simulator', 'whatsapp-simulator'];

/** Ports this process has handed out: the OS may offer a port again once its probe closes. */
const handedOut = new Set<number>();

function probePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * A port nothing listens on right now (the OS's choice), never one this process handed out
 * before: a stack's apps all get their ports before any of them binds, and two apps given the
 * same port once made the gateway's URL answer with a worker's health server.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await probePort();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function portVariable(name: string): string {
  return `${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_PORT`;
}

async function stackEnv(options: StackOptions, dataDir: string, gatewayPort: number): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: process.env['DATABASE_URL'] ?? '',
    REDIS_URL: process.env['REDIS_URL'] ?? '',
    QUEUE_PREFIX: process.env['QUEUE_PREFIX'] ?? '',
    HOST: '127.0.0.1',
    PORT: String(gatewayPort),
    MP_DATA_DIR: dataDir,
    MP_APPS: (options.apps ?? []).join(','),
    // Tests receive webhooks on 127.0.0.1.
    WEBHOOK_ALLOW_LOOPBACK: process.env['WEBHOOK_ALLOW_LOOPBACK'] || 'true',
  };
  for (const worker of WORKERS) env[portVariable(worker)] = String(await freePort());
  // The SMPP port the simulator listens on and the dispatcher connects to.
  env['SMSC_PORT'] = String(await freePort());
  // The otp app sends to the WhatsApp simulator, wherever the options put it.
  const whatsappPort = options.env?.[portVariable('whatsapp-simulator')] ?? env[portVariable('whatsapp-simulator')];
  env['WHATSAPP_API_BASE_URL'] = `http://127.0.0.1:${whatsappPort}`;
  return { ...env, ...carriersFromOwnDatabase(options.env), ...options.env };
}

/** A database of the spec's own: its dispatcher reads carriers from it (global-setup.js says why not from the run's). */
export function carriersFromOwnDatabase(env: Record<string, string> | undefined): Record<string, string> {
  return env?.['DATABASE_URL'] ? { CARRIERS_FROM: 'database' } : {};
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveExit) => child.once('exit', () => resolveExit()));
}

async function waitUntilHealthy(url: string, child: ChildProcess, logs: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The dev-stack exited (code ${child.exitCode}, signal ${child.signalCode}) before ${url} answered:\n${logs()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((wake) => setTimeout(wake, 250));
  }
  throw new Error(`${url} did not answer 200 within ${READY_TIMEOUT_MS / 1000} s:\n${logs()}`);
}

async function stopChild(child: ChildProcess, logs: () => string): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGINT');
  let timeout: NodeJS.Timeout | undefined;
  const timer = new Promise<'timeout'>((wake) => (timeout = setTimeout(() => wake('timeout'), STOP_TIMEOUT_MS)));
  const outcome = await Promise.race([exited(child), timer]);
  clearTimeout(timeout);
  if (outcome === 'timeout') {
    child.kill('SIGKILL');
    await exited(child);
    throw new Error(`The dev-stack did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGINT:\n${logs()}`);
  }
}

/** Starts the dev-stack and resolves once the gateway's GET /health answers 200. */
export async function startStack(options: StackOptions = {}): Promise<RunningStack> {
  const ownDataDir = options.env?.['MP_DATA_DIR'] ? undefined : mkdtempSync(join(tmpdir(), 'mp-stack-'));
  const gatewayPort = options.env?.['PORT'] ? Number(options.env['PORT']) : await freePort();
  const env = await stackEnv(options, ownDataDir ?? '', gatewayPort);
  // The IPC channel is the dev-stack's lifeline: when this process goes away (a test run that
  // ends, crashes or times out without stop()), the dev-stack stops everything by itself.
  const { child, logs } = spawnCompiled(MAIN, env);
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const stop = async (): Promise<void> => {
    gatewayRunning(gatewayUrl, false);
    try {
      await stopChild(child, logs);
    } finally {
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
    }
  };
  try {
    await waitUntilHealthy(`${gatewayUrl}/health`, child, logs);
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
  gatewayRunning(gatewayUrl, true);
  return { gatewayUrl, stop, logs };
}
