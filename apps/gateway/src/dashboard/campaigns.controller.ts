import { Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery } from '@nestjs/swagger';
import type { LiveSession } from '@mp/accounts';
import { ApiError, readQuery, valueOrBadRequest } from '@mp/http-kit';
import { CAMPAIGN_STATUSES, CampaignConsole, CampaignViews, type CampaignProgress } from '@mp/messaging';
import { ApiBadRequest, ApiConflict, ApiNotFound, ErrorBodyDto } from '../openapi/error-responses';
import { CampaignCancelledDto } from '../sms/campaign-response.dto';
import { CAMPAIGN_PAGE } from '../sms/campaigns-query';
import { CampaignsService } from '../sms/campaigns.service';
import { CompanyScopes } from './company-scope';
import { companyIdQuery } from './dashboard-answers';
import { COMPANY_ID_QUERY } from './dashboard-openapi';
import { CurrentSession, DashboardController, Needs } from './dashboard-session.guard';
import { ConsoleCampaignDetailDto, ConsoleCampaignPageDto, type CampaignProgressDto } from './campaigns.dto';

const NOT_FOUND = 'Campaign not found';
const campaignIdParam = () => ApiParam({ name: 'id', description: 'The campaign id', schema: { type: 'string' } });

const progressOf = (progress: CampaignProgress): CampaignProgressDto => ({ total: progress.total, done: progress.done, finished: progress.finished });

/** The company's campaigns with their live counters, one campaign, and cancelling one the way POST /sms/campaigns/{id}/cancel does. */
@DashboardController('campaigns')
export class CampaignsConsoleController {
  constructor(
    private readonly views: CampaignViews,
    private readonly console: CampaignConsole,
    private readonly campaigns: CampaignsService,
    private readonly scopes: CompanyScopes,
  ) {}

  @Get()
  @Needs('campaigns.read')
  @ApiOperation({
    summary: 'The campaigns, newest first, each with its live counters and progress',
    description: '`progress.finished` tells when nothing can change any more: a page polls only while some campaign it shows is not finished.',
  })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiQuery({ name: 'status', required: false, enum: [...CAMPAIGN_STATUSES] })
  @ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1, default: 1 } })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: CAMPAIGN_PAGE.maxLimit, default: CAMPAIGN_PAGE.limit } })
  @ApiOkResponse({ type: ConsoleCampaignPageDto, description: 'A page of campaigns' })
  @ApiBadRequest('A bad query parameter, named in `error`', ErrorBodyDto)
  async list(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<ConsoleCampaignPageDto> {
    const asked = valueOrBadRequest(
      readQuery(query, ['company_id', 'status', 'page', 'limit'], (q) => ({
        companyId: q.text('company_id') ?? undefined,
        status: q.oneOf('status', CAMPAIGN_STATUSES),
        page: q.page(CAMPAIGN_PAGE),
      })),
    );
    const companyId = await this.scopes.companyOf(session, asked.companyId);
    const page = await this.views.list(companyId, { status: asked.status, reference: null }, asked.page);
    const progress = new Map(
      (
        await this.console.progress(
          companyId,
          page.items.map((item) => item.campaign_id),
        )
      ).map((p) => [p.campaign_id, p]),
    );
    const items = page.items.flatMap((item) => {
      const live = progress.get(item.campaign_id);
      return live ? [{ ...item, status: live.status, summary: live.summary, progress: progressOf(live) }] : [];
    });
    return { items, page: page.page, limit: page.limit, total: page.total };
  }

  @Get(':id')
  @Needs('campaigns.read')
  @ApiOperation({ summary: 'One campaign: how it was asked for, its batches, its live counters and progress' })
  @campaignIdParam()
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: ConsoleCampaignDetailDto, description: 'The campaign' })
  @ApiNotFound('No campaign of this company has this id: `{ "error": "Campaign not found" }`')
  async detail(@CurrentSession() session: LiveSession, @Param('id') id: string, @Query() query: unknown): Promise<ConsoleCampaignDetailDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    const detail = await this.console.detail(companyId, id);
    const [progress] = detail ? await this.console.progress(companyId, [detail.campaign_id]) : [];
    if (!detail || !progress) throw new ApiError(HttpStatus.NOT_FOUND, NOT_FOUND);
    return { ...detail, status: progress.status, summary: progress.summary, progress: progressOf(progress) };
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Needs('campaigns.write')
  @ApiOperation({
    summary: 'Cancel the batches not yet started and refund them, as POST /sms/campaigns/{id}/cancel',
    description: 'Batches already started are sent as usual. The campaign becomes `cancelled` when no batch had started.',
  })
  @campaignIdParam()
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: CampaignCancelledDto, description: 'Cancelled and refunded' })
  @ApiNotFound('No campaign of this company has this id: `{ "error": "Campaign not found" }`')
  @ApiConflict('Nothing left to cancel: every batch has started or was cancelled')
  async cancel(@CurrentSession() session: LiveSession, @Param('id') id: string, @Query() query: unknown): Promise<CampaignCancelledDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    return (await this.campaigns.cancel(companyId, id)).data;
  }
}
