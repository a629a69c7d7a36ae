import { Injectable } from '@nestjs/common';
import { QueueName, type JobDataOf } from '@mp/queue-contracts';
import { JobHandler, type JobContext } from '@mp/queue-runtime';
import { WhatsAppSender } from './whatsapp-sender.service';

@Injectable()
export class OtpWhatsAppProcessor {
  constructor(private readonly sender: WhatsAppSender) {}

  @JobHandler(QueueName.OtpDeliver, 'otp.whatsapp')
  handle(data: JobDataOf<typeof QueueName.OtpDeliver, 'otp.whatsapp'>, context: JobContext) {
    return this.sender.send(data.messageId, context.attempt);
  }
}
