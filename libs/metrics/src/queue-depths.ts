import type { QueueName } from '@mp/queue-contracts';
import type { Queue } from 'bullmq';
import type { PlatformMetrics } from './platform-metrics';

/** A scrape reads Redis at most this often; scrapes in between (several Prometheus replicas) get the last reading. */
export const QUEUE_READING_TTL_MS = 1_000;

export interface QueueReading {
  waiting: number;
  prioritized: number;
  /** Delayed and not yet due. */
  delayed: number;
  /** Delayed and due: BullMQ moves them to waiting or prioritized only when a worker of the queue next fetches. */
  due: number;
  active: number;
  failed: number;
}

/** Work waiting for a worker: what autoscaling goes by. */
export function backlogOf(reading: QueueReading): number {
  return reading.waiting + reading.prioritized + reading.due;
}

/**
 * One queue's jobs per state, from BullMQ's counts plus the delayed jobs already due (a delayed
 * job's score in the delayed set is its timestamp × 0x1000 plus a sequence number, as BullMQ's
 * getDelayedScore.lua writes it). A campaign's spaced or scheduled batches are delayed and
 * prioritized: due ones sit in the delayed set, where the wait counts do not show them.
 */
export async function readQueue(queue: Queue, redis: Counting, now: number): Promise<QueueReading> {
  const [counts, due] = await Promise.all([
    queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'failed'),
    redis.zcount(queue.keys.delayed, 0, (now + 1) * 0x1000 - 1),
  ]);
  const delayed = counts['delayed'] ?? 0;
  return {
    waiting: counts['waiting'] ?? 0,
    prioritized: counts['prioritized'] ?? 0,
    // Read apart, a job promoted in between could count as due and not delayed: never below 0.
    delayed: Math.max(0, delayed - due),
    due: Math.min(due, delayed),
    active: counts['active'] ?? 0,
    failed: counts['failed'] ?? 0,
  };
}

/** A Redis client or cluster: it counts the delayed set's due members. */
type Counting = { zcount(key: string, min: number, max: number): Promise<number> };

export interface QueueSource {
  queue(name: QueueName): Queue;
  /** A connection to the queues' Redis. */
  redis(): Counting;
}

/** Sets mp_queue_jobs and mp_queue_backlog of the queues before each scrape, reading Redis at most once a QUEUE_READING_TTL_MS. */
export function refreshQueueDepths(metrics: PlatformMetrics, queues: readonly QueueName[], source: QueueSource, now = Date.now): void {
  if (queues.length === 0) return;
  const jobs = metrics.gauge('mp_queue_jobs');
  const backlog = metrics.gauge('mp_queue_backlog');
  let last: { at: number; reading: Promise<void> } | undefined;
  const read = async (at: number) => {
    const readings = await Promise.all(queues.map((name) => readQueue(source.queue(name), source.redis(), at)));
    readings.forEach((reading, index) => {
      const queue = queues[index];
      for (const [state, count] of Object.entries(reading)) jobs.set({ queue, state }, count);
      backlog.set({ queue }, backlogOf(reading));
    });
  };
  metrics.refreshOnScrape('queue depths', () => {
    const at = now();
    if (!last || at - last.at >= QUEUE_READING_TTL_MS) {
      last = { at, reading: read(at) };
      // A failed reading is not kept: the next scrape tries again.
      const reading = last;
      reading.reading.catch(() => {
        if (last === reading) last = undefined;
      });
    }
    return last.reading;
  });
}
