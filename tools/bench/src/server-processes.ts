// Which PostgreSQL and Redis processes on this machine serve the run, to count their CPU time:
// the parent of the run's own database session (the postmaster), and the process id Redis
// reports. Either is null when the server runs elsewhere (another host or container), where
// /proc does not show it.
import { readFileSync } from 'node:fs';
import Redis from 'ioredis';
import type { Client } from 'pg';
import { parseProcStat } from './process-cost';

export interface ServerProcesses {
  postgres: number | null;
  redis: number | null;
}

/** The process `pid` if its command line holds one of `names`, else null. */
function localProcess(pid: number | null | undefined, names: readonly string[]): number | null {
  if (!pid) return null;
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
    return names.some((name) => command.includes(name)) ? pid : null;
  } catch {
    return null;
  }
}

async function postmaster(db: Client): Promise<number | null> {
  const { rows } = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const backend = localProcess(rows[0]?.pid, ['postgres']);
  if (backend === null) return null;
  try {
    return localProcess(parseProcStat(readFileSync(`/proc/${backend}/stat`, 'utf8'))?.ppid, ['postgres']);
  } catch {
    return null;
  }
}

async function redisServer(url: string): Promise<number | null> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const pid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
    return localProcess(pid, ['redis', 'valkey']);
  } catch {
    return null;
  } finally {
    redis.disconnect();
  }
}

export async function serverProcesses(db: Client, redisUrl: string): Promise<ServerProcesses> {
  return { postgres: await postmaster(db), redis: await redisServer(redisUrl) };
}

/** The backends that are not the run's: other databases' sessions, and the benchmark's own. */
export async function othersBackends(db: Client, database: string): Promise<number[]> {
  const { rows } = await db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE (datname IS NOT NULL AND datname <> $1) OR pid = pg_backend_pid()`, [
    database,
  ]);
  return rows.map((row) => row.pid);
}
