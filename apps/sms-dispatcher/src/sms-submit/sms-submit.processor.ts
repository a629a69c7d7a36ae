import { Injectable } from '@nestjs/common';
import { QueueName, type JobDataOf } from '@mp/queue-contracts';
import { JobHandler, type JobContext } from '@mp/queue-runtime';
import { SmsSubmitter } from './sms-submitter.service';

@Injectable()
export class SmsSubmitProcessor {
  constructor(private readonly submitter: SmsSubmitter) {}

  @JobHandler(QueueName.SmsDispatch, 'sms.submit')
  handle(data: JobDataOf<typeof QueueName.SmsDispatch, 'sms.submit'>, context: JobContext) {
    return this.submitter.submit(data.messageIds, context.attempt);
  }

  /** OTP texts: the same submission, from their own queue so they never wait behind a campaign. */
  @JobHandler(QueueName.OtpDispatch, 'sms.submit')
  handleOtp(data: JobDataOf<typeof QueueName.OtpDispatch, 'sms.submit'>, context: JobContext) {
    return this.submitter.submit(data.messageIds, context.attempt);
  }
}
