import { QueueName, type QueueProbeResult } from '@mp/queue-contracts';
import { Job, Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRedisConnection } from './redis-connection';

export interface ProbeOutcome {
  queue: QueueName;
  ok: boolean;
  answeredBy?: QueueProbeResult;
  error?: string;
  ms: number;
}

const POLL_MS = 50;

/**
 * Sends a `queue.probe` job through each queue and waits for a worker to answer: proof that
 * every queue has a live consumer. It polls the job rather than listening to queue events, whose
 * stream can deliver a fast completion before the listener reads it. Probes expire after a minute.
 */
export async function probeQueues(target: { redisUrl: string; prefix: string }, queues: readonly QueueName[], timeoutMs = 10_000): Promise<ProbeOutcome[]> {
  const connection = createRedisConnection(target.redisUrl, 'probe', 'queue-probe', { enableOfflineQueue: true });
  try {
    return await Promise.all(queues.map((queue) => probeOne(new Queue(queue, { connection, prefix: target.prefix }), timeoutMs)));
  } finally {
    connection.disconnect();
  }
}

async function probeOne(queue: Queue, timeoutMs: number): Promise<ProbeOutcome> {
  const started = Date.now();
  const outcome = (fields: Omit<ProbeOutcome, 'queue' | 'ms'>): ProbeOutcome => ({
    queue: queue.name as QueueName,
    ...fields,
    ms: Date.now() - started,
  });
  try {
    const probeId = randomUUID();
    const job = await queue.add(
      'queue.probe',
      { probeId, sentAt: new Date().toISOString() },
      { jobId: `probe-${probeId}`, attempts: 1, removeOnComplete: { age: 60 }, removeOnFail: { age: 60 } },
    );
    while (Date.now() - started < timeoutMs) {
      const current = await Job.fromId(queue, job.id ?? '');
      if (current?.finishedOn && current.failedReason) return outcome({ ok: false, error: current.failedReason });
      if (current?.finishedOn) return outcome({ ok: true, answeredBy: current.returnvalue as QueueProbeResult });
      await sleep(POLL_MS);
    }
    await job.remove().catch(() => undefined);
    return outcome({ ok: false, error: `no worker answered within ${timeoutMs} ms` });
  } catch (error) {
    return outcome({ ok: false, error: (error as Error).message });
  } finally {
    await queue.close();
  }
}
