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
    description:
      'Receives a signed `message.received` event for each message a handset sends to one of the company’s numbers, and `contact.opted_out` / `contact.opted_in` when a keyword changes the suppression list; null: none',
  })
  inbound_webhook_url: string | null;

  @ApiProperty({
    type: Boolean,
    example: false,
    description:
      'Whether OTPs go to numbers on the suppression list (default false: refused with `Recipient has opted out`, like any send). Setting it true is the company’s own compliance choice: carriers and regulators (CTIA, TCPA) may treat a one-time password as a message the contact asked for, but the platform does not decide that for you.',
  })
  otp_ignores_opt_outs: boolean;

  @NullableText({
    example: 'Acme: You are unsubscribed and will receive no further messages. Reply START to resubscribe.',
    description:
      'What STOP and the other opt-out keywords are answered with, once per message; null: the CTIA wording, "<company>: You are unsubscribed and will receive no further messages. Reply START to resubscribe." (STOPALL: "…unsubscribed from all messages from this sender…")',
  })
  opt_out_reply: string | null;

  @NullableText({
    example: 'Acme: You are resubscribed and will receive messages again. Msg&data rates may apply. Reply STOP to unsubscribe.',
    description: 'What START, UNSTOP and YES are answered with; null: the CTIA wording shown in the example, with the company’s name',
  })
  opt_in_reply: string | null;

  @NullableText({
    example: 'Acme: For help contact support@acme.example. Msg&data rates may apply. Reply STOP to unsubscribe.',
    description:
      'The company’s help text: what HELP and INFO are answered with; null: "<company>: Msg&data rates may apply. Reply STOP to unsubscribe, START to resubscribe."',
  })
  help_reply: string | null;
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

  @ApiProperty({
    type: Boolean,
    required: false,
    description: 'true sends OTPs to numbers on the suppression list (the company’s compliance choice); false refuses them',
  })
  @Allow()
  otp_ignores_opt_outs?: unknown;

  @ApiProperty({ type: String, required: false, description: 'The opt-out reply, 1 to 320 characters; `""` goes back to the CTIA wording' })
  @Allow()
  opt_out_reply?: unknown;

  @ApiProperty({ type: String, required: false, description: 'The opt-in reply, 1 to 320 characters; `""` goes back to the CTIA wording' })
  @Allow()
  opt_in_reply?: unknown;

  @ApiProperty({ type: String, required: false, description: 'The help text, 1 to 320 characters; `""` goes back to the default' })
  @Allow()
  help_reply?: unknown;
}
