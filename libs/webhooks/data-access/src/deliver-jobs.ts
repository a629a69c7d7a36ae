import { QueueName } from '@mp/queue-contracts';
import type { OutboxJob } from '@mp/queue-runtime';

/** The job of attempt `attempt` of a delivery: one job per attempt, so enqueueing one twice is a no-op. */
export function webhookDeliverJobId(deliveryId: string, attempt: number): string {
  return `wh-${deliveryId}-${attempt}`;
}

/** The webhook.deliver job of a delivery's attempt, as committed through the outbox. */
export function webhookDeliverJob(deliveryId: string, attempt: number, at: Date = new Date()): OutboxJob {
  return {
    queue: QueueName.WebhookDeliver,
    jobName: 'webhook.deliver',
    jobId: webhookDeliverJobId(deliveryId, attempt),
    data: { deliveryId },
    notBefore: at,
    priority: null,
  };
}
