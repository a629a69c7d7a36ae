import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { FailedNumberDto } from '../openapi/error-responses';
import { Integer, Money, Nested, NullableText, NullableTimestamp, OneOf, SuccessEnvelopeDto, Text, Timestamp, Uuid } from '../openapi/schema-properties';

// What POST /sms/send, POST /sms/estimate, GET and DELETE /sms/{message_id} answer
// (sms-responses.ts, sms-estimate.service.ts, sms.service.ts, @mp/messaging's message-view.ts).

export const MESSAGE_STATUSES = ['scheduled', 'queued', 'sent', 'delivered', 'undelivered', 'expired', 'rejected', 'failed', 'cancelled'] as const;
export const PART_STATUSES = ['pending', 'submitted', 'delivered', 'undelivered', 'expired', 'rejected', 'failed', 'cancelled'] as const;
const ROUTES = ['auto', 'standard', 'premium'] as const;
const ENCODINGS = ['GSM-7', 'UCS-2'] as const;
const ACCEPTED = ['sent', 'scheduled'] as const;

/** 2.2: one recipient. */
export class SmsSentDto {
  @Uuid() message_id: string;
  @Text({ example: '+447911123456', description: 'The number in E.164' }) to: string;
  @Text({ example: 'SMS' }) from: string;
  @Text() message: string;
  @Integer({ minimum: 1, description: 'SMS parts the text is split into, each charged' }) parts: number;
  @Money('Charged') cost: number;
  @Money('Balance after the charge') balance: number;
  @OneOf(ACCEPTED, { description: '`sent`: accepted for delivery; `scheduled` with `scheduled_time`' }) status: string;
  @NullableText({ description: 'Your reference; null when none was given' }) reference: string | null;
}

export class SmsSentResponseDto extends SuccessEnvelopeDto {
  @Nested(SmsSentDto) data: SmsSentDto;
}

/** One recipient of a multi-recipient send that was accepted. */
export class SmsRecipientAcceptedDto {
  @Uuid() message_id: string;
  @Text() to: string;
  @OneOf(ACCEPTED) status: string;
  @Money('Charged for this recipient') cost: number;
}

/** One recipient of a multi-recipient send that was not (an invalid number): not charged. */
export class SmsRecipientFailedDto {
  @ApiNull() message_id: null;
  @Text({ description: 'The number as given, trimmed' }) to: string;
  @OneOf(['failed']) status: string;
  @OneOf([0]) cost: number;
  @Text({ example: 'Invalid phone number format' }) error: string;
}

/** 2.3: several recipients. */
export class SmsMultiSentDto {
  @Integer({ description: 'Recipients in the request, duplicates included' }) total_recipients: number;
  @Integer({ description: 'Recipients accepted (each distinct valid number once)' }) successful: number;
  @Integer({ description: 'Invalid numbers, listed in `messages` with `status: "failed"`' }) failed: number;
  @Integer({ description: 'Repeats of a number already in the request, sent once' }) duplicates: number;
  @Money('Charged in all') total_cost: number;
  @Money('Balance after the charge') balance: number;
  @ApiRecipients() messages: (SmsRecipientAcceptedDto | SmsRecipientFailedDto)[];
}

export class SmsMultiSentResponseDto extends SuccessEnvelopeDto {
  @Nested(SmsMultiSentDto) data: SmsMultiSentDto;
}

export class SmsEstimateRecipientDto {
  @Text() to: string;
  @Integer({ minimum: 1 }) parts: number;
  @Money('Price of one part to this number on the route') price_per_part: number;
  @Money('What sending to this number would cost') cost: number;
}

