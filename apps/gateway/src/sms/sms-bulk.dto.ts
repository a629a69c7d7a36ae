import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One message of mode 2. */
export class SmsBulkMessageDto {
  @ApiProperty({ example: '+447400123456' })
  to!: string;

  @ApiProperty({ example: 'Hello Ann, your order shipped' })
  message!: string;

  @ApiPropertyOptional({ example: 'order-1' })
  reference?: string;

  @ApiPropertyOptional({ description: "This message's sender instead of `from`" })
  from?: string;
}

/**
 * The documented body of POST /sms/send-bulk. It is checked by resolveBulkRequest, not by the
 * validation pipe (which would walk every entry of a million), so this class only describes it.
 */
export class SmsBulkDto {
  @ApiPropertyOptional({
    oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }],
    example: ['+447400123456', '+33612345678'],
    description: 'Mode 1: the numbers, as an array or one string separated by commas and/or semicolons (a missing + is accepted)',
  })
  recipients?: string[] | string;

  @ApiPropertyOptional({ example: 'Spring sale: 20% off today', description: 'Mode 1: the text, at most 1600 characters' })
  message?: string;

  @ApiPropertyOptional({ type: [SmsBulkMessageDto], description: 'Mode 2: individual messages' })
  messages?: SmsBulkMessageDto[];

  @ApiProperty({ example: 'Shop', description: 'Sender id (required)' })
  from!: string;

  @ApiPropertyOptional({ default: 1000, minimum: 1, maximum: 10000 })
  batch_size?: number;

  @ApiPropertyOptional({ default: 0, minimum: 0, maximum: 3600, description: 'Seconds between two batches' })
  delay_between_batches?: number;

  @ApiPropertyOptional({ description: 'Your campaign id' })
  reference?: string;

  @ApiPropertyOptional({ enum: ['normal', 'high'], default: 'normal' })
  priority?: string;

  @ApiPropertyOptional({ example: '2026-12-01T09:00:00Z', description: 'When the first batch is released (at most 30 days ahead)' })
  scheduled_time?: string;

  @ApiPropertyOptional({ description: 'Receives message.sent / delivered / failed for every message' })
  webhook_url?: string;
}
