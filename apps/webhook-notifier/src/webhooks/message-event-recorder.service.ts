import { Injectable } from '@nestjs/common';
import { WebhookDeliveryRepository } from '@mp/persistence';
import { QueueName, type JobDataOf } from '@mp/queue-contracts';
import { QueueProducer } from '@mp/queue-runtime';
import { UnrecoverableError } from 'bullmq';
import { DataSource } from 'typeorm';
import { deliverJobId } from './delivery-schedule';
import { buildMessageEvent, eventTypeFor } from './message-events';

type MessageStatusData = JobDataOf<typeof QueueName.DeliveryEvents, 'message.status'>;

export type RecordedEvent = { deliveryId: string } | { skipped: 'no webhook_url' };

/**
 * Turns a message's status change into a webhook delivery and its first job. Run twice, it makes
 * one delivery and one job: the delivery is unique per (message, event) and the job id is stable.
 */
@Injectable()
export class MessageEventRecorder {
  private readonly deliveries: WebhookDeliveryRepository;

  constructor(
    dataSource: DataSource,
    private readonly producer: QueueProducer,
  ) {
    this.deliveries = new WebhookDeliveryRepository(dataSource);
  }

  async record(event: MessageStatusData): Promise<RecordedEvent> {
    const type = eventTypeFor(event.status);
    if (!type) throw new UnrecoverableError(`message status ${JSON.stringify(event.status)} has no webhook event`);
    const message = await this.deliveries.findMessage(event.messageId);
    if (!message) throw new UnrecoverableError(`message ${event.messageId} does not exist`);
    if (!message.webhookUrl) return { skipped: 'no webhook_url' };
    const deliveryId = await this.deliveries.createIfAbsent({
      companyId: message.companyId,
      messageId: message.id,
      eventType: type,
      url: message.webhookUrl,
      payload: buildMessageEvent(event, message),
    });
    await this.producer.enqueue(QueueName.WebhookDeliver, 'webhook.deliver', { deliveryId }, { jobId: deliverJobId(deliveryId, 1) });
    return { deliveryId };
  }
}
