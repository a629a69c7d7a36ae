import { ApiProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { Nested, NullableText, OneOf, SuccessEnvelopeDto, Text, Timestamp } from '../openapi/schema-properties';

export class SenderDto {
  @Text({ example: '+447400900123', description: 'A number in E.164, or an alphanumeric sender id as assigned' }) value: string;
  @OneOf(['long_code', 'short_code', 'alphanumeric'], { description: 'A long code or short code (a number), or an alphanumeric sender id' }) kind: string;
  @Timestamp('When the operator assigned it') assigned_at: string;
}

export class SendersDataDto {
  @Nested([SenderDto], { description: 'Numbers (long codes, short codes)' }) numbers: SenderDto[];
  @Nested([SenderDto], { description: 'Alphanumeric sender ids' }) sender_ids: SenderDto[];
}

export class SendersResponseDto extends SuccessEnvelopeDto {
  @Nested(SendersDataDto) data: SendersDataDto;
}

export class AccountSettingsDto {
  @NullableText({
    example: 'https://example.com/hooks/sms-status',
    description:
      'Receives the signed status events (`message.sent`, `message.delivered`, `message.failed`) of every message sent without a `webhook_url`; null: none',
  })
  status_callback_url: string | null;

  @NullableText({
    example: 'https://example.com/hooks/sms-inbound',
    description: 'Receives a signed `message.received` event for each message a handset sends to one of the company’s numbers; null: none',
  })
  inbound_webhook_url: string | null;
}

export class AccountSettingsResponseDto extends SuccessEnvelopeDto {
  @Nested(AccountSettingsDto) data: AccountSettingsDto;
}

/** PUT /settings: the fields given change, the others stay. */
export class UpdateAccountSettingsDto {
  @ApiProperty({
    type: String,
    required: false,
    example: 'https://example.com/hooks/sms-status',
    description:
      'An http(s) URL of a public address without credentials (checked as a send’s `webhook_url`); `""` clears it (null, like a field not given, changes nothing)',
  })
  @Allow()
  status_callback_url?: unknown;

  @ApiProperty({
    type: String,
    required: false,
    example: 'https://example.com/hooks/sms-inbound',
    description: 'Where `message.received` goes: an http(s) URL of a public address without credentials; `""` clears it (null changes nothing)',
  })
  @Allow()
  inbound_webhook_url?: unknown;
}
