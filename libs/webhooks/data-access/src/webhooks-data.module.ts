import { Module } from '@nestjs/common';
import { providedWithDataSource } from '@mp/persistence';
import { OutboxRelay } from '@mp/queue-runtime';
import { DataSource } from 'typeorm';
import { WebhookDeliveryLog } from './webhook-delivery-log';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookResends } from './webhook-resends';

/**
 * Webhook deliveries and their attempts. This lib is the only one that writes the
 * `webhook_deliveries` and `webhook_attempts` tables. Needs DatabaseModule, and QueueModule for
 * the resends' outbox relay.
 */
@Module({
  providers: [
    providedWithDataSource(WebhookDeliveryRepository),
    providedWithDataSource(WebhookDeliveryLog),
    {
      provide: WebhookResends,
      useFactory: (db: DataSource, relay: OutboxRelay) => new WebhookResends(db, (ids, jobs) => relay.relay(ids, jobs)),
      inject: [DataSource, OutboxRelay],
    },
  ],
  exports: [WebhookDeliveryRepository, WebhookDeliveryLog, WebhookResends],
})
export class WebhooksDataModule {}
