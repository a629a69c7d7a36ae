import { Module } from '@nestjs/common';
import { MessagingDataModule } from '@mp/messaging';
import { RefundProcessor } from './refund.processor';

@Module({ imports: [MessagingDataModule], providers: [RefundProcessor] })
export class RefundsModule {}
