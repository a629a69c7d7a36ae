import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { AliasOf, TextField } from '@mp/http-kit';

/**
 * POST /otp/send (and /otp/resend's `appid` + `recipient` form). Every alias of the interface is
 * accepted; resolveOtpSend picks among them and names the bad field. Loosely typed fields
 * (`template`, `otp_length`, `custom_vars`, `expiry_minutes`) are checked there, with messages.
 */
export class OtpSendDto {
  @ApiPropertyOptional({ example: 'app_1a2b3c', description: 'Application id (required); its name fills `{{app_name}}`' })
  @TextField({ maxLength: 100 })
  appid?: string;

  @ApiPropertyOptional({ example: '+447911123456', description: 'Phone number in E.164 (required). Aliases: `phone`, `to`.' })
  @TextField({ maxLength: 32 })
  recipient?: string;

  @AliasOf('recipient', { maxLength: 32 })
  phone?: string;

  @AliasOf('recipient', { maxLength: 32 })
  to?: string;

  @ApiPropertyOptional({ enum: ['sms', 'whatsapp'], default: 'sms' })
  @TextField()
  channel?: string;

  @ApiPropertyOptional({ example: 'Acme', default: 'OTP', description: 'Sender id. Alias: `sender`.' })
  @TextField()
  from?: string;

  @AliasOf('from')
  sender?: string;

  @ApiPropertyOptional({ type: Number, minimum: 4, maximum: 8, default: 6, description: 'Digits of a generated code' })
  @Allow()
  otp_length?: unknown;

  @ApiPropertyOptional({
    oneOf: [{ type: 'integer' }, { type: 'string' }],
    description:
      "Id of one of the application's templates (in `lang`, else `en`), or an inline template text. It must show the code as `{{otp}}` or `{{code}}`; other variables: `{{app_name}}`/`{{appname}}`, `{{expires_at}}`/`{{expires_time}}` (HH:MM), `{{expires_full}}`, `{{expiry_minutes}}`, `{{recipient}}`/`{{phone}}`, `{{channel}}`, `{{lang}}` and every key of `custom_vars`; an unknown variable renders as nothing. Times are in the application's time zone (default UTC).",
  })
  @Allow()
  template?: unknown;

  @ApiPropertyOptional({ example: 'en', default: 'en', description: 'Language of the template; falls back to `en`' })
  @TextField()
  lang?: string;

  @ApiPropertyOptional({ type: Object, example: { shop: 'Acme Store' }, description: 'Extra template variables: at most 20, values text, numbers or booleans' })
  @Allow()
  custom_vars?: unknown;

  @ApiPropertyOptional({
    example: '482910',
    description: 'Your own code (4 to 8 digits) instead of a generated one. Alias: `code`. Stored only as a keyed hash.',
  })
  @TextField({ notText: 'must be a string of digits' })
  otp_code?: string;

  @AliasOf('otp_code', { notText: 'must be a string of digits' })
  code?: string;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: 60, description: "Validity in minutes; default the application's setting (10)" })
  @Allow()
  expiry_minutes?: unknown;
}

/** Which OTP: `verification_id`, or `appid` + `recipient`. The body of POST /otp/resend. */
export class OtpResendDto {
  @ApiPropertyOptional({ description: 'The id POST /otp/send answered' })
  @TextField({ maxLength: 100 })
  verification_id?: string;

  @ApiPropertyOptional({ description: 'With `recipient`, instead of `verification_id`: the newest pending OTP of that number' })
  @TextField({ maxLength: 100 })
  appid?: string;

  @ApiPropertyOptional({ description: 'Alias: `phone`' })
  @TextField({ maxLength: 32 })
  recipient?: string;

  @AliasOf('recipient', { maxLength: 32 })
  phone?: string;
}

/** POST /otp/verify: which OTP (as for a resend) and the code. */
export class OtpVerifyDto extends OtpResendDto {
  @ApiPropertyOptional({ example: '482910', description: 'The code (required). Alias: `code`.' })
  @TextField({ maxLength: 16 })
  otp_code?: string;

  @AliasOf('otp_code', { maxLength: 16 })
  code?: string;
}
