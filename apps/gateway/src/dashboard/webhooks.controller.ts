import { Body, Get, Header, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery } from '@nestjs/swagger';
import { WebhookSecrets, type LiveSession } from '@mp/accounts';
import { WebhookSecretOverlapError } from '@mp/accounts-domain';
import { ApiError, readQuery, valueOrBadRequest } from '@mp/http-kit';
import { InvalidCursorError } from '@mp/persistence';
import { DeliveryStillRetryingError, WebhookDeliveryLog, WebhookResends } from '@mp/webhooks-data-access';
import { ApiBadRequest, ApiConflict, ApiNotFound, ErrorBodyDto } from '../openapi/error-responses';
import { CompanyScopes } from './company-scope';
import { companyIdQuery, refusalsAnswered } from './dashboard-answers';
import { COMPANY_ID_QUERY } from './dashboard-openapi';
import { CurrentSession, DashboardController, Needs } from './dashboard-session.guard';
import { deliveryAnswer, secretAnswer } from './webhooks-answers';
import {
  DELIVERY_STATUSES,
  RotatedWebhookSecretDto,
  RotateWebhookSecretRequestDto,
  WebhookDeliveryDetailDto,
  WebhookDeliveryPageDto,
  WebhookResendDto,
  WebhookSecretDto,
} from './webhooks.dto';

/** The lib's own check of the overlap, should a body reach it unvalidated: a 400 all the same. */
async function overlapRefusalsAnswered<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await refusalsAnswered(work);
  } catch (error) {
    if (error instanceof WebhookSecretOverlapError) throw new ApiError(HttpStatus.BAD_REQUEST, error.message);
    throw error;
  }
}

const deliveryNotFound = () => new ApiError(HttpStatus.NOT_FOUND, 'Webhook delivery not found');
const ID_PARAM = { name: 'id', description: 'The delivery id (its `webhook-id`)', schema: { type: 'string' } } as const;

/** The company's webhooks: the signing secret (owners and operators), the deliveries and their attempts, resends. */
@DashboardController('webhooks')
export class WebhooksController {
  constructor(
    private readonly secrets: WebhookSecrets,
    private readonly log: WebhookDeliveryLog,
    private readonly resends: WebhookResends,
    private readonly scopes: CompanyScopes,
  ) {}

  @Get('secret')
  @Needs('webhooks.secret')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Reveal the signing secret (owners and operators); each reveal is written to the audit log with who revealed it' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: WebhookSecretDto, description: 'The current secret' })
  async reveal(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<WebhookSecretDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    return secretAnswer(await refusalsAnswered(() => this.secrets.reveal(companyId, session.user.id)));
  }

  @Post('secret/rotate')
  @HttpCode(200)
  @Needs('webhooks.secret')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Rotate the signing secret: the new one signs at once, the old one beside it until the overlap ends (a day unless given)',
    description:
      'While both sign, `webhook-signature` carries two `v1,` signatures, one per secret. A rotation within an overlap drops the oldest secret at once.',
  })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: RotatedWebhookSecretDto, description: 'The new secret' })
  @ApiBadRequest('`overlap_seconds` out of bounds: `{ "error": "overlap_seconds must be an integer from 0 to 604800" }`')
  async rotate(@CurrentSession() session: LiveSession, @Body() body: RotateWebhookSecretRequestDto, @Query() query: unknown): Promise<RotatedWebhookSecretDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    const rotated = await overlapRefusalsAnswered(() => this.secrets.rotate(companyId, session.user.id, body?.overlap_seconds));
    return { ...secretAnswer(rotated), overlap_seconds: rotated.overlapSeconds };
  }

  @Get('deliveries')
  @Needs('webhooks.read')
  @ApiOperation({ summary: 'The webhook deliveries, newest first, 50 a page, each with its attempts; `status=dead` lists the dead letters' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiQuery({ name: 'status', required: false, schema: { type: 'string', enum: [...DELIVERY_STATUSES] } })
  @ApiQuery({ name: 'event_type', required: false, description: 'e.g. `message.delivered`, `otp.verified`', schema: { type: 'string' } })
  @ApiQuery({ name: 'cursor', required: false, description: 'The `next_cursor` of the previous page', schema: { type: 'string' } })
  @ApiOkResponse({ type: WebhookDeliveryPageDto, description: 'A page of deliveries' })
  @ApiBadRequest('A bad status or cursor, or an unknown parameter, named in `error`', ErrorBodyDto)
  async list(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<WebhookDeliveryPageDto> {
    const read = valueOrBadRequest(
      readQuery(query, ['company_id', 'status', 'event_type', 'cursor'], (q) => ({
        companyId: q.text('company_id') ?? undefined,
        status: q.oneOf('status', DELIVERY_STATUSES),
        eventType: q.text('event_type'),
        cursor: q.text('cursor'),
      })),
    );
    const companyId = await this.scopes.companyOf(session, read.companyId);
    try {
      const page = await this.log.list(companyId, { status: read.status, eventType: read.eventType }, { cursor: read.cursor });
      return { items: page.items.map(deliveryAnswer), next_cursor: page.next_cursor };
    } catch (error) {
      if (error instanceof InvalidCursorError) throw new ApiError(HttpStatus.BAD_REQUEST, error.message);
      throw error;
    }
  }

  @Get('deliveries/:id')
  @Needs('webhooks.read')
  @ApiOperation({ summary: 'One delivery with its payload and every attempt' })
  @ApiParam(ID_PARAM)
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: WebhookDeliveryDetailDto, description: 'The delivery' })
  @ApiNotFound('No delivery of this company has this id: `{ "error": "Webhook delivery not found" }`')
  async detail(@CurrentSession() session: LiveSession, @Param('id') id: string, @Query() query: unknown): Promise<WebhookDeliveryDetailDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    const delivery = await this.log.find(companyId, id);
    if (!delivery) throw deliveryNotFound();
    return { ...deliveryAnswer(delivery), payload: (delivery.payload ?? {}) as Record<string, unknown> };
  }

  @Post('deliveries/:id/resend')
  @HttpCode(202)
  @Needs('webhooks.write')
  @ApiOperation({
    summary: 'Resend a delivered or dead delivery: one more attempt now, with the same `webhook-id`; asking again before it is made changes nothing',
    description: 'A failed resend attempt leaves the delivery dead again (no retry schedule). Decision 0039.',
  })
  @ApiParam(ID_PARAM)
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiAcceptedResponse({ type: WebhookResendDto, description: 'The attempt is queued' })
  @ApiNotFound('No delivery of this company has this id: `{ "error": "Webhook delivery not found" }`')
  @ApiConflict('The delivery is still on its retry schedule: `{ "error": "The delivery is still being retried; …" }`')
  async resend(@CurrentSession() session: LiveSession, @Param('id') id: string, @Query() query: unknown): Promise<WebhookResendDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    try {
      const resent = await this.resends.resend(companyId, id);
      if (!resent) throw deliveryNotFound();
      return { id: resent.deliveryId, attempt: resent.attempt, status: 'pending', already_requested: resent.alreadyAsked };
    } catch (error) {
      if (error instanceof DeliveryStillRetryingError) throw new ApiError(HttpStatus.CONFLICT, error.message);
      throw error;
    }
  }
}
