import { Module } from '@nestjs/common';
import { MessagingDataModule } from '@mp/messaging';
import { OtpDataModule } from '@mp/otp';
import { WebhooksDataModule } from '@mp/webhooks-data-access';
import { CampaignEventRecorder } from './campaign-event-recorder.service';
import { InboundEventRecorder } from './inbound-event-recorder.service';
import { MessageEventRecorder } from './message-event-recorder.service';
import { OtpEventRecorder } from './otp-event-recorder.service';
import { OverdueDeliverySweeper } from './overdue-delivery-sweeper.service';
import { WebhookDeliverer } from './webhook-deliverer.service';
import {
  CampaignEventProcessor,
  ContactEventProcessor,
  InboundReceivedProcessor,
  MessageStatusProcessor,
  OtpEventProcessor,
  WebhookDeliverProcessor,
} from './webhook-processors';

/**
 * message.status, otp.event, campaign.event, inbound.received and contact.event → a delivery row and its first job; webhook.deliver → signed
 * attempts, retries, dead letters; a sweeper re-enqueues deliveries whose job was lost.
 */
@Module({
  imports: [WebhooksDataModule, MessagingDataModule, OtpDataModule],
  providers: [
    MessageEventRecorder,
    OtpEventRecorder,
    CampaignEventRecorder,
    InboundEventRecorder,
    WebhookDeliverer,
    MessageStatusProcessor,
    OtpEventProcessor,
    CampaignEventProcessor,
    InboundReceivedProcessor,
    ContactEventProcessor,
    WebhookDeliverProcessor,
    OverdueDeliverySweeper,
  ],
})
export class WebhooksModule {}
