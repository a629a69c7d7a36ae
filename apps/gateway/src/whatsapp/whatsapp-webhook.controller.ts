import { Controller, Get, Headers, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public, rawBodyOf } from '@mp/http-kit';
import type { FastifyRequest } from 'fastify';
import { ApiBadRequest, ApiForbidden, ApiUnavailable, ErrorBodyDto } from '../openapi/error-responses';
import { StatusesAppliedDto } from './whatsapp-webhook.dto';
import { WhatsAppWebhookService } from './whatsapp-webhook.service';

/** Meta calls these, not our users: open without credentials, checked by Meta's own signature. */
@ApiTags('provider callbacks')
@Controller('webhooks/whatsapp')
export class WhatsAppWebhookController {
  constructor(private readonly webhooks: WhatsAppWebhookService) {}

  @Get()
  @Public()
  @ApiOperation({ summary: "Meta's webhook subscription handshake", description: 'Answers `hub.challenge` when `hub.verify_token` is WHATSAPP_VERIFY_TOKEN.' })
  @ApiQuery({ name: 'hub.mode', required: true })
  @ApiQuery({ name: 'hub.verify_token', required: true })
  @ApiQuery({ name: 'hub.challenge', required: true })
  @ApiOkResponse({ description: 'The `hub.challenge`, as text', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiForbidden('Wrong mode or verify token, or no challenge')
  handshake(@Query('hub.mode') mode?: string, @Query('hub.verify_token') token?: string, @Query('hub.challenge') challenge?: string): string {
    return this.webhooks.handshake(mode, token, challenge);
  }

  @Post()
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'WhatsApp Cloud API status webhooks',
    description:
      'Signed by Meta (`X-Hub-Signature-256` with the app secret, WHATSAPP_APP_SECRET). `delivered`/`read` and `failed` statuses settle the OTP messages they name.',
  })
  @ApiOkResponse({ type: StatusesAppliedDto, description: 'Received' })
  @ApiBadRequest('Malformed JSON, or a body that is not a WhatsApp status webhook', ErrorBodyDto)
  @ApiResponse({ status: 401, type: ErrorBodyDto, description: 'Missing or wrong signature' })
  @ApiUnavailable('The database or the queue is unreachable: Meta retries')
  receive(@Req() request: FastifyRequest, @Headers('x-hub-signature-256') signature?: string) {
    return this.webhooks.receive(rawBodyOf(request), signature, request.body);
  }
}
