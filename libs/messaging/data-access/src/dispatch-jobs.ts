import { QueueName } from '@mp/queue-contracts';
import type { OutboxJob } from '@mp/queue-runtime';
import { randomUUID } from 'node:crypto';

/** Message ids per `sms.submit` job: enough to amortise the queue, few enough to retry cheaply. */
export const MESSAGES_PER_DISPATCH_JOB = 100;

/** The id of the job that dispatches one scheduled message: its cancellation removes it. */
export function scheduledDispatchJobId(messageId: string): string {
  return `sms-${messageId}`;
}

/**
 * The `sms.submit` jobs for newly accepted messages. Messages due now share jobs; a scheduled
 * message gets a delayed job of its own, so cancelling it removes only its job.
 */
export function dispatchJobsFor(messages: readonly { id: string; scheduledAt: Date | null }[], now: Date = new Date()): OutboxJob[] {
  const due = messages.filter((m) => m.scheduledAt === null).map((m) => m.id);
  const jobs: OutboxJob[] = [];
  for (let start = 0; start < due.length; start += MESSAGES_PER_DISPATCH_JOB) {
    jobs.push(submitJob(`sms-batch-${randomUUID()}`, due.slice(start, start + MESSAGES_PER_DISPATCH_JOB), now));
  }
  for (const message of messages) {
    if (message.scheduledAt !== null) jobs.push(submitJob(scheduledDispatchJobId(message.id), [message.id], message.scheduledAt));
  }
  return jobs;
}

function submitJob(jobId: string, messageIds: string[], notBefore: Date): OutboxJob {
  return { queue: QueueName.SmsDispatch, jobName: 'sms.submit', jobId, data: { messageIds }, notBefore, priority: null };
}
