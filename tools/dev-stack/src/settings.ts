import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseProcessFilter } from './processes';

export type Env = Record<string, string | undefined>;

/** What the environment asks of the stack (see the variables listed in main.ts). */
export interface StackSettings {
  repoRoot: string;
  /** Where the embedded PostgreSQL's data, Redis's directory and stack.json live. */
  dataDir: string;
  /** Unset: start an embedded PostgreSQL. */
  databaseUrl?: string;
  /** Unset: use redis://127.0.0.1:6379, starting redis-server there if nothing answers. */
  redisUrl?: string;
  host: string;
  logLevel: string;
  nodeEnv: string;
  queuePrefix?: string;
  /** The names given in MP_APPS; undefined means every process. */
  apps?: string[];
}

/** An empty variable counts as unset, as it does for the apps' configuration. */
function value(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
}

export function readSettings(env: Env, repoRoot: string): StackSettings {
  const dataDir = value(env, 'MP_DATA_DIR');
  return {
    repoRoot,
    dataDir: dataDir ? resolve(repoRoot, dataDir) : join(repoRoot, '.data'),
    databaseUrl: value(env, 'DATABASE_URL'),
    redisUrl: value(env, 'REDIS_URL'),
    host: value(env, 'HOST') ?? '127.0.0.1',
    logLevel: value(env, 'LOG_LEVEL') ?? 'info',
    nodeEnv: value(env, 'NODE_ENV') ?? 'development',
    queuePrefix: value(env, 'QUEUE_PREFIX'),
    apps: parseProcessFilter(env['MP_APPS']),
  };
}

/** The repository root: the nearest directory above `from` that holds nx.json. */
export function findRepoRoot(from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No nx.json above ${from}: run the dev-stack from the repository`);
  }
}

/** The host to reach a server on that listens on `host` (a wildcard address is reached on loopback). */
export function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** A URL fit for a log line: its password, if any, masked. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
