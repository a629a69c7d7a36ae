import { nextWebhookDelayMs } from '@mp/webhooks';
import { webhookDeliverJobId } from '@mp/webhooks-data-access';

/** The job of attempt `attempt` of a delivery: one job per attempt, so re-enqueueing one is a no-op. */
export const deliverJobId = webhookDeliverJobId;

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

/**
 * The delay before the attempt after failed attempt `attempt`, or null to dead-letter: the
 * schedule's, except for the one attempt a resend asked for (`resendAttempt`), which is not retried.
 */
export function retryDelayAfterFailure(attempt: number, resendAttempt: number | null, scale: number, random?: () => number): number | null {
  if (resendAttempt !== null && attempt >= resendAttempt) return null;
  return retryDelayMs(attempt, scale, random);
}

/** How long until a recorded next attempt is due (0 when it is). */
export function remainingDelayMs(nextAttemptAt: Date | null, now: number = Date.now()): number {
  return nextAttemptAt ? Math.max(0, nextAttemptAt.getTime() - now) : 0;
}
