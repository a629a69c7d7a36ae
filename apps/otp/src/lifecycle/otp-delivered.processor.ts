import { Injectable } from '@nestjs/common';
import { recordOtpDelivered } from '@mp/otp';
import type { OutboxJob } from '@mp/persistence';
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

  /** The messages one transaction of the dispatcher delivered: each recorded once, their events queued together. */
  @JobHandler(QueueName.OtpDeliver, 'otp.messages-settled')
  async handleMany(data: JobDataOf<typeof QueueName.OtpDeliver, 'otp.messages-settled'>) {
    if (data.status !== 'delivered') return { skipped: data.status };
    return this.recordDelivered(data.messageIds, new Date(data.occurredAt));
  }

  /** One message's, as releases before otp.messages-settled queued them. */
  @JobHandler(QueueName.OtpDeliver, 'otp.message-settled')
  async handle(data: JobDataOf<typeof QueueName.OtpDeliver, 'otp.message-settled'>) {
    if (data.status !== 'delivered') return { skipped: data.status };
    return this.recordDelivered([data.messageId], new Date(data.occurredAt));
  }

  // One transaction per message (a replay of the job skips those already recorded); their outbox
  // rows are handed to the queue at the end, in one call, and the sweeper queues them if it fails.
  private async recordDelivered(messageIds: readonly string[], at: Date): Promise<{ events: number }> {
    const committed: { ids: string[]; jobs: OutboxJob[] } = { ids: [], jobs: [] };
    for (const messageId of messageIds) {
      const { outbox } = await recordOtpDelivered(this.db, messageId, at);
      committed.ids.push(...outbox.ids);
      committed.jobs.push(...outbox.jobs);
    }
    if (committed.jobs.length > 0) await this.relay.relay(committed.ids, committed.jobs);
    return { events: committed.jobs.length };
  }
}
