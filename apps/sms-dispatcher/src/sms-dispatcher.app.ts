import type { WorkerAppDefinition } from '@mp/app-runtime';
import { QueueName } from '@mp/queue-contracts';
import { SmsSubmitModule } from './sms-submit/sms-submit.module';

/** Submits SMS parts to carriers over SMPP; OTP traffic has its own queue so it never waits behind a campaign. */
export const SmsDispatcherApp: WorkerAppDefinition = {
  name: 'sms-dispatcher',
  consume: [QueueName.OtpDispatch, QueueName.SmsDispatch],
  imports: [SmsSubmitModule],
};
