import { Injectable } from '@nestjs/common';
import { OtpWebhookEvents } from '@mp/otp';
import { QueueName, type JobDataOf } from '@mp/queue-contracts';
import { QueueProducer } from '@mp/queue-runtime';
import { WebhookDeliveryRepository } from '@mp/webhooks-data-access';
import { UnrecoverableError } from 'bullmq';
import { deliverJobId } from './delivery-schedule';
import type { RecordedEvent } from './message-event-recorder.service';

type OtpEventData = JobDataOf<typeof QueueName.DeliveryEvents, 'otp.event'>;

/**
 * Turns an OTP event into a webhook delivery to its application's `webhook_url` (signed and
 * retried like every delivery). Run twice, it makes one delivery and one job.
 */
@Injectable()
export class OtpEventRecorder {
  constructor(
    private readonly otps: OtpWebhookEvents,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly producer: QueueProducer,
  ) {}

  async record(event: OtpEventData): Promise<RecordedEvent> {
    const built = await this.otps.event(event);
    if (!built) throw new UnrecoverableError(`OTP ${event.otpId} does not exist`);
    if (!built.url) return { skipped: 'no webhook_url' };
    const deliveryId = await this.deliveries.createIfAbsent({ ...built, url: built.url });
    await this.producer.enqueue(QueueName.WebhookDeliver, 'webhook.deliver', { deliveryId }, { jobId: deliverJobId(deliveryId, 1) });
    return { deliveryId };
  }
}
