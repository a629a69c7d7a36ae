import { Module } from '@nestjs/common';
import { WhatsAppSender } from './whatsapp-sender.service';
import { OtpWhatsAppProcessor } from './whatsapp.processor';

/** OTPs over WhatsApp: the Cloud API adapter and its job. */
@Module({ providers: [WhatsAppSender, OtpWhatsAppProcessor] })
export class WhatsAppModule {}
