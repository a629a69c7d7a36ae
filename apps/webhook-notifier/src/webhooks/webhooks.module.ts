import { Module } from '@nestjs/common';
import { MessageEventRecorder } from './message-event-recorder.service';
import { OverdueDeliverySweeper } from './overdue-delivery-sweeper.service';
import { WebhookDeliverer } from './webhook-deliverer.service';
import { MessageStatusProcessor, WebhookDeliverProcessor } from './webhook-processors';

/**
 * message.status → a delivery row and its first job; webhook.deliver → signed attempts, retries,
 * dead letters; a sweeper re-enqueues deliveries whose job was lost.
 */
@Module({ providers: [MessageEventRecorder, WebhookDeliverer, MessageStatusProcessor, WebhookDeliverProcessor, OverdueDeliverySweeper] })
export class WebhooksModule {}
