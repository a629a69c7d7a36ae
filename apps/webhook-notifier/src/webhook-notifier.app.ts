import type { WorkerAppDefinition } from '@mp/app-runtime';
import { QueueName } from '@mp/queue-contracts';
import { WebhooksModule } from './webhooks/webhooks.module';

/** Turns delivery events into signed webhook deliveries, retried with backoff and dead-lettered. */
export const WebhookNotifierApp: WorkerAppDefinition = {
  name: 'webhook-notifier',
  consume: [QueueName.DeliveryEvents, QueueName.WebhookDeliver],
  imports: [WebhooksModule],
};
