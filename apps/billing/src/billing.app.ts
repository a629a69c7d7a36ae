import type { WorkerAppDefinition } from '@mp/app-runtime';
import { QueueName } from '@mp/queue-contracts';
import { RefundsModule } from './refunds/refunds.module';

/** Settles money after the fact: refunds of parts that never reached a carrier, usage aggregates. */
export const BillingApp: WorkerAppDefinition = {
  name: 'billing',
  consume: [QueueName.BillingSettle],
  imports: [RefundsModule],
};