export class SmsEstimateDto {
  @OneOf(ENCODINGS, { description: 'GSM-7: 160 characters in one part, else 153 per part; UCS-2: 70, else 67' }) encoding: string;
  @Integer({ minimum: 1 }) parts: number;
  @Integer({ description: 'Characters (code points) of the text' }) characters: number;
  @NullableText({ description: 'The first character that forced UCS-2; null for GSM-7 text' }) first_non_gsm_character: string | null;
  @OneOf(ROUTES) route: string;
  @Money('What the send would cost in all: the `recipients` only') total_cost: number;
  @Nested([SmsEstimateRecipientDto], { description: 'Each valid distinct number a send would go to (not those who opted out)' })
  recipients: SmsEstimateRecipientDto[];
  @Nested([FailedNumberDto], {
    description: 'Numbers a send would list as failed and not charge: the invalid ones, then those who opted out (`Recipient has opted out`)',
  })
  failed_numbers: FailedNumberDto[];
}

export class SmsEstimateResponseDto extends SuccessEnvelopeDto {
  @Nested(SmsEstimateDto) data: SmsEstimateDto;
}

export class MessagePartDto {
  @Integer({ minimum: 1 }) index: number;
  @OneOf(PART_STATUSES, { description: '`pending` until submitted to the carrier, then its receipt' }) status: string;
  @NullableTimestamp() submitted_at: string | null;
  @NullableTimestamp() completed_at: string | null;
  @NullableText({ description: "The carrier's error code (receipt `err:` or submit status)" }) error_code: string | null;
}

export class MessageDto {
  @Uuid() message_id: string;
  @Text() to: string;
  @Text() from: string;
  @Text() message: string;
  @OneOf(ROUTES) route: string;
  @OneOf(ENCODINGS) encoding: string;
  @Integer({ minimum: 1 }) parts: number;
  @Money('Charged') cost: number;
  @Money('Refunded (parts that never reached a carrier, or a cancelled message)') refunded: number;
  @OneOf(MESSAGE_STATUSES, {
    description:
      '`scheduled` | `queued` → `sent` (accepted by the carrier) → `delivered` | `undelivered` | `expired` | `rejected`; `failed` when it never reached a carrier; `cancelled`',
  })
  status: string;
  @NullableText() reference: string | null;
  @NullableText({ description: "The carrier's error code of a failed part" }) error_code: string | null;
  @NullableText({ description: 'Why the message failed, for people' }) error_reason: string | null;
  @NullableTimestamp() scheduled_time: string | null;
  @Timestamp() created_at: string;
  @NullableTimestamp() sent_at: string | null;
  @NullableTimestamp() completed_at: string | null;
  @NullableTimestamp() cancelled_at: string | null;
  @Nested([MessagePartDto]) part_details: MessagePartDto[];
}

export class MessageResponseDto extends SuccessEnvelopeDto {
  @Nested(MessageDto) data: MessageDto;
}

export class MessageCancelledDto {
  @Uuid() message_id: string;
  @OneOf(['cancelled']) status: string;
  @Money('Refunded: the whole charge') refunded: number;
  @Money('Balance after the refund') balance: number;
}

export class MessageCancelledResponseDto extends SuccessEnvelopeDto {
  @Nested(MessageCancelledDto) data: MessageCancelledDto;
}

function ApiNull(): PropertyDecorator {
  return ApiProperty({ type: 'null', description: 'No message was made' });
}

function ApiRecipients(): PropertyDecorator {
  return ApiProperty({
    type: 'array',
    items: { oneOf: [{ $ref: getSchemaPath(SmsRecipientAcceptedDto) }, { $ref: getSchemaPath(SmsRecipientFailedDto) }] },
    description: 'The accepted recipients, then the invalid numbers',
  });
}

/** POST /sms/send's 200: shape 2.2 for one recipient, 2.3 for several. */
export function ApiSmsSent(): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(SmsSentResponseDto, SmsMultiSentResponseDto, SmsRecipientAcceptedDto, SmsRecipientFailedDto),
    ApiOkResponse({
      description: 'Accepted: `data` as 2.2 for one recipient, as 2.3 for several (comma or semicolon separated)',
      schema: { oneOf: [{ $ref: getSchemaPath(SmsSentResponseDto) }, { $ref: getSchemaPath(SmsMultiSentResponseDto) }] },
    }),
  );
}
