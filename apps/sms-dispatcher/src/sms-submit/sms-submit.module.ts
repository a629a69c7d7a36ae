import { Module } from '@nestjs/common';
import { AuditLogRepository, SenderRegistry } from '@mp/accounts';
import { InboundStore, MessagingDataModule } from '@mp/messaging';
import { DataSource } from 'typeorm';
import { BindStatePublisher } from '../carrier/bind-state.publisher';
import { CarrierMetrics } from '../carrier/carrier-metrics.service';
import { CarrierPool } from '../carrier/carrier-pool.service';
import { InboundRecorder } from '../carrier/inbound-recorder.service';
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
    InboundRecorder,
    {
      // The company a number is assigned to owns what is sent to it (SenderRegistry is read only here).
      provide: InboundStore,
      useFactory: (db: DataSource) => {
        const senders = new SenderRegistry(db, new AuditLogRepository(db));
        return new InboundStore(db, (number) => senders.ownerOf(number));
      },
      inject: [DataSource],
    },
    SubmitRecorder,
    SmsSubmitter,
    SmsSubmitProcessor,
    CampaignBatchProcessor,
    OutboxSweeper,
  ],
})
export class SmsSubmitModule {}
