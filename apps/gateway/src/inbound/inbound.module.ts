import { Module } from '@nestjs/common';
import { MessagingDataModule } from '@mp/messaging';
import { InboundController } from './inbound.controller';

/** GET /sms/inbound and GET /sms/inbound/{id}. */
@Module({ imports: [MessagingDataModule], controllers: [InboundController] })
export class InboundModule {}
