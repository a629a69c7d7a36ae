import { Body, Controller, Get, HttpCode, HttpStatus, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  keywordReplyText,
  MAX_KEYWORD_REPLY_LENGTH,
  MessagingSettings,
  messagingSettingsJson,
  SenderRegistry,
  type AssignedSender,
  type MessagingSettingsChange,
  type MessagingSettingsView,
} from '@mp/accounts';
import { ApiError } from '@mp/http-kit';
import { checkWebhookUrl } from '@mp/webhooks';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { GatewayEnv } from '../gateway.env';
import { ApiBadRequest } from '../openapi/error-responses';
import { webhookPolicyOf } from '../sms/sms-request';
import { AccountSettingsResponseDto, SendersResponseDto, UpdateAccountSettingsDto, type AccountSettingsDto, type SenderDto } from './senders.dto';

const shown = (sender: AssignedSender): SenderDto => ({ value: sender.value, kind: sender.kind, assigned_at: sender.createdAt.toISOString() });
const settingsOf = (view: MessagingSettingsView): AccountSettingsDto => messagingSettingsJson(view);

@ApiTags('account')
@Controller()
export class SendersController {
  constructor(
    private readonly registry: SenderRegistry,
    private readonly settings: MessagingSettings,
    private readonly config: GatewayEnv,
  ) {}

  @Get('senders')
  @ApiOperation({
    summary: "The calling company's numbers and sender ids",
    description:
      'What the operator assigned to the company (`admin number:assign`, `admin sender:assign`). A send whose `from` is assigned to another company is refused with 403; with `SENDER_IDS_REGISTERED_ONLY`, so is one from a sender not assigned to the company.',
  })
  @ApiOkResponse({ type: SendersResponseDto, description: 'The numbers and sender ids' })
  async senders(@CurrentPrincipal() principal: Principal): Promise<SendersResponseDto> {
    const senders = await this.registry.list(principal.companyId);
    return {
      status: 'success',
      message: 'Senders retrieved',
      data: {
        numbers: senders.filter((sender) => sender.kind !== 'alphanumeric').map(shown),
        sender_ids: senders.filter((sender) => sender.kind === 'alphanumeric').map(shown),
      },
    };
  }

  @Get('settings')
  @ApiOperation({ summary: "The calling company's messaging settings" })
  @ApiOkResponse({ type: AccountSettingsResponseDto, description: 'The settings' })
  async get(@CurrentPrincipal() principal: Principal): Promise<AccountSettingsResponseDto> {
    const view = await this.settings.get(principal.companyId);
    if (!view) throw new ApiError(HttpStatus.NOT_FOUND, 'Company not found');
    return { status: 'success', message: 'Settings retrieved', data: settingsOf(view) };
  }

  @Put('settings')
  @HttpCode(200)
  @ApiOperation({
    summary: "Change the calling company's messaging settings",
    description:
      'Fields not given stay as they are; all given change together or none. A changed `status_callback_url` applies to sends accepted from a few seconds later; a changed `inbound_webhook_url` or reply text to inbound messages stored from then on.',
  })
  @ApiOkResponse({ type: AccountSettingsResponseDto, description: 'The settings as they are now' })
  @ApiBadRequest(
    'A `status_callback_url` or `inbound_webhook_url` that is neither empty nor an http(s) URL of a public address without credentials, an `otp_ignores_opt_outs` that is not a boolean, a reply text that is not 1 to 320 characters, or an unknown field',
  )
  async update(@CurrentPrincipal() principal: Principal, @Body() body: UpdateAccountSettingsDto): Promise<AccountSettingsResponseDto> {
    const change: MessagingSettingsChange = {};
    if (body.status_callback_url !== undefined) change.statusCallbackUrl = this.statusCallback(body.status_callback_url);
    if (body.inbound_webhook_url !== undefined) change.inboundWebhookUrl = this.statusCallback(body.inbound_webhook_url, 'inbound_webhook_url');
    if (body.otp_ignores_opt_outs !== undefined) {
      if (typeof body.otp_ignores_opt_outs !== 'boolean') throw new ApiError(HttpStatus.BAD_REQUEST, 'otp_ignores_opt_outs must be true or false');
      change.otpIgnoresOptOuts = body.otp_ignores_opt_outs;
    }
    if (body.opt_out_reply !== undefined) change.optOutReply = keywordReply(body.opt_out_reply, 'opt_out_reply');
    if (body.opt_in_reply !== undefined) change.optInReply = keywordReply(body.opt_in_reply, 'opt_in_reply');
    if (body.help_reply !== undefined) change.helpReply = keywordReply(body.help_reply, 'help_reply');
    if (!(await this.settings.get(principal.companyId))) throw new ApiError(HttpStatus.NOT_FOUND, 'Company not found');
    const view = await this.settings.update(principal.companyId, change);
    return { status: 'success', message: 'Settings updated', data: settingsOf(view) };
  }

  private statusCallback(value: unknown, field = 'status_callback_url'): string | null {
    // The API's pipe takes a null field as one not given, so an empty text is what clears it.
    if (value === '') return null;
    const refused = (reason: string) =>
      new ApiError(HttpStatus.BAD_REQUEST, `${field} must be an http(s) URL of a public address without credentials, or "" to clear it: ${reason}`);
    if (typeof value !== 'string') throw refused('not a valid URL');
    try {
      return checkWebhookUrl(value.trim(), webhookPolicyOf(this.config)).toString();
    } catch (error) {
      throw refused(error instanceof Error && error.name === 'ForbiddenAddressError' ? error.message : 'not a valid URL');
    }
  }
}

/** A reply text as stored: `""` is null (the default wording); otherwise 1 to MAX_KEYWORD_REPLY_LENGTH characters. */
function keywordReply(value: unknown, field: string): string | null {
  if (value === '') return null;
  const text = keywordReplyText(value);
  if (text === null)
    throw new ApiError(HttpStatus.BAD_REQUEST, `${field} must be a text of 1 to ${MAX_KEYWORD_REPLY_LENGTH} characters, or "" for the default`);
  return text;
}
