// A throwaway PgBouncer for tests: Debian's pgbouncer (1.18 in bookworm: no prepared statements
// in transaction mode) on a free loopback port, in front of the PostgreSQL of `databaseUrl`,
// its configuration and pid file in a temporary directory. Any database name is passed through.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopChild, waitFor } from './service-process';
import { freePort } from './stack';

export interface PgBouncerOptions {
  /** The PostgreSQL to pool, as a postgres:// URL; its user must be able to log in without a password (trust). */
  databaseUrl: string;
  /** `transaction` (default) or `session`. */
  poolMode?: 'transaction' | 'session';
  /** Server connections per database and user (default 5): smaller than the apps' pools, so they share. */
  poolSize?: number;
}

export interface RunningPgBouncer {
  /** `databaseUrl` with PgBouncer's host and port. */
  url: string;
  /** PgBouncer's admin console (database `pgbouncer`, as the same user): SHOW POOLS, SHOW CLIENTS… in the simple query protocol. */
  adminUrl: string;
  port: number;
  /** Everything PgBouncer logged so far. */
  logs(): string;
  /** Stops PgBouncer and removes its directory. */
  stop(): Promise<void>;
}

/** Starts PgBouncer and resolves once its port accepts connections. Needs Debian's pgbouncer (/usr/sbin/pgbouncer). */
export async function startPgBouncer(options: PgBouncerOptions): Promise<RunningPgBouncer> {
  const server = new URL(options.databaseUrl);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mp-pgbouncer-'));
  // PgBouncer refuses to run as root; then it runs as postgres, which must read its directory.
  chmodSync(dir, 0o755);
  const user = decodeURIComponent(server.username || 'postgres');
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`);
  writeFileSync(join(dir, 'pgbouncer.ini'), config(server, port, dir, user, options));
  const asRoot = process.getuid?.() === 0;
  const child = spawn(executable(), [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.unref();
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    (stream as unknown as { unref?: () => void } | null)?.unref?.();
  }
  const stop = async (): Promise<void> => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => child.exitCode === null && (await accepts(port)), `pgbouncer on ${port}`);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}:\n${output}`);
  }
  const url = new URL(options.databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  const adminUrl = new URL(url);
  adminUrl.pathname = '/pgbouncer';
  return { url: url.toString(), adminUrl: adminUrl.toString(), port, logs: () => output, stop };
}

function config(server: URL, port: number, dir: string, user: string, options: PgBouncerOptions): string {
  return `[databases]
* = host=${server.hostname} port=${server.port || 5432}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(dir, 'userlist.txt')}
admin_users = ${user}
pool_mode = ${options.poolMode ?? 'transaction'}
default_pool_size = ${options.poolSize ?? 5}
max_client_conn = 1000
max_db_connections = ${options.poolSize ?? 5}
ignore_startup_parameters = extra_float_digits
server_reset_query =
`;
}

function executable(): string {
  return existsSync('/usr/sbin/pgbouncer') ? '/usr/sbin/pgbouncer' : 'pgbouncer';
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
