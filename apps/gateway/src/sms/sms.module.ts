import { Module } from '@nestjs/common';
import { PriceBook } from './price-book.service';
import { SmsEstimateService } from './sms-estimate.service';
import { SmsController } from './sms.controller';
import { SmsService } from './sms.service';

@Module({ controllers: [SmsController], providers: [SmsService, SmsEstimateService, PriceBook] })
export class SmsModule {}
