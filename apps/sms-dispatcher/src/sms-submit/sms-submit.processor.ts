import { Injectable, Logger } from '@nestjs/common';
import { QueueName, type JobDataOf } from '@mp/queue-contracts';
import { JobHandler, type JobContext } from '@mp/queue-runtime';
import { SmsSubmitter, type SubmitSummary } from './sms-submitter.service';

@Injectable()
export class SmsSubmitProcessor {
  private readonly logger = new Logger('SmsSubmit');

  constructor(private readonly submitter: SmsSubmitter) {}

  @JobHandler(QueueName.SmsDispatch, 'sms.submit')
  async handle(data: JobDataOf<typeof QueueName.SmsDispatch, 'sms.submit'>, context: JobContext) {
    return this.logged(await this.submitter.submit(data.messageIds, context.attempt, 'normal'));
  }

  /**
   * OTP texts: the same submission, from their own queue and in the urgent lane, so they never
   * wait behind a campaign's jobs nor behind its parts at the carrier.
   */
  @JobHandler(QueueName.OtpDispatch, 'sms.submit')
  async handleOtp(data: JobDataOf<typeof QueueName.OtpDispatch, 'sms.submit'>, context: JobContext) {
    return this.logged(await this.submitter.submit(data.messageIds, context.attempt, 'urgent'));
  }

  /** A debug line per job: its jobId, queue and trace come from the log context, when it is on. */
  private logged(summary: SubmitSummary): SubmitSummary {
    this.logger.debug({ msg: 'job submitted its parts', ...summary });
    return summary;
  }
}
