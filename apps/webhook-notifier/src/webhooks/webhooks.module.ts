import { Module } from '@nestjs/common';
import { MessageEventRecorder } from './message-event-recorder.service';
import { WebhookDeliverer } from './webhook-deliverer.service';
import { MessageStatusProcessor, WebhookDeliverProcessor } from './webhook-processors';

/** message.status → a delivery row and its first job; webhook.deliver → signed attempts, retries, dead letters. */
@Module({ providers: [MessageEventRecorder, WebhookDeliverer, MessageStatusProcessor, WebhookDeliverProcessor] })
export class WebhooksModule {}
