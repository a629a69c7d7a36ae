import { Controller, Get, Headers, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public, rawBodyOf } from '@mp/http-kit';
import type { FastifyRequest } from 'fastify';
import { ErrorBodyDto } from '../openapi/error-responses';
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
  @ApiResponse({ status: 403, type: ErrorBodyDto, description: 'Wrong verify token' })
  handshake(@Query('hub.mode') mode?: string, @Query('hub.verify_token') token?: string, @Query('hub.challenge') challenge?: string): string {
    return this.webhooks.handshake(mode, token, challenge);
  }

  @Post()
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'WhatsApp Cloud API status webhooks',
    description: 'Signed by Meta (`X-Hub-Signature-256` with the app secret, WHATSAPP_APP_SECRET). `delivered`/`read` and `failed` statuses settle the OTP messages they name.',
  })
  @ApiResponse({ status: 401, type: ErrorBodyDto, description: 'Missing or wrong signature' })
  receive(@Req() request: FastifyRequest, @Headers('x-hub-signature-256') signature?: string) {
    return this.webhooks.receive(rawBodyOf(request), signature, request.body);
  }
}
