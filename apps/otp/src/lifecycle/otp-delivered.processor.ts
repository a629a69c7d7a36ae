import { Injectable } from '@nestjs/common';
import { recordOtpDelivered } from '@mp/otp';
import { QueueName, type JobDataOf } from '@mp/queue-contracts';
import { JobHandler, OutboxRelay } from '@mp/queue-runtime';
import { DataSource } from 'typeorm';

/** An OTP's message reached the handset: `delivered` in /otp/logs, and the webhook event. */
@Injectable()
export class OtpMessageSettledProcessor {
  constructor(
    private readonly db: DataSource,
    private readonly relay: OutboxRelay,
  ) {}

  @JobHandler(QueueName.OtpDeliver, 'otp.message-settled')
  async handle(data: JobDataOf<typeof QueueName.OtpDeliver, 'otp.message-settled'>) {
    if (data.status !== 'delivered') return { skipped: data.status };
    const { outbox } = await recordOtpDelivered(this.db, data.messageId, new Date(data.occurredAt));
    if (outbox.jobs.length > 0) await this.relay.relay(outbox.ids, outbox.jobs);
    return { events: outbox.jobs.length };
  }
}
