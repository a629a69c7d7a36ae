import { ApiPropertyOptional } from '@nestjs/swagger';
import { AliasOf, TextField } from '@mp/http-kit';

/**
 * POST /sms/send and /sms/estimate. Every alias of the interface is accepted; which one wins is
 * decided in resolveSmsRequest, which also names the missing field.
 */
export class SmsSendDto {
  @ApiPropertyOptional({
    example: '+447911123456',
    description: 'One number, or several separated by commas and/or semicolons (at most 1000). Aliases: `phone`, `recipient`, `recipients`.',
  })
  @TextField({ maxLength: 20_000 })
  to?: string;

  @AliasOf('to', { maxLength: 20_000 })
  phone?: string;

  @AliasOf('to', { maxLength: 20_000 })
  recipient?: string;

  @AliasOf('to', { maxLength: 20_000 })
  recipients?: string;

  @ApiPropertyOptional({
    example: 'Your order has shipped',
    description:
      'Text, at most 1600 characters. GSM 03.38 text is 160 characters in one part, else 153 per part (`^{}\\[~]|€` count two); any other character makes the whole text UCS-2: 70 in one part, else 67 per part. Each part is charged. Aliases: `text`, `body`.',
  })
  @TextField()
  message?: string;

  @AliasOf('message')
  text?: string;

  @AliasOf('message')
  body?: string;

  @ApiPropertyOptional({
    example: 'Acme',
    default: 'SMS',
    description: 'Sender: 1-11 letters, digits or spaces with a letter, or a number of up to 15 digits. Aliases: `sender`, `sender_id`.',
  })
  @TextField()
  from?: string;

  @AliasOf('from')
  sender?: string;

  @AliasOf('from')
  sender_id?: string;

  @ApiPropertyOptional({ enum: ['auto', 'standard', 'premium'], default: 'auto', description: 'Selects the price and the carrier connection' })
  @TextField()
  route?: string;

  @ApiPropertyOptional({ example: '2026-12-01T09:00:00Z', description: 'ISO 8601 time in the future (at most 30 days); charged now, refunded if cancelled' })
  @TextField({ notText: 'must be an ISO 8601 timestamp' })
  scheduled_time?: string;

  @ApiPropertyOptional({ example: 'order-1234', description: 'Your reference, returned with the message and its webhooks' })
  @TextField({ maxLength: 200, tooLong: 'must be at most 200 characters' })
  reference?: string;

  @ApiPropertyOptional({
    example: 'https://example.com/hooks/sms',
    description: 'Receives message.sent, message.delivered and message.failed, signed per Standard Webhooks',
  })
  @TextField({ maxLength: 2048, notText: 'must be an http(s) URL' })
  webhook_url?: string;
}
