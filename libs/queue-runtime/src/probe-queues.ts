import { QueueName, type QueueProbeResult } from '@mp/queue-contracts';
import { Queue, QueueEvents } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { createRedisConnection } from './redis-connection';

export interface ProbeOutcome {
  queue: QueueName;
  ok: boolean;
  answeredBy?: QueueProbeResult;
  error?: string;
  ms: number;
}

/**
 * Sends a `queue.probe` job through each queue and waits for a worker to answer: proof that
 * every queue has a live consumer. Probes are removed once answered.
 */
export async function probeQueues(
  target: { redisUrl: string; prefix: string },
  queues: readonly QueueName[],
  timeoutMs = 10_000,
): Promise<ProbeOutcome[]> {
  const connection = createRedisConnection(target.redisUrl, 'probe', 'queue-probe');
  try {
    return await Promise.all(queues.map((queue) => probeOne(queue, target.prefix, target.redisUrl, timeoutMs, connection)));
  } finally {
    connection.disconnect();
  }
}

async function probeOne(
  queueName: QueueName,
  prefix: string,
  redisUrl: string,
  timeoutMs: number,
  connection: ReturnType<typeof createRedisConnection>,
): Promise<ProbeOutcome> {
  const started = Date.now();
  const queue = new Queue(queueName, { connection, prefix });
  const events = new QueueEvents(queueName, { connection: { url: redisUrl }, prefix });
  try {
    await events.waitUntilReady();
    const probeId = randomUUID();
    const job = await queue.add(
      'queue.probe',
      { probeId, sentAt: new Date().toISOString() },
      { jobId: `probe-${probeId}`, attempts: 1, removeOnComplete: true, removeOnFail: true },
    );
    const answeredBy = (await job.waitUntilFinished(events, timeoutMs)) as QueueProbeResult;
    return { queue: queueName, ok: true, answeredBy, ms: Date.now() - started };
  } catch (error) {
    return { queue: queueName, ok: false, error: (error as Error).message, ms: Date.now() - started };
  } finally {
    await events.close();
    await queue.close();
  }
}
