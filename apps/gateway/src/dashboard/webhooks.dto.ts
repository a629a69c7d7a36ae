import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WEBHOOK_SECRET_OVERLAP_SECONDS } from '@mp/accounts-domain';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Integer, Nested, NullableText, NullableTimestamp, OneOf, Text, Timestamp, Uuid } from '../openapi/schema-properties';

// The bodies of the dashboard API's webhook routes (docs/dashboard-api.json).

export const DELIVERY_STATUSES = ['pending', 'delivered', 'dead'] as const;
const OVERLAP = WEBHOOK_SECRET_OVERLAP_SECONDS;
const OVERLAP_MESSAGE = `overlap_seconds must be an integer from ${OVERLAP.min} to ${OVERLAP.max}`;

export class RotateWebhookSecretRequestDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: OVERLAP.min,
    maximum: OVERLAP.max,
    default: OVERLAP.default,
    description: 'How long the replaced secret keeps signing beside the new one, in seconds: a day unless given; 0 stops it at once (a leaked secret)',
  })
  @Max(OVERLAP.max, { message: OVERLAP_MESSAGE })
  @Min(OVERLAP.min, { message: OVERLAP_MESSAGE })
  @IsInt({ message: OVERLAP_MESSAGE })
  @IsOptional()
  overlap_seconds?: number;
}

export class WebhookSecretDto {
  @Text({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'The Standard Webhooks signing secret: the key is the base64 after `whsec_`' })
  secret: string;
  @NullableTimestamp('When a rotation made this secret; null for the one the company was created with') rotated_at: string | null;
  @NullableTimestamp('Until when the secret it replaced still signs beside it (a second `v1,` signature); null when none does')
  previous_expires_at: string | null;
}

export class RotatedWebhookSecretDto extends WebhookSecretDto {
  @Integer({ minimum: OVERLAP.min, maximum: OVERLAP.max, description: 'The overlap applied, in seconds' }) overlap_seconds: number;
}

export class WebhookAttemptDto {
  @Integer({ minimum: 1 }) attempt: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The HTTP status the receiver answered; null when none (timeout, refused connection, refused address)',
  })
  status_code: number | null;
  @NullableText({ description: 'Why the attempt failed; null for a 2xx' }) error: string | null;
  @Integer({ minimum: 0, description: 'From the connection to the end of the answer' }) duration_ms: number;
  @Timestamp() attempted_at: string;
  @ApiProperty({ type: Boolean, description: 'Made by a resend from the console' }) resend: boolean;
}

export class WebhookDeliveryDto {
  @Uuid('Also the `webhook-id` header of every attempt') id: string;
  @Text({ example: 'message.delivered' }) event_type: string;
  @Text({ example: 'https://example.com/hooks/sms' }) url: string;
  @OneOf([...DELIVERY_STATUSES], { description: '`pending` (being tried), `delivered` (a 2xx), `dead` (a dead letter: every attempt failed)' }) status: string;
  @Integer({ minimum: 0 }) attempt_count: number;
  @NullableTimestamp('When the next attempt is due, while pending') next_attempt_at: string | null;
  @NullableText({ description: 'The last failed attempt’s error' }) last_error: string | null;
  @Timestamp() created_at: string;
  @NullableTimestamp() delivered_at: string | null;
  @NullableTimestamp() dead_at: string | null;
  @Nested([WebhookAttemptDto], { description: 'Oldest first' }) attempts: WebhookAttemptDto[];
}

export class WebhookDeliveryPageDto {
  @Nested([WebhookDeliveryDto], { description: 'Newest first, 50 a page' }) items: WebhookDeliveryDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` (with the same filters) for the next, older page; null on the last' })
  next_cursor: string | null;
}

export class WebhookDeliveryDetailDto extends WebhookDeliveryDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The body every attempt posts (`type`, `timestamp`, `data`)' })
  payload: Record<string, unknown>;
}

export class WebhookResendDto {
  @Uuid() id: string;
  @Integer({ minimum: 2, description: 'The attempt the resend makes, with the same `webhook-id`' }) attempt: number;
  @OneOf(['pending']) status: string;
  @ApiProperty({ type: Boolean, description: 'True when this resend had already been asked for and its attempt is still to come: nothing more was queued' })
  already_requested: boolean;
}
