import { Module } from '@nestjs/common';
import { BillingDataModule } from '@mp/billing';
import { MessagingDataModule } from '@mp/messaging';
import { UsageController } from './usage.controller';

@Module({ imports: [BillingDataModule, MessagingDataModule], controllers: [UsageController] })
export class UsageModule {}
