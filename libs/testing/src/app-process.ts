// Runs ONE compiled app as its own process, outside the dev-stack, for a test that must kill it
// and start it again: the dev-stack stops everything as soon as one of its apps dies. Same
// conventions as stack.ts: `npm run build` first, the run's environment (DATABASE_URL, REDIS_URL,
// QUEUE_PREFIX, LOG_LEVEL) passed on, a free port, ready once GET /health/ready answers 200.
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { spawnCompiled } from './compiled-process';
import { carriersFromOwnDatabase, freePort } from './stack';

export interface AppProcessOptions {
  /** The app's directory under apps/, e.g. 'sms-dispatcher' (dist/out/apps/<app>/src/main.js). */
  app: string;
  /** Variables over the test run's; PORT defaults to a free port, HOST to 127.0.0.1. */
  env?: Record<string, string>;
  /** How long to wait for /health/ready (default 60 s). */
  readyTimeoutMs?: number;
}

export interface AppExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface AppProcess {
  readonly app: string;
  readonly pid: number;
  /** http://127.0.0.1:<PORT>, where /health/live and /health/ready answer. */
  readonly url: string;
  /** Resolves when the process has exited, however it ended. */
  readonly exited: Promise<AppExit>;
  /** Sends the signal (default SIGTERM) to this process only and waits until it has exited. */
  kill(signal?: NodeJS.Signals): Promise<AppExit>;
  /** SIGTERM, then SIGKILL if it has not exited within timeoutMs (default 30 s); a no-op once exited. */
  stop(timeoutMs?: number): Promise<AppExit>;
  /** Everything the process printed so far. */
  logs(): string;
}

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;

/**
 * The child's lifeline, loaded before the app: when the test process that started it goes away
 * (a run that crashes or times out without stop()), the IPC channel closes and the app exits,
 * as startStack's dev-stack does. Nothing else of the app changes.
 */
const LIFELINE = `data:text/javascript,process.on('disconnect',()=>process.exit(1))`;

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function waitUntilReady(url: string, child: ChildProcess, timeoutMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (hasExited(child)) {
      throw new Error(`${describe()} exited (code ${child.exitCode}, signal ${child.signalCode}) before ${url} answered`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((wake) => setTimeout(wake, 200));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s (${describe()})`);
}

/**
 * Starts `node -r tools/runtime/register.js dist/out/apps/<app>/src/main.js` with the run's env
 * and resolves once its /health/ready answers 200. Stop it (stop() or kill()) in afterAll.
 */
export async function startAppProcess(options: AppProcessOptions): Promise<AppProcess> {
  const entry = join('dist/out/apps', options.app, 'src/main.js');
  const port = options.env?.['PORT'] ? Number(options.env['PORT']) : await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', ...carriersFromOwnDatabase(options.env), ...options.env, PORT: String(port) };
  // The lifeline ends the app if the test process goes away without stopping it.
  const { child, logs } = spawnCompiled(entry, env, ['--import', LIFELINE]);
  const exited = new Promise<AppExit>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit({ code, signal }));
    child.once('error', () => resolveExit({ code: child.exitCode, signal: child.signalCode }));
  });
  const describe = (): string => `${options.app} (pid ${child.pid ?? '?'})`;
  const kill = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<AppExit> => {
    if (!hasExited(child)) child.kill(signal);
    return exited;
  };
  const stop = async (timeoutMs = STOP_TIMEOUT_MS): Promise<AppExit> => {
    if (hasExited(child)) return exited;
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((wake) => (timer = setTimeout(() => wake('timeout'), timeoutMs)));
    const outcome = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    return outcome === 'timeout' ? kill('SIGKILL') : outcome;
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(`${url}/health/ready`, child, options.readyTimeoutMs ?? READY_TIMEOUT_MS, describe);
  } catch (error) {
    await stop(5_000);
    throw new Error(`${(error as Error).message}:\n${logs()}`);
  }
  if (child.pid === undefined) throw new Error(`${describe()} has no pid`);
  return { app: options.app, pid: child.pid, url, exited, kill, stop, logs };
}
