import { Module } from '@nestjs/common';
import { BillingDataModule } from '@mp/billing';
import { BalanceController } from './balance.controller';
import { BalanceService } from './balance.service';

@Module({ imports: [BillingDataModule], controllers: [BalanceController], providers: [BalanceService] })
export class BalanceModule {}
