// A Redis of the fault test's own: redis-server on a free port with its data in a temporary
// directory and the append-only file on, as production should run it, so a test can kill it and
// start it again without disturbing anything else.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort } from '@mp/testing';

export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  /** SIGKILL: a crash. What it acknowledged is in the append-only file already (written before each reply). */
  kill(): Promise<void>;
  /** Starts it again on the same port and directory (it reloads the append-only file) and waits until it answers. */
  start(): Promise<void>;
  /** Kills it and removes its directory. */
  remove(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 500, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    // While it loads the append-only file Redis answers LOADING, which throws here.
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'mp-fault-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec'];
  args.push('--maxmemory-policy', 'noeviction');
  let child: ChildProcess | undefined;
  let output = '';
  const start = async (): Promise<void> => {
    child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 30_000;
    while (!(await answers(url))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server on ${port} did not answer:\n${output}`);
      await new Promise((wake) => setTimeout(wake, 100));
    }
  };
  const kill = async (): Promise<void> => {
    if (!child) return;
    child.kill('SIGKILL');
    await exited(child);
  };
  // Its server would outlive a run that ends without remove().
  const killOnExit = (): void => void child?.kill('SIGKILL');
  process.once('exit', killOnExit);
  await start();
  return {
    port,
    url,
    kill,
    start,
    remove: async () => {
      process.off('exit', killOnExit);
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
