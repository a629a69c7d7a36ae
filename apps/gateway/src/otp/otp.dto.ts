import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * POST /otp/send (and /otp/resend's `appid` + `recipient` form). Every alias of the interface is
 * accepted; resolveOtpSend picks among them and names the bad field. Loosely typed fields
 * (`template`, `otp_length`, `custom_vars`, `expiry_minutes`) are checked there, with messages.
 */
export class OtpSendDto {
  @ApiPropertyOptional({ example: 'app_1a2b3c', description: 'Application id (required); its name fills `{{app_name}}`' })
  @IsOptional()
  @MaxLength(100, { message: 'appid is too long' })
  @IsString({ message: 'appid must be a string' })
  appid?: string;

  @ApiPropertyOptional({ example: '+447911123456', description: 'Phone number in E.164 (required). Aliases: `phone`, `to`.' })
  @IsOptional()
  @MaxLength(32, { message: 'recipient is too long' })
  @IsString({ message: 'recipient must be a string' })
  recipient?: string;

  @ApiPropertyOptional({ description: 'Alias of `recipient`' })
  @IsOptional()
  @MaxLength(32, { message: 'phone is too long' })
  @IsString({ message: 'phone must be a string' })
  phone?: string;

  @ApiPropertyOptional({ description: 'Alias of `recipient`' })
  @IsOptional()
  @MaxLength(32, { message: 'to is too long' })
  @IsString({ message: 'to must be a string' })
  to?: string;

  @ApiPropertyOptional({ enum: ['sms', 'whatsapp'], default: 'sms' })
  @IsOptional()
  @IsString({ message: 'channel must be a string' })
  channel?: string;

  @ApiPropertyOptional({ example: 'Acme', default: 'OTP', description: 'Sender id. Alias: `sender`.' })
  @IsOptional()
  @IsString({ message: 'from must be a string' })
  from?: string;

  @ApiPropertyOptional({ description: 'Alias of `from`' })
  @IsOptional()
  @IsString({ message: 'sender must be a string' })
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
  @IsOptional()
  @IsString({ message: 'lang must be a string' })
  lang?: string;

  @ApiPropertyOptional({ type: Object, example: { shop: 'Acme Store' }, description: 'Extra template variables: at most 20, values text, numbers or booleans' })
  @Allow()
  custom_vars?: unknown;

  @ApiPropertyOptional({ example: '482910', description: "Your own code (4 to 8 digits) instead of a generated one. Alias: `code`. Stored only as a keyed hash." })
  @IsOptional()
  @IsString({ message: 'otp_code must be a string of digits' })
  otp_code?: string;

  @ApiPropertyOptional({ description: 'Alias of `otp_code`' })
  @IsOptional()
  @IsString({ message: 'code must be a string of digits' })
  code?: string;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: 60, description: "Validity in minutes; default the application's setting (10)" })
  @Allow()
  expiry_minutes?: unknown;
}

/** Which OTP: `verification_id`, or `appid` + `recipient`. The body of POST /otp/resend. */
export class OtpResendDto {
  @ApiPropertyOptional({ description: 'The id POST /otp/send answered' })
  @IsOptional()
  @MaxLength(100, { message: 'verification_id is too long' })
  @IsString({ message: 'verification_id must be a string' })
  verification_id?: string;

  @ApiPropertyOptional({ description: 'With `recipient`, instead of `verification_id`: the newest pending OTP of that number' })
  @IsOptional()
  @MaxLength(100, { message: 'appid is too long' })
  @IsString({ message: 'appid must be a string' })
  appid?: string;

  @ApiPropertyOptional({ description: 'Alias: `phone`' })
  @IsOptional()
  @MaxLength(32, { message: 'recipient is too long' })
  @IsString({ message: 'recipient must be a string' })
  recipient?: string;

  @ApiPropertyOptional({ description: 'Alias of `recipient`' })
  @IsOptional()
  @MaxLength(32, { message: 'phone is too long' })
  @IsString({ message: 'phone must be a string' })
  phone?: string;
}

/** POST /otp/verify: which OTP (as for a resend) and the code. */
export class OtpVerifyDto extends OtpResendDto {
  @ApiPropertyOptional({ example: '482910', description: 'The code (required). Alias: `code`.' })
  @IsOptional()
  @MaxLength(16, { message: 'otp_code is too long' })
  @IsString({ message: 'otp_code must be a string' })
  otp_code?: string;

  @ApiPropertyOptional({ description: 'Alias of `otp_code`' })
  @IsOptional()
  @MaxLength(16, { message: 'code is too long' })
  @IsString({ message: 'code must be a string' })
  code?: string;
}
