import { Injectable } from '@nestjs/common';
import { QueueName, type JobDataOf } from '@mp/queue-contracts';
import { JobHandler, type JobContext } from '@mp/queue-runtime';
import { SmsSubmitter } from './sms-submitter.service';

@Injectable()
export class SmsSubmitProcessor {
  constructor(private readonly submitter: SmsSubmitter) {}

  @JobHandler(QueueName.SmsDispatch, 'sms.submit')
  handle(data: JobDataOf<typeof QueueName.SmsDispatch, 'sms.submit'>, context: JobContext) {
    return this.submitter.submit(data.messageIds, context.attempt, 'normal');
  }

  /**
   * OTP texts: the same submission, from their own queue and in the urgent lane, so they never
   * wait behind a campaign's jobs nor behind its parts at the carrier.
   */
  @JobHandler(QueueName.OtpDispatch, 'sms.submit')
  handleOtp(data: JobDataOf<typeof QueueName.OtpDispatch, 'sms.submit'>, context: JobContext) {
    return this.submitter.submit(data.messageIds, context.attempt, 'urgent');
  }
}
