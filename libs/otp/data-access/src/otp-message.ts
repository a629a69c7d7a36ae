import type { ApplicationSettings } from '@mp/accounts-domain';
import { findPrice, type PriceRule } from '@mp/billing-domain';
import { userMessageReferences, type NewMessage } from '@mp/messaging';
import { MAX_SMS_CHARACTERS, splitSms } from '@mp/messaging-domain';
import { otpTemplateVariables, renderOtpTemplate, sealText, type OtpChannel } from '@mp/otp-domain';
import { timeOrderedUuid } from '@mp/persistence';
import { QueueName } from '@mp/queue-contracts';
import type { OutboxJob } from '@mp/queue-runtime';
import { OtpNoPriceError, OtpTemplateError } from './otp-errors';

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

/** OTP messages per `sms.submit` job on the OTP queue, as many as single sends share. */
const OTP_MESSAGES_PER_JOB = 100;

/**
 * The job that delivers an OTP's message: over SMS from the OTP queue (so codes never wait behind
 * campaigns), or through the WhatsApp Cloud API from the otp app.
 */
export function otpDeliveryJob(channel: OtpChannel, messageId: string, at: Date): OutboxJob {
  return otpDeliveryJobs([{ channel, messageId }], at)[0];
}

/**
 * The jobs that deliver the messages of OTPs committed together. Their SMS share jobs (the
 * dispatcher submits a job's messages all at once): one queue job per OTP cost more than the rest
 * of its dispatch. A job is named after its first message, which no other job carries.
 */
export function otpDeliveryJobs(messages: readonly { channel: OtpChannel; messageId: string }[], at: Date): OutboxJob[] {
  const jobs: OutboxJob[] = [];
  const sms = messages.filter((m) => m.channel === 'sms').map((m) => m.messageId);
  for (let start = 0; start < sms.length; start += OTP_MESSAGES_PER_JOB) {
    const messageIds = sms.slice(start, start + OTP_MESSAGES_PER_JOB);
    jobs.push({ queue: QueueName.OtpDispatch, jobName: 'sms.submit', jobId: `otp-${messageIds[0]}`, data: { messageIds }, notBefore: at, priority: null });
  }
  for (const { channel, messageId } of messages) {
    if (channel === 'whatsapp') {
      jobs.push({ queue: QueueName.OtpDeliver, jobName: 'otp.whatsapp', jobId: `otp-wa-${messageId}`, data: { messageId }, notBefore: at, priority: null });
    }
  }
  return jobs;
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
  const characters = [...text].length;
  if (characters > MAX_SMS_CHARACTERS) {
    throw new OtpTemplateError(`the OTP text is ${characters} characters once rendered, at most ${MAX_SMS_CHARACTERS}: shorten the template or custom_vars`);
  }
  const split = splitSms(text);
  const parts = spec.channel === 'whatsapp' ? 1 : split.parts.length;
  const id = timeOrderedUuid();
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
