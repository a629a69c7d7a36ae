import type { WorkerAppDefinition } from '@mp/app-runtime';
import { QueueName } from '@mp/queue-contracts';
import { SmsSubmitModule } from './sms-submit/sms-submit.module';
import { TrafficModule } from './traffic.module';

/** Submits SMS parts to carriers over SMPP; OTPs, single sends and campaigns each have their own queue. */
export const SmsDispatcherApp: WorkerAppDefinition = {
  name: 'sms-dispatcher',
  consume: [QueueName.OtpDispatch, QueueName.SmsDispatch, QueueName.CampaignDispatch],
  imports: [TrafficModule, SmsSubmitModule],
  genericPlans: true,
};
