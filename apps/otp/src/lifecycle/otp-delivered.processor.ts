import { Injectable } from '@nestjs/common';
import { OtpLifecycle } from '@mp/otp';
import { QueueName, type JobDataOf, type MessageEventStatus } from '@mp/queue-contracts';
import { JobHandler, OutboxRelay, type OutboxJob } from '@mp/queue-runtime';

/**
 * An OTP's message settled: delivered (`delivered` in /otp/logs, and the webhook event), or not
 * delivered (the OTP fails: `failed` in /otp/logs, and `otp.failed`).
 */
@Injectable()
export class OtpMessageSettledProcessor {
  constructor(
    private readonly lifecycle: OtpLifecycle,
    private readonly relay: OutboxRelay,
  ) {}

  /** The messages one transaction of the dispatcher settled in one state: each recorded once, their events queued together. */
  @JobHandler(QueueName.OtpDeliver, 'otp.messages-settled')
  async handleMany(data: JobDataOf<typeof QueueName.OtpDeliver, 'otp.messages-settled'>) {
    if (data.status === 'sent') return { skipped: data.status };
    return this.record(data.messageIds, data.status, new Date(data.occurredAt));
  }

  /** One message's, as releases before otp.messages-settled queued them. */
  @JobHandler(QueueName.OtpDeliver, 'otp.message-settled')
  async handle(data: JobDataOf<typeof QueueName.OtpDeliver, 'otp.message-settled'>) {
    if (data.status === 'sent') return { skipped: data.status };
    return this.record([data.messageId], data.status, new Date(data.occurredAt));
  }

  // One transaction per message (a replay of the job skips those already recorded); their outbox
  // rows are handed to the queue at the end, in one call, and the sweeper queues them if it fails.
  private async record(messageIds: readonly string[], status: MessageEventStatus, at: Date): Promise<{ events: number }> {
    const committed: { ids: string[]; jobs: OutboxJob[] } = { ids: [], jobs: [] };
    for (const messageId of messageIds) {
      const { outbox } = status === 'delivered' ? await this.lifecycle.delivered(messageId, at) : await this.lifecycle.messageFailed(messageId, status, at);
      committed.ids.push(...outbox.ids);
      committed.jobs.push(...outbox.jobs);
    }
    if (committed.jobs.length > 0) await this.relay.relay(committed.ids, committed.jobs);
    return { events: committed.jobs.length };
  }
}
