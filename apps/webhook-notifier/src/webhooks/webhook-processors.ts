import { Injectable } from '@nestjs/common';
import { QueueName, type JobDataOf } from '@mp/queue-contracts';
import { JobHandler, type JobContext } from '@mp/queue-runtime';
import { CampaignEventRecorder } from './campaign-event-recorder.service';
import { InboundEventRecorder } from './inbound-event-recorder.service';
import { MessageEventRecorder } from './message-event-recorder.service';
import { OtpEventRecorder } from './otp-event-recorder.service';
import { WebhookDeliverer } from './webhook-deliverer.service';

@Injectable()
export class MessageStatusProcessor {
  constructor(private readonly recorder: MessageEventRecorder) {}

  @JobHandler(QueueName.DeliveryEvents, 'message.status')
  handle(data: JobDataOf<typeof QueueName.DeliveryEvents, 'message.status'>) {
    return this.recorder.record(data);
  }
}

@Injectable()
export class OtpEventProcessor {
  constructor(private readonly recorder: OtpEventRecorder) {}

  @JobHandler(QueueName.DeliveryEvents, 'otp.event')
  handle(data: JobDataOf<typeof QueueName.DeliveryEvents, 'otp.event'>) {
    return this.recorder.record(data);
  }
}

@Injectable()
export class CampaignEventProcessor {
  constructor(private readonly recorder: CampaignEventRecorder) {}

  @JobHandler(QueueName.DeliveryEvents, 'campaign.event')
  handle(data: JobDataOf<typeof QueueName.DeliveryEvents, 'campaign.event'>) {
    return this.recorder.record(data);
  }
}

@Injectable()
export class InboundReceivedProcessor {
  constructor(private readonly recorder: InboundEventRecorder) {}

  @JobHandler(QueueName.DeliveryEvents, 'inbound.received')
  handle(data: JobDataOf<typeof QueueName.DeliveryEvents, 'inbound.received'>) {
    return this.recorder.record(data);
  }
}

@Injectable()
export class ContactEventProcessor {
  constructor(private readonly recorder: InboundEventRecorder) {}

  @JobHandler(QueueName.DeliveryEvents, 'contact.event')
  handle(data: JobDataOf<typeof QueueName.DeliveryEvents, 'contact.event'>) {
    return this.recorder.recordContact(data);
  }
}

@Injectable()
export class WebhookDeliverProcessor {
  constructor(private readonly deliverer: WebhookDeliverer) {}

  @JobHandler(QueueName.WebhookDeliver, 'webhook.deliver')
  handle(data: JobDataOf<typeof QueueName.WebhookDeliver, 'webhook.deliver'>, context: JobContext) {
    return this.deliverer.deliver(data.deliveryId, context.jobId);
  }
}
