import { Module } from '@nestjs/common';
import { MessageEventRecorder } from './message-event-recorder.service';
import { OtpEventRecorder } from './otp-event-recorder.service';
import { OverdueDeliverySweeper } from './overdue-delivery-sweeper.service';
import { WebhookDeliverer } from './webhook-deliverer.service';
import { MessageStatusProcessor, OtpEventProcessor, WebhookDeliverProcessor } from './webhook-processors';

/**
 * message.status and otp.event → a delivery row and its first job; webhook.deliver → signed
 * attempts, retries, dead letters; a sweeper re-enqueues deliveries whose job was lost.
 */
@Module({
  providers: [
    MessageEventRecorder,
    OtpEventRecorder,
    WebhookDeliverer,
    MessageStatusProcessor,
    OtpEventProcessor,
    WebhookDeliverProcessor,
    OverdueDeliverySweeper,
  ],
})
export class WebhooksModule {}
