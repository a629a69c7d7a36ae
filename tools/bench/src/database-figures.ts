// What the run's PostgreSQL database tells about a window: where its sessions wait, what it did
// per accepted message, which backends served the run, and how soon accepted messages were
// submitted to the carrier.
import type { Client } from 'pg';

/**
 * Counts of (app, state, wait event) among the run's database sessions, sampled while loading;
 * with `withStatements`, also of the statement each active session runs (its first characters).
 */
export class WaitSampler {
  readonly counts = new Map<string, number>();
  readonly statements = new Map<string, number>();
  samples = 0;
  private timer?: NodeJS.Timeout;
  private busy = false;

  constructor(
    private readonly db: Client,
    private readonly database: string,
    private readonly withStatements = false,
  ) {}

  start(everyMs = 500): void {
    this.timer = setInterval(() => void this.sample(), everyMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  top(limit = 12): { session: string; share: number }[] {
    return this.shares(this.counts, limit, 10).map(([session, share]) => ({ session, share }));
  }

  topStatements(limit = 10): { statement: string; share: number }[] {
    return this.shares(this.statements, limit, 100).map(([statement, share]) => ({ statement, share }));
  }

  private shares(counts: Map<string, number>, limit: number, scale: number): [string, number][] {
    return [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([key, count]) => [key, Math.round((count / Math.max(1, this.samples)) * scale) / scale]);
  }

  private async sample(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const { rows } = await this.db.query<{ app: string; state: string | null; type: string | null; event: string | null; query: string }>(
        `SELECT application_name AS app, state, wait_event_type AS type, wait_event AS event, left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query
         FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
        [this.database],
      );
      this.samples += 1;
      for (const row of rows) {
        if (row.state === 'idle') continue;
        const key = `${row.app || '?'} ${row.state ?? '?'} ${row.type ? `${row.type}:${row.event}` : 'on CPU'}`;
        this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
        if (this.withStatements && row.state === 'active') this.statements.set(`${key}: ${row.query}`, (this.statements.get(`${key}: ${row.query}`) ?? 0) + 1);
      }
    } catch {
      // a missed sample
    } finally {
      this.busy = false;
    }
  }
}

export type DatabaseCounters = Record<string, number>;

/** The run database's activity counters (commits, rollbacks, rows), to compare before and after. */
export async function databaseCounters(db: Client, database: string): Promise<DatabaseCounters> {
  const { rows } = await db.query<Record<string, string>>(
    `SELECT xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, tup_updated, tup_deleted, blks_read, blks_hit
     FROM pg_stat_database WHERE datname = $1`,
    [database],
  );
  return Object.fromEntries(Object.entries(rows[0] ?? {}).map(([name, value]) => [name, Number(value)]));
}

/** What the database did per accepted message over the window (the statistics lag by up to a second). */
export function perAccepted(before: DatabaseCounters, after: DatabaseCounters, accepted: number): Record<string, number> {
  return Object.fromEntries(
    Object.keys(after).map((name) => [name, accepted > 0 ? Math.round(((after[name] - (before[name] ?? 0)) / accepted) * 10) / 10 : 0]),
  );
}

export async function backendPids(db: Client, database: string): Promise<number[]> {
  const { rows } = await db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [database]);
  return rows.map((row) => row.pid);
}

export function appName(command: string): string {
  if (command.includes('apps/gateway/')) return 'gateway';
  if (command.includes('apps/sms-dispatcher/')) return 'sms-dispatcher';
  if (command.includes('smsc-simulator')) return 'smsc-simulator';
  if (command.includes('dev-stack')) return 'dev-stack';
  return 'other';
}

export interface SubmitFigures {
  samples: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  pending: number;
}

/** The messages created in a window: all of them, or only one company's (`companyId`). */
function windowMessages(from: Date, to: Date, companyId?: string): { where: string; params: unknown[] } {
  const where = 'm.created_at >= $1 AND m.created_at <= $2';
  return companyId === undefined ? { where, params: [from, to] } : { where: `m.company_id = $3 AND ${where}`, params: [from, to, companyId] };
}

/** Acceptance → submit over the messages created in the window (only `companyId`'s, if given). */
export async function submitFigures(db: Client, from: Date, to: Date, companyId?: string): Promise<SubmitFigures> {
  const { where, params } = windowMessages(from, to, companyId);
  const { rows } = await db.query<{ samples: string; p50: number | null; p99: number | null; max: number | null; pending: string }>(
    `SELECT count(p.submitted_at) AS samples,
            percentile_disc(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM p.submitted_at - m.created_at) * 1000) AS p50,
            percentile_disc(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM p.submitted_at - m.created_at) * 1000) AS p99,
            max(extract(epoch FROM p.submitted_at - m.created_at) * 1000) AS max,
            count(*) FILTER (WHERE p.status = 'pending') AS pending
     FROM messages m JOIN message_parts p ON p.message_id = m.id
     WHERE ${where}`,
    params,
  );
  const row = rows[0];
  const ms = (value: number | null) => (value === null ? null : Math.round(Number(value) * 10) / 10);
  return { samples: Number(row.samples), p50Ms: ms(row.p50), p99Ms: ms(row.p99), maxMs: ms(row.max), pending: Number(row.pending) };
}

export async function pendingParts(db: Client, from: Date, to: Date, companyId?: string): Promise<number> {
  const { where, params } = windowMessages(from, to, companyId);
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM messages m JOIN message_parts p ON p.message_id = m.id
     WHERE ${where} AND p.status = 'pending'`,
    params,
  );
  return Number(rows[0].n);
}

/** The activity and dead rows of the run's busiest tables (autovacuum may be off on the server). */
export async function tableFigures(db: Client, tables: readonly string[]): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT relname AS table, n_live_tup, n_dead_tup, seq_scan, seq_tup_read, idx_scan, n_tup_upd, n_tup_hot_upd, last_autovacuum, last_autoanalyze
     FROM pg_stat_user_tables WHERE relname = ANY($1::text[]) ORDER BY relname`,
    [tables],
  );
  return rows.map((row) =>
    Object.fromEntries(Object.entries(row).map(([name, value]) => [name, typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value])),
  );
}
