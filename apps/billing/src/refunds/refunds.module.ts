import { Module } from '@nestjs/common';
import { RefundProcessor } from './refund.processor';

@Module({ providers: [RefundProcessor] })
export class RefundsModule {}
