import type { ApplicationSettings } from '@mp/accounts-domain';
import { findPrice, type PriceRule } from '@mp/billing-domain';
import { userMessageReferences } from '@mp/messaging';
import { splitSms } from '@mp/messaging-domain';
import { otpTemplateVariables, renderOtpTemplate, sealText, type OtpChannel } from '@mp/otp-domain';
import type { NewMessage, OutboxJob } from '@mp/persistence';
import { QueueName } from '@mp/queue-contracts';
import { randomUUID } from 'node:crypto';
import { OtpNoPriceError } from './otp-errors';

export interface OtpKeys {
  /** HMAC key of stored codes. */
  hash: Buffer;
  /** AES-256-GCM key of texts that carry a code. */
  text: Buffer;
}

/** What an OTP's text is made of, apart from its code. */
export interface OtpTextSpec {
  companyId: string;
  verificationId: string;
  application: { name: string; settings: ApplicationSettings };
  recipient: string;
  channel: OtpChannel;
  sender: string;
  templateText: string;
  lang: string;
  customVars: Record<string, string | number | boolean>;
  expiresAt: Date;
  expiryMinutes: number;
}

/**
 * The job that delivers an OTP's message: over SMS from the OTP queue (so codes never wait behind
 * campaigns), or through the WhatsApp Cloud API from the otp app.
 */
export function otpDeliveryJob(channel: OtpChannel, messageId: string, at: Date): OutboxJob {
  if (channel === 'whatsapp') {
    return { queue: QueueName.OtpDeliver, jobName: 'otp.whatsapp', jobId: `otp-wa-${messageId}`, data: { messageId }, notBefore: at, priority: null };
  }
  return { queue: QueueName.OtpDispatch, jobName: 'sms.submit', jobId: `otp-${messageId}`, data: { messageIds: [messageId] }, notBefore: at, priority: null };
}

/**
 * The message that carries a code: rendered, priced per part (per message on WhatsApp), and its
 * text sealed at once, so the plain text exists only in this function's memory. On WhatsApp the
 * text is Meta's authentication template, which takes the code alone: the sealed body is the code.
 */
export function composeOtpMessage(spec: OtpTextSpec, code: string, prices: readonly PriceRule[], key: Buffer): NewMessage {
  const text = renderOtpTemplate(
    spec.templateText,
    otpTemplateVariables({
      code,
      appName: spec.application.name,
      expiresAt: spec.expiresAt,
      expiryMinutes: spec.expiryMinutes,
      timeZone: spec.application.settings.timezone,
      recipient: spec.recipient,
      channel: spec.channel,
      lang: spec.lang,
      customVars: spec.customVars,
    }),
  );
  const route = spec.channel === 'whatsapp' ? 'whatsapp' : 'auto';
  const rule = findPrice(prices, spec.recipient, route);
  if (!rule) throw new OtpNoPriceError(spec.recipient, route);
  const split = splitSms(text);
  const parts = spec.channel === 'whatsapp' ? 1 : split.parts.length;
  const id = randomUUID();
  return {
    id,
    companyId: spec.companyId,
    requestId: spec.verificationId,
    route,
    sender: spec.sender,
    recipient: spec.recipient,
    body: sealText(key, spec.channel === 'whatsapp' ? code : text),
    encoding: split.encoding,
    parts,
    pricePerPart: rule.price,
    cost: rule.price * BigInt(parts),
    reference: null,
    webhookUrl: null,
    status: 'queued',
    scheduledAt: null,
    partReferences: userMessageReferences(id, parts),
    channel: spec.channel,
    otpId: spec.verificationId,
    bodySealed: true,
  };
}
