import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';
import { CAMPAIGN_STATUSES, RECIPIENT_STATES } from '@mp/messaging';
import { FailedNumberDto } from '../openapi/error-responses';
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

// What POST /sms/send-bulk (sms-bulk.service.ts) and the /sms/campaigns routes (campaigns.service.ts,
// @mp/messaging's campaign-views.ts) answer.

const BATCH_STATUSES = ['scheduled', 'queued', 'processing', 'dispatched', 'cancelled'] as const;

/** The counters of a campaign just accepted: every accepted recipient is queued. */
export class AcceptedSummaryDto {
  @Integer() queued: number;
  @Integer() processing: number;
  @Integer() sent: number;
  @Integer() delivered: number;
  @Integer() failed: number;
}

/** Totals both shapes of the send-bulk answer carry. */
class CampaignTotalsDto {
  @Uuid('The campaign; GET /sms/campaigns/{campaign_id} follows it') campaign_id: string;
  @Integer({ description: 'Entries in the request, duplicates and invalid numbers included' }) total_recipients: number;
  @Integer({ description: 'Recipients accepted and charged' }) successful: number;
  @Integer({ description: 'Entries in `failed_numbers`' }) failed: number;
  @Integer({ description: 'Repeats of a number already in the request, sent once' }) duplicates: number;
  @Money('Charged in one debit') total_cost: number;
  @Money('Balance after the charge') balance: number;
}

/** Shape A: every batch released at once. */
export class CampaignAcceptedDto extends CampaignTotalsDto {
  @Integer({ minimum: 1, description: 'Number of batches' }) batches: number;
  @Text({ example: '1-2 minutes', description: 'Rough delivery time, a range of minutes' }) estimated_delivery_time: string;
  @Nested(AcceptedSummaryDto) summary: AcceptedSummaryDto;
  @Nested([FailedNumberDto], { description: 'Entries not sent (as given, trimmed), not charged' }) failed_numbers: FailedNumberDto[];
}

export class AcceptedBatchDto {
  @Uuid() batch_id: string;
  @Integer({ minimum: 1 }) recipients: number;
  @OneOf(['queued', 'scheduled'], { description: '`scheduled` when `scheduled_time` was given' }) status: string;
  @Timestamp('When the batch is released') scheduled_time: string;
}

/** Shape B: batches spaced by `delay_between_batches`, or released at `scheduled_time`. */
export class CampaignAcceptedInBatchesDto extends CampaignTotalsDto {
  @Nested([AcceptedBatchDto]) batches: AcceptedBatchDto[];
  @Nested([FailedNumberDto], { description: 'Entries not sent (as given, trimmed), not charged' }) failed_numbers: FailedNumberDto[];
}

export class CampaignAcceptedResponseDto extends SuccessEnvelopeDto {
  @Nested(CampaignAcceptedDto) data: CampaignAcceptedDto;
}

export class CampaignAcceptedInBatchesResponseDto extends SuccessEnvelopeDto {
  @Nested(CampaignAcceptedInBatchesDto) data: CampaignAcceptedInBatchesDto;
}

/** Live counters: each accepted recipient in exactly one, so they add up to `successful`. */
export class CampaignSummaryDto extends AcceptedSummaryDto {
  @Integer() cancelled: number;
}

export class CampaignDto {
  @Uuid() campaign_id: string;
  @NullableText() reference: string | null;
  @OneOf(CAMPAIGN_STATUSES) status: string;
  @Integer() total_recipients: number;
  @Integer() successful: number;
  @Integer() failed: number;
  @Money('Charged') total_cost: number;
  @Money('Refunded so far (cancelled batches, parts that never reached a carrier)') refunded: number;
  @Integer({ description: 'Number of batches' }) batches: number;
  @Nested(CampaignSummaryDto) summary: CampaignSummaryDto;
  @Timestamp() created_at: string;
}

export class CampaignBatchDto {
  @Uuid() batch_id: string;
  @Integer({ minimum: 1 }) position: number;
  @Integer({ minimum: 0 }) recipients: number;
  @OneOf(BATCH_STATUSES) status: string;
  @Timestamp() scheduled_time: string;
  @NullableTimestamp() started_at: string | null;
  @NullableTimestamp() dispatched_at: string | null;
}

export class CampaignDetailDto extends CampaignDto {
  @Nested([CampaignBatchDto]) batch_details: CampaignBatchDto[];
  @Nested([FailedNumberDto]) failed_numbers: FailedNumberDto[];
}

export class CampaignDetailResponseDto extends SuccessEnvelopeDto {
  @Nested(CampaignDetailDto) data: CampaignDetailDto;
}

class PageDto {
  @Integer({ minimum: 1, description: 'The page answered, from 1' }) page: number;
  @Integer({ minimum: 1, maximum: 100, description: 'Items per page' }) limit: number;
  @Integer({ minimum: 0, description: 'Items matching, over all pages' }) total: number;
}

export class CampaignPageDto extends PageDto {
  @Nested([CampaignDto], { description: 'Newest first' }) items: CampaignDto[];
}

export class CampaignListResponseDto extends SuccessEnvelopeDto {
  @Nested(CampaignPageDto) data: CampaignPageDto;
}

export class CampaignRecipientDto {
  @Text() to: string;
  @Uuid() batch_id: string;
  @OneOf(RECIPIENT_STATES) status: string;
  @NullableUuid('Null until its batch starts (and for a cancelled batch)') message_id: string | null;
  @NullableText() reference: string | null;
  @Money('Charged for this recipient') cost: number;
  @NullableTimestamp() sent_at: string | null;
  @NullableTimestamp() completed_at: string | null;
  @NullableText() error_code: string | null;
}

export class CampaignRecipientPageDto extends PageDto {
  @Nested([CampaignRecipientDto], { description: 'In batch order' }) items: CampaignRecipientDto[];
}

export class CampaignRecipientsResponseDto extends SuccessEnvelopeDto {
  @Nested(CampaignRecipientPageDto) data: CampaignRecipientPageDto;
}

export class CampaignCancelledDto {
  @Uuid() campaign_id: string;
  @OneOf(CAMPAIGN_STATUSES, { description: '`cancelled` when no batch had started; otherwise as it was' }) status: string;
  @Integer({ minimum: 1 }) cancelled_batches: number;
  @Integer() cancelled_recipients: number;
  @Money('Refunded: exactly the cost of the cancelled batches') refunded: number;
  @Money('Balance after the refund') balance: number;
}

export class CampaignCancelledResponseDto extends SuccessEnvelopeDto {
  @Nested(CampaignCancelledDto) data: CampaignCancelledDto;
}

/** POST /sms/send-bulk's 200: shape A (totals) or shape B (per batch). */
export function ApiCampaignAccepted(): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(CampaignAcceptedResponseDto, CampaignAcceptedInBatchesResponseDto),
    ApiOkResponse({
      description: 'Accepted: shape A (`batches` a count) when every batch is released at once, shape B (`batches` listed) otherwise',
      schema: { oneOf: [{ $ref: getSchemaPath(CampaignAcceptedResponseDto) }, { $ref: getSchemaPath(CampaignAcceptedInBatchesResponseDto) }] },
    }),
  );
}
