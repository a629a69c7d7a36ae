import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { Integer, Money, Nested, NullableText, NullableTimestamp, NullableUuid, OneOf, Text, Timestamp, Uuid } from '../openapi/schema-properties';
import { MESSAGE_STATUSES, PART_STATUSES } from '../sms/sms-response.dto';

// The message log's bodies in the dashboard API (messages.controller.ts; the reads are
// @mp/messaging's MessageLog). class-validator runs a property's decorators bottom-up.

const HISTORY_EVENTS = [
  'accepted',
  'scheduled',
  'queued',
  'submitted',
  'sent',
  'delivered',
  'undelivered',
  'expired',
  'rejected',
  'failed',
  'cancelled',
  'refunded',
] as const;

export class MessageLogItemDto {
  @Uuid() message_id: string;
  @Text({ example: '+447911123456', description: 'The destination number in E.164' }) to: string;
  @Text({ example: 'Acme' }) from: string;
  @OneOf(MESSAGE_STATUSES) status: string;
  @Integer({ minimum: 1 }) parts: number;
  @Money('Charged') cost: number;
  @Money('Refunded (parts that never reached a carrier, or a cancelled schedule)') refunded: number;
  @NullableText() reference: string | null;
  @NullableUuid('The campaign it was sent by; null for a single send') campaign_id: string | null;
  @NullableText() error_code: string | null;
  @Timestamp() created_at: string;
  @NullableTimestamp() scheduled_time: string | null;
  @NullableTimestamp('When its first part was accepted by a carrier') sent_at: string | null;
  @NullableTimestamp('When it became `delivered`; null in any other state') delivered_at: string | null;
  @NullableTimestamp('When it took its final state') completed_at: string | null;
}

export class MessageLogPageDto {
  @Nested([MessageLogItemDto], { description: 'Newest first' }) items: MessageLogItemDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next (older) page with the same filter; null on the last' })
  next_cursor: string | null;
}

export class MessagePartDetailDto {
  @Integer({ minimum: 1 }) index: number;
  @OneOf(PART_STATUSES) status: string;
  @NullableText({ description: 'The id the carrier gave the part' }) carrier_message_id: string | null;
  @NullableText({ example: 'DELIVRD', description: 'The `stat` of the receipt that ended it' }) receipt_stat: string | null;
  @NullableText() error_code: string | null;
  @NullableTimestamp() submitted_at: string | null;
  @NullableTimestamp() completed_at: string | null;
}

export class MessageEventDto {
  @Timestamp() at: string;
  @OneOf(HISTORY_EVENTS) event: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The part it happened to; null for the message itself' }) part: number | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    example: { carrier_message_id: 'a1b2c3', receipt_stat: 'DELIVRD' },
    description: 'What the rows say of it: carrier_message_id, receipt_stat, error_code, error_reason, scheduled_for, amount, campaign_id',
  })
  details: Record<string, string | number>;
}

export class MessageDetailDto {
  @Uuid() message_id: string;
  @Text({ example: '+447911123456', description: 'The destination number in E.164' }) to: string;
  @Text({ example: 'Acme' }) from: string;
  @Text() message: string;
  @OneOf(['auto', 'standard', 'premium']) route: string;
  @OneOf(['GSM-7', 'UCS-2']) encoding: string;
  @Integer({ minimum: 1 }) parts: number;
  @Money('Charged') cost: number;
  @Money('Refunded') refunded: number;
  @OneOf(MESSAGE_STATUSES) status: string;
  @NullableText() reference: string | null;
  @NullableUuid('The campaign it was sent by; null for a single send') campaign_id: string | null;
  @NullableText() error_code: string | null;
  @NullableText() error_reason: string | null;
  @NullableTimestamp() scheduled_time: string | null;
  @Timestamp() created_at: string;
  @NullableTimestamp() sent_at: string | null;
  @NullableTimestamp() completed_at: string | null;
  @NullableTimestamp() cancelled_at: string | null;
  @Nested([MessagePartDetailDto], { description: 'In order' }) part_details: MessagePartDetailDto[];
  @Nested([MessageEventDto], { description: 'What happened to it, oldest first, as its rows record it' }) history: MessageEventDto[];
}

export class TestMessageRequestDto {
  @ApiProperty({ example: '+447911123456', description: 'One number, in international format' })
  @Matches(/^[^,;]*$/, { message: 'to must be one number' })
  @MaxLength(32, { message: 'to is too long' })
  @IsString({ message: 'to must be a string' })
  @IsNotEmpty({ message: 'to is required' })
  to: string;

  @ApiProperty({ example: 'Hello from the console', description: 'Text, at most 1600 characters, charged per part as POST /sms/send' })
  @MaxLength(1600, { message: 'message must be at most 1600 characters' })
  @IsString({ message: 'message must be a string' })
  @IsNotEmpty({ message: 'message is required' })
  message: string;

  @ApiPropertyOptional({ example: 'Acme', default: 'SMS', description: 'Sender: 1-11 letters, digits or spaces with a letter, or a number of up to 15 digits' })
  @MaxLength(15, { message: 'from is too long' })
  @IsString({ message: 'from must be a string' })
  @IsOptional()
  from?: string;
}

export class TestMessageSentDto {
  @Uuid() message_id: string;
  @Text({ example: '+447911123456', description: 'The number in E.164' }) to: string;
  @Text({ example: 'SMS' }) from: string;
  @Text() message: string;
  @Integer({ minimum: 1 }) parts: number;
  @Money('Charged') cost: number;
  @Money('Balance after the charge') balance: number;
  @OneOf(['sent']) status: string;
}
