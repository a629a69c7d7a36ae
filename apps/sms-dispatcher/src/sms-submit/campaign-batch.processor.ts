import { Injectable, Logger } from '@nestjs/common';
import { CampaignBatchStore } from '@mp/messaging';
import { QueueName, type JobDataOf } from '@mp/queue-contracts';
import { JobHandler, type JobContext } from '@mp/queue-runtime';
import { SmsSubmitter } from './sms-submitter.service';

/** Messages of a batch submitted at once: enough to keep every bind's window full, few enough to retry cheaply. */
const CHUNK = 500;

/**
 * One batch of a campaign: its messages are made from the batch row (once), then submitted chunk by
 * chunk with the same submitter as single sends, so a job run again resends nothing recorded.
 */
@Injectable()
export class CampaignBatchProcessor {
  private readonly logger = new Logger('CampaignBatch');

  constructor(
    private readonly batches: CampaignBatchStore,
    private readonly submitter: SmsSubmitter,
  ) {}

  @JobHandler(QueueName.CampaignDispatch, 'campaign.batch')
  async handle(data: JobDataOf<typeof QueueName.CampaignDispatch, 'campaign.batch'>, context: JobContext) {
    const turn = await this.submitter.campaignBatchTurn();
    const work = await this.batches.start(data.batchId, new Date(), turn.slicing).finally(turn.made);
    if (work.kind === 'nothing') return { skipped: work.status };
    let submitted = 0;
    for (let start = 0; start < work.messageIds.length; start += CHUNK) {
      const chunk = work.messages
        ? this.submitter.submitLoaded(work.messages.slice(start, start + CHUNK), context.attempt, 'bulk')
        : this.submitter.submit(work.messageIds.slice(start, start + CHUNK), context.attempt, 'bulk');
      submitted += (await chunk).submitted;
    }
    await this.batches.finish(data.batchId);
    this.logger.log({ msg: 'campaign batch dispatched', batchId: data.batchId, campaignId: work.campaignId, messages: work.messageIds.length, submitted });
    return { messages: work.messageIds.length, submitted };
  }
}
