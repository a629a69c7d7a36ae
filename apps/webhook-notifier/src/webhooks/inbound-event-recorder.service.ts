import { Injectable } from '@nestjs/common';
import { InboundWebhookEvents } from '@mp/messaging';
import { QueueName, type JobDataOf } from '@mp/queue-contracts';
import { QueueProducer } from '@mp/queue-runtime';
import { WebhookDeliveryRepository } from '@mp/webhooks-data-access';
import { UnrecoverableError } from 'bullmq';
import { deliverJobId } from './delivery-schedule';
import type { RecordedEvent } from './message-event-recorder.service';

type InboundReceivedData = JobDataOf<typeof QueueName.DeliveryEvents, 'inbound.received'>;

/** inbound.received → one signed message.received delivery to the company's inbound webhook address. Run twice, one delivery. */
@Injectable()
export class InboundEventRecorder {
  constructor(
    private readonly inbound: InboundWebhookEvents,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly producer: QueueProducer,
  ) {}

  async record(event: InboundReceivedData): Promise<RecordedEvent> {
    const built = await this.inbound.received(event);
    if (!built) throw new UnrecoverableError(`inbound message ${event.inboundMessageId} does not exist or has no company`);
    if (!built.url) return { skipped: 'no webhook_url' }; // the company has no inbound_webhook_url
    const deliveryId = await this.deliveries.createIfAbsent({ ...built, messageId: null, url: built.url });
    await this.producer.enqueue(QueueName.WebhookDeliver, 'webhook.deliver', { deliveryId }, { jobId: deliverJobId(deliveryId, 1) });
    return { deliveryId };
  }
}
