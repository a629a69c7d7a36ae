import { Module } from '@nestjs/common';
import { MessagingDataModule } from '@mp/messaging';
import { OtpDataModule } from '@mp/otp';
import { WhatsAppSender } from './whatsapp-sender.service';
import { OtpWhatsAppProcessor } from './whatsapp.processor';

/** OTPs over WhatsApp: the Cloud API adapter and its job. */
@Module({ imports: [MessagingDataModule, OtpDataModule], providers: [WhatsAppSender, OtpWhatsAppProcessor] })
export class WhatsAppModule {}
