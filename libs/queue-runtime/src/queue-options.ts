import { QUEUE_POLICIES, type QueueName } from '@mp/queue-contracts';
import type { JobsOptions } from 'bullmq';

export interface QueueRuntimeOptions {
  redisUrl: string;
  /** Redis key prefix of every queue, so several deployments (or test runs) share one Redis. */
  prefix: string;
  /** The process name, for Redis client names and probe answers. */
  appName: string;
  /** Queues this process consumes; empty for a producer-only app such as the gateway. */
  consume: readonly QueueName[];
}

export const QUEUE_RUNTIME_OPTIONS = Symbol('queue-runtime-options');

/**
 * Jobs of a queue one worker process runs at once, for the queues whose number an app's own policy
 * sets (the sms-dispatcher's TrafficPolicy); the others keep QUEUE_POLICIES' concurrency. An app
 * provides it from a global module, where the queue module sees it.
 */
export const QUEUE_CONCURRENCY = Symbol('queue-concurrency');
export type QueueConcurrency = Readonly<Partial<Record<QueueName, number>>>;

/** BullMQ job options from a queue's policy: retries with exponential backoff, bounded retention. */
export function defaultJobOptions(queue: QueueName): JobsOptions {
  const policy = QUEUE_POLICIES[queue];
  return {
    attempts: policy.attempts,
    backoff: { type: 'exponential', delay: policy.backoffMs, jitter: 0.5 },
    removeOnComplete: { count: policy.keepCompleted.count, age: policy.keepCompleted.ageSeconds },
    removeOnFail: { count: policy.keepFailed.count, age: policy.keepFailed.ageSeconds },
  };
}
