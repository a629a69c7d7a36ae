import { applyDecorators, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CAMPAIGN_STATUSES, RECIPIENT_STATES } from '@mp/messaging';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { ApiBadRequest, ApiConflict, ApiNotFound, ErrorBodyDto } from '../openapi/error-responses';
import { CampaignCancelledResponseDto, CampaignDetailResponseDto, CampaignListResponseDto, CampaignRecipientsResponseDto } from './campaign-response.dto';
import { CampaignsService } from './campaigns.service';

const CAMPAIGN_FIELDS =
  '`campaign_id, reference, status, total_recipients, successful` (accepted), `failed` (entries in `failed_numbers`), `total_cost, refunded` (exact, 4 decimals), `batches` (their count), `summary, created_at`.';
const SUMMARY_RULE =
  '`summary` counts every accepted recipient once, by its current state: `queued` (its batch has not started), `processing` (its message waits to be submitted), `sent` (handed to the carrier, no receipt yet), `delivered`, `failed` (undelivered, expired, rejected or failed) and `cancelled` (its batch was cancelled), so queued + processing + sent + delivered + failed + cancelled = `successful`.';
const STATUS_RULE =
  'Campaign `status`: `scheduled`, `queued`, `processing`, `completed` (every batch dispatched or cancelled and every message in a final state; recorded when found so) or `cancelled` (cancelled before any batch started).';
const PAGE_RULE =
  'Pages with `page` (from 1) and `limit` (default 50, at most 100); answers `data: { items, page, limit, total }`, `total` counting every match.';

const campaignId = () => ApiParam({ name: 'campaign_id', description: 'The id POST /sms/send-bulk answered', format: 'uuid' });
const pageQueries = () =>
  applyDecorators(
    ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1, default: 1 } }),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } }),
  );
const badQuery = () => ApiBadRequest('A bad query parameter, named in `error` (e.g. `limit must be an integer from 1 to 100`)', ErrorBodyDto);
const notFound = () => ApiNotFound('No such campaign for this company (also for an id that is not a uuid)');

@ApiTags('sms')
@Controller('sms/campaigns')
export class CampaignsController {
  constructor(private readonly campaigns: CampaignsService) {}

  @Get()
  @ApiOperation({
    summary: 'List bulk campaigns',
    description: `The company's campaigns, newest first, optionally of one \`status\` or exact \`reference\`. ${PAGE_RULE} Items: ${CAMPAIGN_FIELDS} ${SUMMARY_RULE} ${STATUS_RULE}`,
  })
  @ApiQuery({ name: 'status', required: false, enum: [...CAMPAIGN_STATUSES] })
  @ApiQuery({ name: 'reference', required: false, type: String, description: 'The campaign reference given to POST /sms/send-bulk (exact)' })
  @pageQueries()
  @ApiOkResponse({ type: CampaignListResponseDto, description: 'A page of campaigns' })
  @badQuery()
  list(@CurrentPrincipal() principal: Principal, @Query() query: unknown) {
    return this.campaigns.list(principal.companyId, query);
  }

  @Get(':campaign_id')
  @ApiOperation({
    summary: 'A bulk campaign with its batches and live counters',
    description: `Answers \`data\`: ${CAMPAIGN_FIELDS} plus \`batch_details: [{ batch_id, position, recipients, status, scheduled_time, started_at, dispatched_at }]\` (batch \`status\`: \`scheduled\`, \`queued\`, \`processing\`, \`dispatched\` or \`cancelled\`) and \`failed_numbers: [{ number, error }]\`. ${SUMMARY_RULE} ${STATUS_RULE}`,
  })
  @campaignId()
  @ApiOkResponse({ type: CampaignDetailResponseDto, description: 'The campaign' })
  @notFound()
  find(@CurrentPrincipal() principal: Principal, @Param('campaign_id') id: string) {
    return this.campaigns.find(principal.companyId, id);
  }

  @Get(':campaign_id/messages')
  @ApiOperation({
    summary: "A campaign's recipients and their state",
    description: `Every accepted recipient in batch order (batch position, then its place in the batch): \`{ to, batch_id, status, message_id, reference, cost, sent_at, completed_at, error_code }\`. \`status\` is the recipient's summary counter; \`message_id\` is null until its batch starts, and stays null for a cancelled batch. Filter with \`status\` (one of the summary counters). ${PAGE_RULE}`,
  })
  @campaignId()
  @ApiQuery({ name: 'status', required: false, enum: [...RECIPIENT_STATES] })
  @pageQueries()
  @ApiOkResponse({ type: CampaignRecipientsResponseDto, description: 'A page of recipients' })
  @badQuery()
  @notFound()
  recipients(@CurrentPrincipal() principal: Principal, @Param('campaign_id') id: string, @Query() query: unknown) {
    return this.campaigns.recipients(principal.companyId, id, query);
  }

  @Post(':campaign_id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel the batches of a campaign not yet started, and refund them',
    description:
      'Every batch still `queued` or `scheduled` is cancelled and exactly its cost refunded, in one ledger entry; a batch already started is sent as usual. The campaign becomes `cancelled` when no batch had started, otherwise stays `processing`. Answers `data: { campaign_id, status, cancelled_batches, cancelled_recipients, refunded, balance }`. A second cancel finds nothing left and refunds nothing (409).',
  })
  @campaignId()
  @ApiOkResponse({ type: CampaignCancelledResponseDto, description: 'Cancelled and refunded' })
  @notFound()
  @ApiConflict('Nothing left to cancel: every batch has started or was cancelled')
  cancel(@CurrentPrincipal() principal: Principal, @Param('campaign_id') id: string) {
    return this.campaigns.cancel(principal.companyId, id);
  }
}
