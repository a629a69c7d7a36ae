import type { WorkerAppDefinition } from '@mp/app-runtime';
import { QueueName } from '@mp/queue-contracts';

/** Renders OTP texts and hands them to a channel: SMS (via otp.dispatch) or WhatsApp. */
export const OtpApp: WorkerAppDefinition = {
  name: 'otp',
  consume: [QueueName.OtpDeliver],
};
