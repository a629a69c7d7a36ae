import { Injectable, Logger } from '@nestjs/common';
import { WhatsAppCloudClient } from '@mp/carrier';
import { DispatchStore, type DispatchResult } from '@mp/messaging';
import { OtpLifecycle } from '@mp/otp';
import { openText, parseTextKey } from '@mp/otp-domain';
import { QUEUE_POLICIES, QueueName } from '@mp/queue-contracts';
import { OutboxRelay } from '@mp/queue-runtime';
import { UnrecoverableError } from 'bullmq';
import { OtpEnv } from '../otp.env';

/**
 * Sends an OTP's code through the WhatsApp Cloud API and records the answer as its message's
 * submission (the Cloud API's message id is the carrier id its status webhooks name). Run twice,
 * it sends once: a message whose part is no longer pending is skipped.
 */
@Injectable()
export class WhatsAppSender {
  private readonly logger = new Logger('WhatsAppSender');
  private readonly client: WhatsAppCloudClient;
  private readonly textKey: Buffer;

  constructor(
    private readonly store: DispatchStore,
    private readonly lifecycle: OtpLifecycle,
    private readonly relay: OutboxRelay,
    config: OtpEnv,
  ) {
    this.textKey = parseTextKey(config.OTP_TEXT_KEY);
    this.client = new WhatsAppCloudClient({
      baseUrl: config.WHATSAPP_API_BASE_URL,
      version: config.WHATSAPP_API_VERSION,
      phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID,
      accessToken: config.WHATSAPP_ACCESS_TOKEN,
      templateName: config.WHATSAPP_TEMPLATE_NAME,
      timeoutMs: config.WHATSAPP_TIMEOUT_MS,
    });
  }

  async send(messageId: string, attempt: number): Promise<{ sent: boolean; skipped?: string }> {
    const [message] = await this.store.loadMany([messageId]);
    if (!message) throw new UnrecoverableError(`message ${messageId} does not exist`);
    const part = message.parts[0];
    if (!part || part.status !== 'pending' || message.status !== 'queued') return { sent: false, skipped: message.status };
    const outcome = await this.client.sendAuthenticationCode({
      to: message.recipient,
      code: openText(this.textKey, message.body),
      language: await this.templateLanguage(messageId),
    });
    if (outcome.ok) {
      await this.relayed(this.store.recordSubmittedMany([{ messageId, partIndex: 1, carrierMessageId: outcome.messageId }]));
      return { sent: true };
    }
    if (outcome.permanent || attempt >= QUEUE_POLICIES[QueueName.OtpDeliver].attempts) {
      this.logger.warn({ msg: 'WhatsApp refused the OTP for good', messageId, status: outcome.status, reason: outcome.reason });
      await this.relayed(this.store.recordPartFailed(messageId, 1, `wa:${outcome.status ?? 'unreachable'}`, outcome.reason));
      return { sent: false, skipped: 'failed' };
    }
    throw new Error(`WhatsApp did not take the OTP yet: ${outcome.reason}`);
  }

  /** Meta names languages with an underscore (pt_BR); ours use a hyphen (pt-BR). */
  private async templateLanguage(messageId: string): Promise<string> {
    return ((await this.lifecycle.languageOfMessage(messageId)) ?? 'en').replace('-', '_');
  }

  private async relayed(write: Promise<DispatchResult>): Promise<void> {
    const { outbox } = await write;
    if (outbox.jobs.length > 0) await this.relay.relay(outbox.ids, outbox.jobs);
  }
}
