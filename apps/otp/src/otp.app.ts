import type { WorkerAppDefinition } from '@mp/app-runtime';
import { QueueName } from '@mp/queue-contracts';
import { LifecycleModule } from './lifecycle/lifecycle.module';
import { WhatsAppModule } from './whatsapp/whatsapp.module';

/**
 * OTPs after the gateway created them: codes sent over WhatsApp (the Cloud API), delivery
 * receipts become `delivered` events, pending OTPs past their expiry become `expired`, each with
 * its webhook event.
 * (The gateway renders and seals OTP texts itself: docs/decisions/0006-gateway-renders-otp-texts.md.)
 */
export const OtpApp: WorkerAppDefinition = {
  name: 'otp',
  consume: [QueueName.OtpDeliver],
  imports: [LifecycleModule, WhatsAppModule],
};
