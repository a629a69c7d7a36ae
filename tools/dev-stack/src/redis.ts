// Redis for the stack: REDIS_URL if set; otherwise redis://127.0.0.1:6379, started as a child
// (redis-server, no persistence) when nothing answers there and redis-server is on the PATH.
import { accessSync, constants, mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { parseRedisUrl } from '@mp/queue-runtime';
import Redis, { Cluster } from 'ioredis';
import type { Output } from './output';
import { redactUrl } from './settings';
import type { Supervisor } from './supervisor';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
export const REDIS_NAME = 'redis';
const DEFAULT_PORT = 6379;

/** Whether a Redis server answers PING at url within timeoutMs. */
export async function pingRedis(url: string, timeoutMs = 1_000): Promise<boolean> {
  const options = { lazyConnect: true, connectTimeout: timeoutMs, commandTimeout: timeoutMs, maxRetriesPerRequest: 0 };
  const target = parseRedisUrl(url);
  const redis =
    target.kind === 'server'
      ? new Redis(url, { ...options, enableOfflineQueue: false, retryStrategy: () => null })
      : new Cluster(target.nodes, {
          lazyConnect: true,
          clusterRetryStrategy: () => null,
          redisOptions: { ...options, username: target.username, password: target.password, ...(target.tls ? { tls: {} } : {}) },
        });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** The full path of an executable found on PATH, if any. */
export function findOnPath(program: string, path = process.env['PATH'] ?? ''): string | undefined {
  for (const dir of path.split(delimiter).filter((entry) => entry !== '')) {
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The arguments of a throwaway redis-server on loopback: no snapshots, no append-only file. */
export function redisServerArgs(port: number, dir: string): string[] {
  return ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
}

async function waitForPing(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await pingRedis(url, 500)) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/** Starts redis-server on 127.0.0.1:port under the supervisor and waits until it answers. */
export async function startRedisServer(port: number, dataDir: string, supervisor: Supervisor): Promise<string> {
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const url = `redis://127.0.0.1:${port}`;
  const server = findOnPath('redis-server');
  if (!server) throw new Error(`Nothing answers at ${url} and redis-server is not on the PATH: install Redis or set REDIS_URL`);
  const managed = supervisor.spawn({
    name: REDIS_NAME,
    role: 'service',
    command: server,
    args: redisServerArgs(port, dir),
    env: process.env,
  });
  const ready = await Promise.race([waitForPing(url, 10_000), managed.exited.then(() => false)]);
  if (!ready) throw new Error(`redis-server did not answer on ${url}`);
  return url;
}

/** The Redis URL to give the apps, starting a server if needed (see the top of this file). */
export async function ensureRedis(configured: string | undefined, dataDir: string, supervisor: Supervisor, output: Output): Promise<string> {
  if (configured) {
    if (!(await pingRedis(configured, 2_000))) throw new Error(`Redis at REDIS_URL=${redactUrl(configured)} does not answer PING`);
    output.info(`using Redis at ${redactUrl(configured)}`);
    return configured;
  }
  if (await pingRedis(DEFAULT_REDIS_URL)) {
    output.info(`using the Redis already running at ${DEFAULT_REDIS_URL}`);
    return DEFAULT_REDIS_URL;
  }
  output.info(`nothing answers at ${DEFAULT_REDIS_URL}; starting redis-server`);
  return startRedisServer(DEFAULT_PORT, dataDir, supervisor);
}
