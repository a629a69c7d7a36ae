import { Injectable } from '@nestjs/common';
import { ContactWebhookEvents, InboundWebhookEvents, type ContactWebhookEvent, type InboundWebhookEvent } from '@mp/messaging';
import { QueueName, type JobDataOf } from '@mp/queue-contracts';
import { QueueProducer } from '@mp/queue-runtime';
import { WebhookDeliveryRepository } from '@mp/webhooks-data-access';
import { UnrecoverableError } from 'bullmq';
import { deliverJobId } from './delivery-schedule';
import type { RecordedEvent } from './message-event-recorder.service';

type InboundReceivedData = JobDataOf<typeof QueueName.DeliveryEvents, 'inbound.received'>;
type ContactEventData = JobDataOf<typeof QueueName.DeliveryEvents, 'contact.event'>;

/**
 * inbound.received → one signed message.received delivery to the company's inbound webhook
 * address; contact.event → one contact.opted_out or contact.opted_in delivery to the same. Run
 * twice, one delivery.
 */
@Injectable()
export class InboundEventRecorder {
  constructor(
    private readonly inbound: InboundWebhookEvents,
    private readonly contacts: ContactWebhookEvents,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly producer: QueueProducer,
  ) {}

  async record(event: InboundReceivedData): Promise<RecordedEvent> {
    return this.deliver(await this.inbound.received(event), event.inboundMessageId);
  }

  async recordContact(event: ContactEventData): Promise<RecordedEvent> {
    return this.deliver(await this.contacts.event(event), event.inboundMessageId);
  }

  private async deliver(built: InboundWebhookEvent | ContactWebhookEvent | null, inboundMessageId: string): Promise<RecordedEvent> {
    if (!built) throw new UnrecoverableError(`inbound message ${inboundMessageId} does not exist or has no company`);
    if (!built.url) return { skipped: 'no webhook_url' }; // the company has no inbound_webhook_url
    const deliveryId = await this.deliveries.createIfAbsent({ ...built, messageId: null, url: built.url });
    await this.producer.enqueue(QueueName.WebhookDeliver, 'webhook.deliver', { deliveryId }, { jobId: deliverJobId(deliveryId, 1) });
    return { deliveryId };
  }
}
