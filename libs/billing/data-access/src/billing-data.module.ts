import { Module } from '@nestjs/common';
import { providedWithDataSource } from '@mp/persistence';
import { LedgerViews } from './ledger-views';
import { LedgerRepository } from './ledger.repository';

/**
 * Balances and the ledger, for the apps that charge, refund or show a balance or the ledger. This lib is the
 * only one that writes the `balances` and `ledger_entries` tables. Needs DatabaseModule.
 */
@Module({
  providers: [providedWithDataSource(LedgerRepository), providedWithDataSource(LedgerViews)],
  exports: [LedgerRepository, LedgerViews],
})
export class BillingDataModule {}
