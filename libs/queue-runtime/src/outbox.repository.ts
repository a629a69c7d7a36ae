import type { DataSource, EntityManager } from 'typeorm';
import { queryPrepared, sql, unnest, type Sql } from '@mp/persistence';
import { tracedJobData } from './job-tracing';

export interface OutboxJob {
  queue: string;
  jobName: string;
  /** The BullMQ job id: enqueueing the same id twice is a no-op, so the sweeper may retry freely. */
  jobId: string;
  data: unknown;
  notBefore: Date;
  priority: number | null;
}

export interface PendingOutboxJob extends OutboxJob {
  id: string;
}

/**
 * Jobs written in the same transaction as the rows they act on. The writer enqueues them right
 * after commit and marks them; a sweeper enqueues whatever was committed but never marked.
 */
export class OutboxRepository {
  constructor(private readonly db: DataSource) {}

  /** Inserts jobs; a job id already in the outbox is skipped (the job exists already). */
  async insertMany(manager: EntityManager, jobs: readonly OutboxJob[]): Promise<string[]> {
    if (jobs.length === 0) return [];
    const rows = await queryPrepared<{ id: string }>(manager, outboxRows(jobs));
    return rows.map((row) => String(row.id));
  }

  /** Records when each group of rows had its jobs enqueued (the mark may be written later). */
  async markEnqueued(groups: readonly { ids: readonly string[]; at: Date }[]): Promise<void> {
    const rows = groups.flatMap((group) => group.ids.map((id) => [id, group.at.toISOString()] as const));
    if (rows.length === 0) return;
    await queryPrepared(this.db.manager, `UPDATE outbox o SET enqueued_at = v.at FROM unnest($1::bigint[], $2::timestamptz[]) AS v(id, at) WHERE o.id = v.id`, [
      rows.map(([id]) => id),
      rows.map(([, at]) => at),
    ]);
  }

  /** Jobs committed and not yet enqueued (the partial index outbox_pending_idx holds exactly those). */
  async countPending(): Promise<number> {
    const [row] = (await this.db.query(`SELECT count(*)::int AS pending FROM outbox WHERE enqueued_at IS NULL`)) as { pending: number }[];
    return row.pending;
  }

  /** Jobs committed more than `olderThanMs` ago and still not enqueued, oldest first. */
  async findStale(olderThanMs: number, limit: number): Promise<PendingOutboxJob[]> {
    const rows: { id: string; queue: string; job_name: string; job_id: string; data: unknown; not_before: Date; priority: number | null }[] =
      await this.db.query(
        `SELECT id, queue, job_name, job_id, data, not_before, priority FROM outbox
         WHERE enqueued_at IS NULL AND created_at < now() - make_interval(secs => $1::double precision / 1000)
         ORDER BY created_at LIMIT $2`,
        [olderThanMs, limit],
      );
    return rows.map((row) => ({
      id: String(row.id),
      queue: row.queue,
      jobName: row.job_name,
      jobId: row.job_id,
      data: row.data,
      notBefore: new Date(row.not_before),
      priority: row.priority,
    }));
  }
}

/**
 * The INSERT of outbox jobs, answering the ids inserted; a job id already in the outbox is
 * skipped. Other repositories put it in their own statements (a CTE), so that the jobs are
 * committed with the rows they act on.
 */
export function outboxRows(jobs: readonly OutboxJob[]): Sql {
  return sql`INSERT INTO outbox (queue, job_name, job_id, data, not_before, priority)
          SELECT * FROM ${unnest([
            [jobs.map((j) => j.queue), 'text'],
            [jobs.map((j) => j.jobName), 'text'],
            [jobs.map((j) => j.jobId), 'text'],
            // While tracing, each job carries the trace of the work committing it (job-tracing.ts).
            [jobs.map((j) => JSON.stringify(tracedJobData(j.data))), 'jsonb'],
            [jobs.map((j) => j.notBefore.toISOString()), 'timestamptz'],
            [jobs.map((j) => j.priority), 'integer'],
          ])}
          ON CONFLICT (job_id) DO NOTHING
          RETURNING id`;
}

/**
 * The INSERT of outbox jobs that a query of the caller's statement selects (`rows`: queue,
 * job_name, job_id, data, not_before), for jobs made from rows the same statement writes; a job
 * id already in the outbox is skipped. Answers `returning` of the rows inserted.
 */
export function outboxRowsSelected(rows: Sql, returning: Sql): Sql {
  return sql`INSERT INTO outbox (queue, job_name, job_id, data, not_before)
       ${rows}
       ON CONFLICT (job_id) DO NOTHING
       RETURNING ${returning}`;
}
