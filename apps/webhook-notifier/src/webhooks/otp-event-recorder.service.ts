import { Injectable } from '@nestjs/common';
import { WebhookDeliveryRepository } from '@mp/persistence';
import { QueueName, type JobDataOf } from '@mp/queue-contracts';
import { QueueProducer } from '@mp/queue-runtime';
import { UnrecoverableError } from 'bullmq';
import { DataSource } from 'typeorm';
import { deliverJobId } from './delivery-schedule';
import { buildOtpEvent } from './otp-events';
import type { RecordedEvent } from './message-event-recorder.service';

type OtpEventData = JobDataOf<typeof QueueName.DeliveryEvents, 'otp.event'>;

/**
 * Turns an OTP event into a webhook delivery to its application's `webhook_url` (signed and
 * retried like every delivery). Run twice, it makes one delivery and one job.
 */
@Injectable()
export class OtpEventRecorder {
  private readonly deliveries: WebhookDeliveryRepository;

  constructor(
    dataSource: DataSource,
    private readonly producer: QueueProducer,
  ) {
    this.deliveries = new WebhookDeliveryRepository(dataSource);
  }

  async record(event: OtpEventData): Promise<RecordedEvent> {
    const otp = await this.deliveries.findOtp(event.otpId);
    if (!otp) throw new UnrecoverableError(`OTP ${event.otpId} does not exist`);
    if (!otp.webhookUrl) return { skipped: 'no webhook_url' };
    const deliveryId = await this.deliveries.createIfAbsent({
      companyId: otp.companyId,
      // The message the event is about: a resent OTP's events of each of its messages stay apart.
      messageId: event.messageId ?? otp.messageId,
      eventType: event.type,
      url: otp.webhookUrl,
      payload: buildOtpEvent(event, otp),
    });
    await this.producer.enqueue(QueueName.WebhookDeliver, 'webhook.deliver', { deliveryId }, { jobId: deliverJobId(deliveryId, 1) });
    return { deliveryId };
  }
}
