import type { WorkerAppDefinition } from '@mp/app-runtime';
import { QueueName } from '@mp/queue-contracts';

/** Settles money after the fact: refunds of parts that never reached a carrier, usage aggregates. */
export const BillingApp: WorkerAppDefinition = {
  name: 'billing',
  consume: [QueueName.BillingSettle],
};
