import { Module } from '@nestjs/common';
import { providedWithDataSource } from '@mp/persistence';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';

/**
 * Webhook deliveries and their attempts. This lib is the only one that writes the
 * `webhook_deliveries` and `webhook_attempts` tables. Needs DatabaseModule.
 */
@Module({
  providers: [providedWithDataSource(WebhookDeliveryRepository)],
  exports: [WebhookDeliveryRepository],
})
export class WebhooksDataModule {}
