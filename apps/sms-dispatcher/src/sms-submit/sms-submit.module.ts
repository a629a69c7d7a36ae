import { Module } from '@nestjs/common';
import { AuditLogRepository, PriceRepository, SenderRegistry } from '@mp/accounts';
import { LedgerRepository } from '@mp/billing';
import { INBOUND_STORE_DEFAULTS, InboundStore, KeywordResponder, MessageRepository, MessagingDataModule } from '@mp/messaging';
import { OutboxRepository } from '@mp/queue-runtime';
import { DataSource } from 'typeorm';
import { CarrierStatusPublisher } from '../carrier/carrier-status.publisher';
import { CarrierMetrics } from '../carrier/carrier-metrics.service';
import { CarrierPool } from '../carrier/carrier-pool.service';
import { InboundRecorder } from '../carrier/inbound-recorder.service';
import { ReceiptRecorder } from '../carrier/receipt-recorder.service';
import { SubmitSpans } from '../carrier/submit-spans';
import { OutboxSweeper } from '../outbox-sweeper.service';
import { extraOptOutKeywords, SmsDispatcherEnv } from '../sms-dispatcher.env';
import { CampaignBatchProcessor } from './campaign-batch.processor';
import { SmsSubmitProcessor } from './sms-submit.processor';
import { SmsSubmitter } from './sms-submitter.service';
import { SubmitRecorder } from './submit-recorder.service';

@Module({
  imports: [MessagingDataModule],
  providers: [
    CarrierPool,
    CarrierMetrics,
    CarrierStatusPublisher,
    SubmitSpans,
    ReceiptRecorder,
    InboundRecorder,
    {
      // The company a number is assigned to owns what is sent to it (SenderRegistry is read only here),
      // and its keywords (STOP, START, HELP) are answered in the transaction that stores them.
      provide: InboundStore,
      useFactory: (db: DataSource, messages: MessageRepository, outbox: OutboxRepository, config: SmsDispatcherEnv) => {
        const senders = new SenderRegistry(db, new AuditLogRepository(db));
        const prices = new PriceRepository(db);
        const keywords = new KeywordResponder(messages, new LedgerRepository(db), outbox, {
          extraOptOutKeywords: extraOptOutKeywords(config),
          prices: () => prices.list(),
        });
        return new InboundStore(db, (number) => senders.ownerOf(number), INBOUND_STORE_DEFAULTS, keywords);
      },
      inject: [DataSource, MessageRepository, OutboxRepository, SmsDispatcherEnv],
    },
    SubmitRecorder,
    SmsSubmitter,
    SmsSubmitProcessor,
    CampaignBatchProcessor,
    OutboxSweeper,
  ],
})
export class SmsSubmitModule {}
