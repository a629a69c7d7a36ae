import { Module } from '@nestjs/common';
import { MessagingDataModule } from '@mp/messaging';
import { BindStatePublisher } from '../carrier/bind-state.publisher';
import { CarrierMetrics } from '../carrier/carrier-metrics.service';
import { CarrierPool } from '../carrier/carrier-pool.service';
import { ReceiptRecorder } from '../carrier/receipt-recorder.service';
import { SubmitSpans } from '../carrier/submit-spans';
import { OutboxSweeper } from '../outbox-sweeper.service';
import { CampaignBatchProcessor } from './campaign-batch.processor';
import { SmsSubmitProcessor } from './sms-submit.processor';
import { SmsSubmitter } from './sms-submitter.service';
import { SubmitRecorder } from './submit-recorder.service';

@Module({
  imports: [MessagingDataModule],
  providers: [
    CarrierPool,
    CarrierMetrics,
    BindStatePublisher,
    SubmitSpans,
    ReceiptRecorder,
    SubmitRecorder,
    SmsSubmitter,
    SmsSubmitProcessor,
    CampaignBatchProcessor,
    OutboxSweeper,
  ],
})
export class SmsSubmitModule {}
