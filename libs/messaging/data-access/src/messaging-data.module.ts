import { Module } from '@nestjs/common';
import { BillingDataModule, LedgerRepository } from '@mp/billing';
import { createBulkPhoneValidator } from '@mp/messaging-domain';
import { providedWithDataSource } from '@mp/persistence';
import { OutboxRelay, OutboxRepository, type OutboxJob } from '@mp/queue-runtime';
import { DataSource } from 'typeorm';
import {
  CampaignAcceptanceService,
  CampaignBatchStore,
  CampaignCancellationService,
  CampaignCompletion,
  CampaignConsole,
  CampaignViews,
  CampaignWebhookEvents,
} from './campaigns';
import { MessageLog } from './console';
import { DispatchStore } from './dispatch-store';
import { MessageCancellationService } from './message-cancellation';
import { MessageRefundService } from './message-refund';
import { ContactWebhookEvents, InboundViews, InboundWebhookEvents } from './inbound';
import { MessageViews } from './message-view';
import { MessageWebhookEvents } from './message-webhook-events';
import { MessageRepository } from './message.repository';
import { OptOutStore, SuppressionCheck } from './opt-outs';
import { MarginReports } from './reports';
import { SmsAcceptanceService } from './sms-acceptance';

/**
 * Committed jobs go to their queues once per group; an answer does not wait for Redis, since the
 * outbox already holds them and the dispatcher's sweeper enqueues whatever a relay misses.
 */
const relayed = (relay: OutboxRelay) => (outbox: { ids: string[]; jobs: OutboxJob[] }) => relay.relay(outbox.ids, outbox.jobs);

const PROVIDED = [
  MessageRepository,
  DispatchStore,
  CampaignBatchStore,
  SmsAcceptanceService,
  CampaignAcceptanceService,
  MessageCancellationService,
  CampaignCancellationService,
  MessageRefundService,
  MessageViews,
  MessageLog,
  CampaignViews,
  CampaignConsole,
  CampaignCompletion,
  MessageWebhookEvents,
  CampaignWebhookEvents,
  OptOutStore,
  SuppressionCheck,
  InboundViews,
  InboundWebhookEvents,
  ContactWebhookEvents,
  MarginReports,
];

/**
 * Messages and campaigns: accepting and charging sends, dispatch states, receipts, cancellations,
 * refunds, views and webhook events. This lib is the only one that writes the `messages`,
 * `message_parts`, `carrier_receipts`, `sweep_cursors`, `campaigns`, `campaign_batches`,
 * `opt_outs`, `inbound_messages` and `inbound_fragments` tables. Needs DatabaseModule and QueueModule (the outbox and its relay).
 */
@Module({
  imports: [BillingDataModule],
  providers: [
    providedWithDataSource(MessageRepository),
    providedWithDataSource(MessageViews),
    providedWithDataSource(MessageLog),
    providedWithDataSource(CampaignViews),
    providedWithDataSource(CampaignConsole),
    providedWithDataSource(CampaignCompletion),
    providedWithDataSource(MessageWebhookEvents),
    providedWithDataSource(CampaignWebhookEvents),
    providedWithDataSource(OptOutStore),
    providedWithDataSource(InboundViews),
    providedWithDataSource(InboundWebhookEvents),
    providedWithDataSource(ContactWebhookEvents),
    providedWithDataSource(MarginReports),
    { provide: SuppressionCheck, useFactory: (store: OptOutStore) => new SuppressionCheck(store), inject: [OptOutStore] },
    {
      provide: DispatchStore,
      useFactory: (db: DataSource, outbox: OutboxRepository) => new DispatchStore(db, outbox),
      inject: [DataSource, OutboxRepository],
    },
    {
      provide: CampaignBatchStore,
      useFactory: (db: DataSource, messages: MessageRepository) => new CampaignBatchStore(db, messages),
      inject: [DataSource, MessageRepository],
    },
    {
      provide: SmsAcceptanceService,
      useFactory: (db: DataSource, messages: MessageRepository, ledger: LedgerRepository, relay: OutboxRelay) =>
        new SmsAcceptanceService(db, messages, ledger, { onCommitted: relayed(relay) }),
      inject: [DataSource, MessageRepository, LedgerRepository, OutboxRelay],
    },
    {
      provide: CampaignAcceptanceService,
      useFactory: (db: DataSource, ledger: LedgerRepository, outbox: OutboxRepository, relay: OutboxRelay, optOuts: OptOutStore) => {
        // The numbering plan's patterns compiled once per country (docs/decisions/0004-compiled-numbering-plans.md).
        const numbers = createBulkPhoneValidator();
        return new CampaignAcceptanceService(db, ledger, outbox, (input) => numbers.validate(input), {
          onCommitted: relayed(relay),
          suppression: (companyId) => optOuts.suppressionOf(companyId),
        });
      },
      inject: [DataSource, LedgerRepository, OutboxRepository, OutboxRelay, OptOutStore],
    },
    ...[MessageCancellationService, CampaignCancellationService, MessageRefundService].map((service) => ({
      provide: service,
      useFactory: (db: DataSource, ledger: LedgerRepository) => new service(db, ledger),
      inject: [DataSource, LedgerRepository],
    })),
  ],
  exports: PROVIDED,
})
export class MessagingDataModule {}
