import { Injectable } from '@nestjs/common';
import { eventTypeFor, MessageWebhookEvents } from '@mp/messaging';
import { QueueName, type JobDataOf } from '@mp/queue-contracts';
import { QueueProducer } from '@mp/queue-runtime';
import { WebhookDeliveryRepository } from '@mp/webhooks-data-access';
import { UnrecoverableError } from 'bullmq';
import { deliverJobId } from './delivery-schedule';

type MessageStatusData = JobDataOf<typeof QueueName.DeliveryEvents, 'message.status'>;

export type RecordedEvent = { deliveryId: string } | { skipped: 'no webhook_url' };

/**
 * Turns a message's status change into a webhook delivery and its first job. Run twice, it makes
 * one delivery and one job: the delivery is unique per (message, event) and the job id is stable.
 */
@Injectable()
export class MessageEventRecorder {
  constructor(
    private readonly messages: MessageWebhookEvents,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly producer: QueueProducer,
  ) {}

  async record(event: MessageStatusData): Promise<RecordedEvent> {
    if (!eventTypeFor(event.status)) throw new UnrecoverableError(`message status ${JSON.stringify(event.status)} has no webhook event`);
    const built = await this.messages.statusChanged(event);
    if (!built) throw new UnrecoverableError(`message ${event.messageId} does not exist`);
    if (!built.url) return { skipped: 'no webhook_url' };
    const deliveryId = await this.deliveries.createIfAbsent({ ...built, url: built.url });
    await this.producer.enqueue(QueueName.WebhookDeliver, 'webhook.deliver', { deliveryId }, { jobId: deliverJobId(deliveryId, 1) });
    return { deliveryId };
  }
}
