import { Module } from '@nestjs/common';
import { MessagingDataModule } from '@mp/messaging';
import { WhatsAppWebhookController } from './whatsapp-webhook.controller';
import { WhatsAppWebhookService } from './whatsapp-webhook.service';

@Module({ imports: [MessagingDataModule], controllers: [WhatsAppWebhookController], providers: [WhatsAppWebhookService] })
export class WhatsAppWebhookModule {}
