import { ApiProperty } from '@nestjs/swagger';
import {
  Integer,
  Money,
  Nested,
  NullableText,
  NullableTimestamp,
  NullableUuid,
  OneOf,
  SuccessEnvelopeDto,
  Text,
  Timestamp,
  Uuid,
} from '../openapi/schema-properties';
import { MESSAGE_STATUSES } from './sms-response.dto';

/** One message of GET /sms: GET /sms/{message_id}'s fields a list carries, with its campaign and OTP. */
export class SmsListItemDto {
  @Uuid() message_id: string;
  @Text({ example: '+447911123456', description: 'The number in E.164' }) to: string;
  @Text({ example: 'Acme' }) from: string;
  @NullableText({ description: 'The text; null for an OTP’s message (its text is sealed, the code never shown again)' }) message: string | null;
  @OneOf(['auto', 'standard', 'premium', 'whatsapp']) route: string;
  @OneOf(MESSAGE_STATUSES) status: string;
  @Integer({ minimum: 1 }) parts: number;
  @Money('Charged') cost: number;
  @Money('Refunded (parts that never reached a carrier, or a cancelled message)') refunded: number;
  @NullableText() reference: string | null;
  @NullableUuid('The campaign it was sent by; null otherwise') campaign_id: string | null;
  @NullableUuid('The OTP it carried (GET /otp/…); null otherwise') otp_id: string | null;
  @NullableText({ description: "The carrier's error code of a failed part" }) error_code: string | null;
  @NullableTimestamp() scheduled_time: string | null;
  @Timestamp() created_at: string;
  @NullableTimestamp('When its first part was accepted by a carrier') sent_at: string | null;
  @NullableTimestamp('When it became `delivered`; null in any other state') delivered_at: string | null;
  @NullableTimestamp('When it took its final state') completed_at: string | null;
}

export class SmsListPageDto {
  @Nested([SmsListItemDto], { description: 'Newest first (by creation time, then id)' }) items: SmsListItemDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` with the same filters for the next (older) page; null on the last' })
  next_cursor: string | null;
}

export class SmsListResponseDto extends SuccessEnvelopeDto {
  @Nested(SmsListPageDto) data: SmsListPageDto;
}
