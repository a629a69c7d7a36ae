import { getSchemaPath, type PathItemObject } from '@nestjs/swagger';
import { OTP_FAILURE_REASONS, OTP_STATES } from '@mp/otp-domain';
import { Integer, Money, Nested, NullableOneOf, NullableText, NullableTimestamp, OneOf, Text, Timestamp, Uuid } from './schema-properties';
import { InboundMessageDto } from '../inbound/inbound.dto';

// The webhook events the platform POSTs (apps/webhook-notifier/src/webhooks/*-events.ts), signed
// per Standard Webhooks (libs/webhooks/src/signing.ts): OpenAPI 3.1 `webhooks`.

const MESSAGE_FAILURES = ['undelivered', 'expired', 'rejected', 'failed'] as const;

class MessageEventDataDto {
  @Uuid('The message_id POST /sms/send (or, for a campaign, GET /sms/campaigns/{id}/messages) gave') message_id: string;
  @Text({ example: '+447911123456' }) to: string;
  @NullableText({ description: "The message's reference, null when none was given" }) reference: string | null;
  @Integer({ minimum: 1 }) parts: number;
}

export class MessageSentDataDto extends MessageEventDataDto {
  @OneOf(['sent']) status: string;
}

export class MessageDeliveredDataDto extends MessageEventDataDto {
  @OneOf(['delivered']) status: string;
}

export class MessageFailedDataDto extends MessageEventDataDto {
  @OneOf(MESSAGE_FAILURES) status: string;
  @OneOf(MESSAGE_FAILURES, { description: 'Which failure: the same as `status`' }) reason: string;
  @NullableText({ example: '001', description: "The carrier's error code (receipt `err:` or submit status); null when it gave none" })
  error_code: string | null;
}

export class MessageSentEventDto {
  @OneOf(['message.sent']) type: string;
  @Timestamp('When it happened') timestamp: string;
  @Nested(MessageSentDataDto) data: MessageSentDataDto;
}

export class MessageDeliveredEventDto {
  @OneOf(['message.delivered']) type: string;
  @Timestamp('When it happened') timestamp: string;
  @Nested(MessageDeliveredDataDto) data: MessageDeliveredDataDto;
}

export class MessageFailedEventDto {
  @OneOf(['message.failed']) type: string;
  @Timestamp('When it happened') timestamp: string;
  @Nested(MessageFailedDataDto) data: MessageFailedDataDto;
}

export class OtpEventDataDto {
  @Uuid() verification_id: string;
  @Text() appid: string;
  @Text() recipient: string;
  @OneOf(['sms', 'whatsapp']) channel: string;
  @OneOf(OTP_STATES, { description: "The OTP's state when the event was recorded" }) status: string;
  @Timestamp() expires_at: string;
  @NullableTimestamp('Set once verified') verified_at: string | null;
}

export class OtpDeliveredEventDto {
  @OneOf(['otp.delivered']) type: string;
  @Timestamp('When it happened') timestamp: string;
  @Nested(OtpEventDataDto) data: OtpEventDataDto;
}

export class OtpVerifiedEventDto {
  @OneOf(['otp.verified']) type: string;
  @Timestamp('When it happened') timestamp: string;
  @Nested(OtpEventDataDto) data: OtpEventDataDto;
}

export class OtpExpiredEventDto {
  @OneOf(['otp.expired']) type: string;
  @Timestamp('When it happened') timestamp: string;
  @Nested(OtpEventDataDto) data: OtpEventDataDto;
}

export class OtpFailedEventDataDto extends OtpEventDataDto {
  @NullableOneOf(OTP_FAILURE_REASONS, { description: '`too_many_attempts`, or why its code never reached the handset' }) failure_reason: string | null;
  @NullableText({ description: "The carrier's error code, null when it gave none" }) error_code: string | null;
}

export class OtpFailedEventDto {
  @OneOf(['otp.failed']) type: string;
  @Timestamp('When it happened') timestamp: string;
  @Nested(OtpFailedEventDataDto) data: OtpFailedEventDataDto;
}

export class CampaignOutcomeDto {
  @Integer() delivered: number;
  @Integer({ description: 'Undelivered, expired, rejected or failed' }) failed: number;
  @Integer({ description: 'In batches cancelled before they started' }) cancelled: number;
}

export class CampaignCompletedDataDto {
  @Uuid() campaign_id: string;
  @NullableText() reference: string | null;
  @Integer() total_recipients: number;
  @Integer() successful: number;
  @Integer() failed: number;
  @Nested(CampaignOutcomeDto) summary: CampaignOutcomeDto;
  @Money('Charged') total_cost: number;
  @Money('Refunded') refunded: number;
}

export class CampaignCompletedEventDto {
  @OneOf(['campaign.completed']) type: string;
  @Timestamp('When it happened') timestamp: string;
  @Nested(CampaignCompletedDataDto) data: CampaignCompletedDataDto;
}

export class MessageReceivedEventDto {
  @OneOf(['message.received']) type: string;
  @Timestamp('When it was stored') timestamp: string;
  @Nested(InboundMessageDto) data: InboundMessageDto;
}

export class ContactEventDataDto {
  @Text({ example: '+447700900001', description: 'The contact (E.164)' }) phone: string;
  @NullableText({ example: '+447400900123', description: 'The company’s number the entry is for; null when it covers every number (STOPALL)' })
  number: string | null;
  @Text({ example: 'STOP', description: 'The text the contact sent, trimmed' }) keyword: string;
  @Uuid('The inbound message (GET /sms/inbound/{id})') inbound_message_id: string;
}

