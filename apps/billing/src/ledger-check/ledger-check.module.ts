import { Module } from '@nestjs/common';
import { BillingDataModule } from '@mp/billing';
import { LedgerCheck } from './ledger-check.service';

/** mp_ledger_balance_mismatches, checked every minute. */
@Module({ imports: [BillingDataModule], providers: [LedgerCheck] })
export class LedgerCheckModule {}
