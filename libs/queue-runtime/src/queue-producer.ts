import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { JobDataOf, JobNameOf, QueueName } from '@mp/queue-contracts';
import { Queue } from 'bullmq';
import { tracedJobData } from './job-tracing';
import { defaultJobOptions, QUEUE_RUNTIME_OPTIONS, type QueueRuntimeOptions } from './queue-options';
import { createRedisConnection, type RedisConnection } from './redis-connection';

export interface EnqueueOptions {
  /** A stable id (a message id, say): enqueueing the same id again is a no-op. */
  jobId: string;
  delayMs?: number;
  /** BullMQ priority: 1 is the highest; omit for plain FIFO. */
  priority?: number;
}

/** Typed access to the platform's queues for the process that adds jobs. */
@Injectable()
export class QueueProducer implements OnApplicationShutdown {
  private readonly queues = new Map<QueueName, Queue>();
  private connection: RedisConnection | undefined;

  constructor(@Inject(QUEUE_RUNTIME_OPTIONS) private readonly options: QueueRuntimeOptions) {}

  async enqueue<Q extends QueueName, N extends JobNameOf<Q>>(queue: Q, name: N, data: JobDataOf<Q, N>, options: EnqueueOptions): Promise<void> {
    await this.queue(queue).add(name, tracedJobData(data), {
      jobId: options.jobId,
      delay: options.delayMs,
      priority: options.priority,
    });
  }

  /** The BullMQ queue object, for what the typed methods do not cover (probes, counts). */
  queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, {
        connection: this.redis(),
        prefix: this.options.prefix,
        defaultJobOptions: defaultJobOptions(name),
      });
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** The producer's Redis connection, for reads beside the queues (the operators' overview of SMSC binds). */
  redis(): RedisConnection {
    this.connection ??= createRedisConnection(this.options.redisUrl, 'producer', this.options.appName);
    return this.connection;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    this.connection?.disconnect();
  }
}
