import { allDone, GroupCommit } from '@mp/batching';
import { Injectable, Logger } from '@nestjs/common';
import type { QueueName } from '@mp/queue-contracts';
import { OutboxRepository, type OutboxJob } from '@mp/persistence';
import { DataSource } from 'typeorm';
import { QueueProducer } from './queue-producer';

/**
 * Moves committed outbox jobs into their queues. Right after a commit the writer relays its own
 * jobs; if Redis is down then, they stay in the outbox and `sweep` (run periodically by a worker)
 * enqueues them later. Job ids are stable, so enqueueing one twice is harmless.
 */
@Injectable()
export class OutboxRelay {
  private readonly logger = new Logger('OutboxRelay');
  private readonly outbox: OutboxRepository;
  /** Marks from relays that finish together go out as one UPDATE. */
  private readonly marks: GroupCommit<readonly string[], void>;

  constructor(
    private readonly producer: QueueProducer,
    dataSource: DataSource,
  ) {
    this.outbox = new OutboxRepository(dataSource);
    this.marks = new GroupCommit(
      async (lists) => {
        await this.outbox.markEnqueued(lists.flat());
        return allDone(lists);
      },
      { maxBatch: 500 },
    );
  }

  /** Enqueues and marks; never throws: what fails here is left to the sweeper. */
  async relay(ids: readonly string[], jobs: readonly OutboxJob[]): Promise<boolean> {
    try {
      await this.enqueue(jobs);
      if (ids.length > 0) await this.marks.submit(ids);
      return true;
    } catch (error) {
      this.logger.warn({ msg: 'outbox relay failed; the sweeper will enqueue these jobs', jobs: jobs.length, err: error });
      return false;
    }
  }

  /** Enqueues jobs committed more than `olderThanMs` ago and never marked. Returns how many. */
  async sweep(olderThanMs = 10_000, limit = 1_000): Promise<number> {
    const stale = await this.outbox.findStale(olderThanMs, limit);
    if (stale.length === 0) return 0;
    await this.enqueue(stale);
    await this.outbox.markEnqueued(stale.map((job) => job.id));
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

  private async enqueue(jobs: readonly OutboxJob[]): Promise<void> {
    const byQueue = new Map<string, OutboxJob[]>();
    for (const job of jobs) byQueue.set(job.queue, [...(byQueue.get(job.queue) ?? []), job]);
    const now = Date.now();
    for (const [queue, queued] of byQueue) {
      await this.producer.queue(queue as QueueName).addBulk(
        queued.map((job) => ({
          name: job.jobName,
          data: job.data,
          opts: {
            jobId: job.jobId,
            delay: Math.max(0, job.notBefore.getTime() - now),
            ...(job.priority === null ? {} : { priority: job.priority }),
          },
        })),
      );
    }
  }
}
