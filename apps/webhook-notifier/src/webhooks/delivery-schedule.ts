import { nextWebhookDelayMs } from '@mp/webhooks';

/** The job of attempt `attempt` of a delivery: one job per attempt, so re-enqueueing one is a no-op. */
export function deliverJobId(deliveryId: string, attempt: number): string {
  return `wh-${deliveryId}-${attempt}`;
}

/** The attempt a deliver job was enqueued for, or null when the id is not one of ours. */
export function attemptOfJob(jobId: string, deliveryId: string): number | null {
  const prefix = `wh-${deliveryId}-`;
  if (!jobId.startsWith(prefix)) return null;
  const attempt = Number(jobId.slice(prefix.length));
  return Number.isInteger(attempt) && attempt >= 1 ? attempt : null;
}

/** libs/webhooks' delay after failed attempt `attempt`, times the operator's scale; null: dead-letter. */
export function retryDelayMs(attempt: number, scale: number, random?: () => number): number | null {
  const delay = nextWebhookDelayMs(attempt, random);
  return delay === null ? null : Math.max(1, Math.round(delay * scale));
}

/** How long until a recorded next attempt is due (0 when it is). */
export function remainingDelayMs(nextAttemptAt: Date | null, now: number = Date.now()): number {
  return nextAttemptAt ? Math.max(0, nextAttemptAt.getTime() - now) : 0;
}
