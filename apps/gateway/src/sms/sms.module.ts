import { Module } from '@nestjs/common';
import { PricingModule } from '../pricing/pricing.module';
import { SmsBulkService } from './sms-bulk.service';
import { SmsEstimateService } from './sms-estimate.service';
import { SmsController } from './sms.controller';
import { SmsService } from './sms.service';

@Module({ imports: [PricingModule], controllers: [SmsController], providers: [SmsService, SmsEstimateService, SmsBulkService] })
export class SmsModule {}
