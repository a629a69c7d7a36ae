import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * POST /sms/send and /sms/estimate. Every alias of the interface is accepted; which one wins is
 * decided in resolveSmsRequest, which also names the missing field.
 */
export class SmsSendDto {
  @ApiPropertyOptional({ example: '+447911123456', description: 'One number, or several separated by commas and/or semicolons (at most 1000). Aliases: `phone`, `recipient`, `recipients`.' })
  @IsOptional()
  @MaxLength(20_000, { message: 'to is too long' })
  @IsString({ message: 'to must be a string' })
  to?: string;

  @ApiPropertyOptional({ description: 'Alias of `to`' })
  @IsOptional()
  @MaxLength(20_000, { message: 'phone is too long' })
  @IsString({ message: 'phone must be a string' })
  phone?: string;

  @ApiPropertyOptional({ description: 'Alias of `to`' })
  @IsOptional()
  @MaxLength(20_000, { message: 'recipient is too long' })
  @IsString({ message: 'recipient must be a string' })
  recipient?: string;

  @ApiPropertyOptional({ description: 'Alias of `to`' })
  @IsOptional()
  @MaxLength(20_000, { message: 'recipients is too long' })
  @IsString({ message: 'recipients must be a string' })
  recipients?: string;

  @ApiPropertyOptional({
    example: 'Your order has shipped',
    description:
      'Text, at most 1600 characters. GSM 03.38 text is 160 characters in one part, else 153 per part (`^{}\\[~]|€` count two); any other character makes the whole text UCS-2: 70 in one part, else 67 per part. Each part is charged. Aliases: `text`, `body`.',
  })
  @IsOptional()
  @IsString({ message: 'message must be a string' })
  message?: string;

  @ApiPropertyOptional({ description: 'Alias of `message`' })
  @IsOptional()
  @IsString({ message: 'text must be a string' })
  text?: string;

  @ApiPropertyOptional({ description: 'Alias of `message`' })
  @IsOptional()
  @IsString({ message: 'body must be a string' })
  body?: string;

  @ApiPropertyOptional({ example: 'Acme', default: 'SMS', description: 'Sender: 1-11 letters, digits or spaces with a letter, or a number of up to 15 digits. Aliases: `sender`, `sender_id`.' })
  @IsOptional()
  @IsString({ message: 'from must be a string' })
  from?: string;

  @ApiPropertyOptional({ description: 'Alias of `from`' })
  @IsOptional()
  @IsString({ message: 'sender must be a string' })
  sender?: string;

  @ApiPropertyOptional({ description: 'Alias of `from`' })
  @IsOptional()
  @IsString({ message: 'sender_id must be a string' })
  sender_id?: string;

  @ApiPropertyOptional({ enum: ['auto', 'standard', 'premium'], default: 'auto', description: 'Selects the price and the carrier connection' })
  @IsOptional()
  @IsString({ message: 'route must be a string' })
  route?: string;

  @ApiPropertyOptional({ example: '2026-12-01T09:00:00Z', description: 'ISO 8601 time in the future (at most 30 days); charged now, refunded if cancelled' })
  @IsOptional()
  @IsString({ message: 'scheduled_time must be an ISO 8601 timestamp' })
  scheduled_time?: string;

  @ApiPropertyOptional({ example: 'order-1234', description: 'Your reference, returned with the message and its webhooks' })
  @IsOptional()
  @MaxLength(200, { message: 'reference must be at most 200 characters' })
  @IsString({ message: 'reference must be a string' })
  reference?: string;

  @ApiPropertyOptional({ example: 'https://example.com/hooks/sms', description: 'Receives message.sent, message.delivered and message.failed, signed per Standard Webhooks' })
  @IsOptional()
  @MaxLength(2048, { message: 'webhook_url is too long' })
  @IsString({ message: 'webhook_url must be an http(s) URL' })
  webhook_url?: string;
}
