import type { WorkerAppDefinition } from '@mp/app-runtime';
import { QueueName } from '@mp/queue-contracts';
import { LedgerCheckModule } from './ledger-check/ledger-check.module';
import { RefundsModule } from './refunds/refunds.module';

/** Settles money after the fact: refunds of parts that never reached a carrier, usage aggregates; checks balances against the ledger. */
export const BillingApp: WorkerAppDefinition = {
  name: 'billing',
  consume: [QueueName.BillingSettle],
  imports: [RefundsModule, LedgerCheckModule],
};
