import { allDone, GroupCommit, InFlight } from '@mp/batching';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { QueueName } from '@mp/queue-contracts';
import { failSpan, withSpan } from '@mp/observability';
import { startEnqueueSpan, tracedJobs } from './job-tracing';
import { OutboxRepository, type OutboxJob } from './outbox.repository';
import { QueueProducer } from './queue-producer';

/**
 * How long a relayed job's outbox row may wait to be marked, so that the marks of many relays go
 * out as one UPDATE. A mark only spares the sweeper work (it leaves rows alone until they are
 * `sweep`'s `olderThanMs` old, and enqueueing a job twice is harmless), so nothing waits for it;
 * marked one relay at a time, it cost a statement and a commit for every OTP.
 */
export const MARK_LINGER_MS = 200;

/**
 * Moves committed outbox jobs into their queues. Right after a commit the writer relays its own
 * jobs; if Redis is down then, they stay in the outbox and `sweep` (run periodically by a worker)
 * enqueues them later. Job ids are stable, so enqueueing one twice is harmless.
 */
@Injectable()
export class OutboxRelay implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  /** Marks of the relays of the last MARK_LINGER_MS go out as one UPDATE. */
  private readonly marks: GroupCommit<{ ids: readonly string[]; at: Date }, void>;
  private readonly marking = new InFlight();

  constructor(
    private readonly producer: QueueProducer,
    private readonly outbox: OutboxRepository,
  ) {
    this.marks = new GroupCommit(
      async (groups) => {
        await this.outbox.markEnqueued(groups);
        return allDone(groups);
      },
      { maxBatch: 500, lingerMs: MARK_LINGER_MS },
    );
  }

  /**
   * Enqueues, and marks the rows enqueued a little later (see MARK_LINGER_MS); resolves once the
   * jobs are in their queues. Never throws: what fails here is left to the sweeper.
   */
  async relay(ids: readonly string[], jobs: readonly OutboxJob[]): Promise<boolean> {
    let at: Date;
    try {
      // The writer relays in the context it committed in: the jobs carry the trace their rows do.
      await this.enqueueTraced('outbox relay', tracedJobs(jobs));
      at = new Date();
    } catch (error) {
      this.logger.warn({ msg: 'outbox relay failed; the sweeper will enqueue these jobs', jobs: jobs.length, err: error });
      return false;
    }
    if (ids.length > 0) {
      this.marking.track(
        this.marks
          .submit({ ids, at })
          .catch((error: unknown) =>
            this.logger.warn({ msg: 'could not mark relayed outbox rows; the sweeper will enqueue them again, harmlessly', rows: ids.length, err: error }),
          ),
      );
    }
    return true;
  }

  /** Resolves once the rows of every relay so far are marked (or their marking has failed). */
  async marked(): Promise<void> {
    await this.marks.idle();
    await this.marking.settled();
  }

  /**
   * Marks go out before any module shuts down (the database's may go first), and again after, for
   * the relays of commits flushed at shutdown; a mark that finds the database closed is only
   * logged, the sweeper covers it.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.marked();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.marked();
  }

  /** Enqueues jobs committed more than `olderThanMs` ago and never marked. Returns how many. */
  async sweep(olderThanMs = 10_000, limit = 1_000): Promise<number> {
    const stale = await this.outbox.findStale(olderThanMs, limit);
    if (stale.length === 0) return 0;
    // A span linked to the jobs' traces; each job still continues the trace it was committed in.
    await this.enqueueTraced('outbox sweep', stale, true);
    await this.outbox.markEnqueued([{ ids: stale.map((job) => job.id), at: new Date() }]);
    this.logger.log({ msg: 'outbox sweeper enqueued jobs that missed their relay', jobs: stale.length });
    return stale.length;
  }

  /** Removes a job that has not run yet (a cancelled scheduled message); best effort. */
  async removeJob(queue: QueueName, jobId: string): Promise<void> {
    try {
      await this.producer.queue(queue).remove(jobId);
    } catch (error) {
      this.logger.warn({ msg: 'could not remove job; its handler will find nothing to do', queue, jobId, err: error });
    }
  }

  /** enqueue, in a span of its own while tracing. */
  private async enqueueTraced(name: string, jobs: readonly OutboxJob[], linkJobs = false): Promise<void> {
    const span = startEnqueueSpan(name, jobs, linkJobs);
    try {
      await withSpan(span, () => this.enqueue(jobs));
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span?.end();
    }
  }

  private async enqueue(jobs: readonly OutboxJob[]): Promise<void> {
    const byQueue = new Map<string, OutboxJob[]>();
    for (const job of jobs) {
      const queued = byQueue.get(job.queue);
      if (queued) queued.push(job);
      else byQueue.set(job.queue, [job]);
    }
    const now = Date.now();
    for (const [name, queued] of byQueue) {
      const queue = this.producer.queue(name as QueueName);
      const bulk = queued.map((job) => bullJob(job, now));
      // A group commit's relay is mostly one job. BullMQ's addBulk sends even one job through an
      // ioredis pipeline, which copies every script command of the connection
      // (docs/decisions/0021-outbox-relay.md; docs/bypasses.md #15).
      if (bulk.length === 1) await queue.add(bulk[0].name, bulk[0].data, bulk[0].opts);
      else await queue.addBulk(bulk);
    }
  }
}

/** An outbox row as BullMQ takes it: its stable id, and the delay left until it is due. */
function bullJob(job: OutboxJob, now: number) {
  return {
    name: job.jobName,
    data: job.data,
    opts: {
      jobId: job.jobId,
      delay: Math.max(0, job.notBefore.getTime() - now),
      ...(job.priority === null ? {} : { priority: job.priority }),
    },
  };
}
