import { Module } from '@nestjs/common';
import { MessagingDataModule } from '@mp/messaging';
import { PricingModule } from '../pricing/pricing.module';
import { SendersModule } from '../senders/senders.module';
import { CampaignsController } from './campaigns.controller';
import { CampaignsService } from './campaigns.service';
import { SmsBulkService } from './sms-bulk.service';
import { SmsEstimateService } from './sms-estimate.service';
import { SmsListController } from './sms-list.controller';
import { SmsController } from './sms.controller';
import { SmsService } from './sms.service';

@Module({
  imports: [MessagingDataModule, PricingModule, SendersModule],
  controllers: [SmsListController, SmsController, CampaignsController],
  providers: [SmsService, SmsEstimateService, SmsBulkService, CampaignsService],
  // The console sends its test messages and cancels campaigns through these: one way to do each.
  exports: [SmsService, CampaignsService],
})
export class SmsModule {}
