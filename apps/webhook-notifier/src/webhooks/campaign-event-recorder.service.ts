import { Injectable } from '@nestjs/common';
import { CampaignWebhookEvents } from '@mp/messaging';
import { QueueName, type JobDataOf } from '@mp/queue-contracts';
import { QueueProducer } from '@mp/queue-runtime';
import { WebhookDeliveryRepository } from '@mp/webhooks-data-access';
import { UnrecoverableError } from 'bullmq';
import { deliverJobId } from './delivery-schedule';
import type { RecordedEvent } from './message-event-recorder.service';

type CampaignEventData = JobDataOf<typeof QueueName.DeliveryEvents, 'campaign.event'>;

/** campaign.completed → one signed delivery to the campaign's webhook_url. Run twice, one delivery. */
@Injectable()
export class CampaignEventRecorder {
  constructor(
    private readonly campaigns: CampaignWebhookEvents,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly producer: QueueProducer,
  ) {}

  async record(event: CampaignEventData): Promise<RecordedEvent> {
    const built = await this.campaigns.completed(event);
    if (!built) throw new UnrecoverableError(`campaign ${event.campaignId} does not exist`);
    if (!built.url) return { skipped: 'no webhook_url' };
    const deliveryId = await this.deliveries.createIfAbsent({ ...built, messageId: null, url: built.url });
    await this.producer.enqueue(QueueName.WebhookDeliver, 'webhook.deliver', { deliveryId }, { jobId: deliverJobId(deliveryId, 1) });
    return { deliveryId };
  }
}