export class ContactOptedOutEventDto {
  @OneOf(['contact.opted_out']) type: string;
  @Timestamp('When the keyword was received') timestamp: string;
  @Nested(ContactEventDataDto) data: ContactEventDataDto;
}

export class ContactOptedInEventDto {
  @OneOf(['contact.opted_in']) type: string;
  @Timestamp('When the keyword was received') timestamp: string;
  @Nested(ContactEventDataDto) data: ContactEventDataDto;
}

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header' as const,
    required: true,
    description: 'The delivery id: the same on every retry of this event and on a resend from the console, so a receiver can drop repeats',
    schema: { type: 'string' as const },
  },
  {
    name: 'webhook-timestamp',
    in: 'header' as const,
    required: true,
    description: 'Unix seconds when this attempt was signed; refuse one more than 5 minutes away from your clock',
    schema: { type: 'string' as const, pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header' as const,
    required: true,
    description:
      "`v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}` (the exact bytes) with the key decoded from your signing secret `whsec_<base64>`. Space-separated when several: while a rotated secret's overlap lasts, one made with the new secret and one with the old; accept the request when any one verifies. Compare in constant time.",
    schema: { type: 'string' as const, pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
  },
  {
    name: 'content-type',
    in: 'header' as const,
    required: true,
    schema: { type: 'string' as const, enum: ['application/json'] },
  },
];

const RESPONSES = {
  '2XX': { description: 'Received: the delivery ends' },
  default: {
    description:
      'Anything else, a redirect, or no answer within 10 s: retried with exponential backoff and jitter for at least 24 hours, then dead-lettered (visible in the dashboard). A refused address (private, loopback or link-local after DNS resolution) ends the delivery at once.',
  },
};

const EVENTS: { name: string; model: new () => object; summary: string; description: string }[] = [
  {
    name: 'message.sent',
    model: MessageSentEventDto,
    summary: 'A message was accepted by the carrier',
    description: 'To the `webhook_url` given to POST /sms/send or /sms/send-bulk.',
  },
  {
    name: 'message.delivered',
    model: MessageDeliveredEventDto,
    summary: 'A message was delivered',
    description: 'Its delivery receipt said delivered (every part).',
  },
  {
    name: 'message.failed',
    model: MessageFailedEventDto,
    summary: 'A message was not delivered',
    description:
      "`reason` says how: `undelivered`, `expired`, `rejected` (receipts) or `failed` (never reached a carrier; refunded); `error_code` is the carrier's.",
  },
  {
    name: 'otp.delivered',
    model: OtpDeliveredEventDto,
    summary: "An OTP's message was delivered",
    description: "To the application's `webhook_url` (set in the dashboard).",
  },
  { name: 'otp.verified', model: OtpVerifiedEventDto, summary: 'An OTP was verified', description: "To the application's `webhook_url`." },
  { name: 'otp.expired', model: OtpExpiredEventDto, summary: 'An OTP expired unverified', description: "To the application's `webhook_url`." },
  {
    name: 'otp.failed',
    model: OtpFailedEventDto,
    summary: 'An OTP failed',
    description:
      "Its wrong codes were used up, or the message carrying its code did not reach the handset (refunded; such an OTP may be resent). `failure_reason` says which. To the application's `webhook_url`.",
  },
  {
    name: 'campaign.completed',
    model: CampaignCompletedEventDto,
    summary: 'A campaign finished',
    description: "Every batch dispatched or cancelled and every message final. To the campaign's `webhook_url`.",
  },
  {
    name: 'message.received',
    model: MessageReceivedEventDto,
    summary: "A handset sent a message to one of the company's numbers",
    description:
      "Its parts joined, once however often the carrier sent them. To the company's `inbound_webhook_url` (PUT /settings, or `admin company:settings --inbound-webhook`); also listed by GET /sms/inbound.",
  },
  {
    name: 'contact.opted_out',
    model: ContactOptedOutEventDto,
    summary: 'A contact opted out by keyword',
    description:
      "Its whole text was STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT, ARRET, TD or one of the operator's own keywords, and it was not on the suppression list for that number yet (`number` null: STOPALL, every number). Sends to it are refused from now on. To the company's `inbound_webhook_url`.",
  },
  {
    name: 'contact.opted_in',
    model: ContactOptedInEventDto,
    summary: 'A contact opted back in by keyword',
    description:
      "Its whole text was START, UNSTOP or YES, and it lifted an entry of the suppression list (for that number, and a company-wide one). To the company's `inbound_webhook_url`.",
  },
];

/** The schemas the webhooks use, for SwaggerModule.createDocument's `extraModels`. */
export const WEBHOOK_MODELS = EVENTS.map((event) => event.model);

/** OpenAPI 3.1 `webhooks`: each event the platform POSTs, its signed headers and its body. */
export function webhookPathItems(): Record<string, PathItemObject> {
  return Object.fromEntries(
    EVENTS.map((event) => [
      event.name,
      {
        post: {
          summary: event.summary,
          description: `${event.description} Signed per Standard Webhooks; the body is the JSON below, keys in this order.`,
          operationId: `webhook_${event.name.replace('.', '_')}`,
          tags: ['webhooks'],
          parameters: SIGNATURE_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: getSchemaPath(event.model) } } } },
          responses: RESPONSES,
        },
      },
    ]),
  );
}
