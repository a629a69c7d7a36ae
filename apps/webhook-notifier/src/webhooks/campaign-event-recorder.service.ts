import { Injectable } from '@nestjs/common';
import { WebhookDeliveryRepository } from '@mp/persistence';
import { QueueName, type JobDataOf } from '@mp/queue-contracts';
import { QueueProducer } from '@mp/queue-runtime';
import { UnrecoverableError } from 'bullmq';
import { DataSource } from 'typeorm';
import { buildCampaignCompleted } from './campaign-events';
import { deliverJobId } from './delivery-schedule';
import type { RecordedEvent } from './message-event-recorder.service';

type CampaignEventData = JobDataOf<typeof QueueName.DeliveryEvents, 'campaign.event'>;

/** campaign.completed → one signed delivery to the campaign's webhook_url. Run twice, one delivery. */
@Injectable()
export class CampaignEventRecorder {
  private readonly deliveries: WebhookDeliveryRepository;

  constructor(
    dataSource: DataSource,
    private readonly producer: QueueProducer,
  ) {
    this.deliveries = new WebhookDeliveryRepository(dataSource);
  }

  async record(event: CampaignEventData): Promise<RecordedEvent> {
    const campaign = await this.deliveries.findCampaign(event.campaignId);
    if (!campaign) throw new UnrecoverableError(`campaign ${event.campaignId} does not exist`);
    if (!campaign.webhookUrl) return { skipped: 'no webhook_url' };
    const deliveryId = await this.deliveries.createIfAbsent({
      companyId: campaign.companyId,
      messageId: null,
      campaignId: campaign.id,
      eventType: event.type,
      url: campaign.webhookUrl,
      payload: buildCampaignCompleted(event.occurredAt, campaign),
    });
    await this.producer.enqueue(QueueName.WebhookDeliver, 'webhook.deliver', { deliveryId }, { jobId: deliverJobId(deliveryId, 1) });
    return { deliveryId };
  }
}
