import { Body, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery } from '@nestjs/swagger';
import type { LiveSession } from '@mp/accounts';
import { ApiError, valueOrBadRequest } from '@mp/http-kit';
import { MESSAGE_LOG_MAX_LIMIT, MESSAGE_STATUSES, MessageLog, MessageLogFilterError } from '@mp/messaging';
import { InvalidCursorError } from '@mp/persistence';
import { ApiBadRequest, ApiNotFound, ApiPaymentRequired, ErrorBodyDto } from '../openapi/error-responses';
import { SmsService } from '../sms/sms.service';
import { CompanyScopes } from './company-scope';
import { companyIdQuery } from './dashboard-answers';
import { COMPANY_ID_QUERY } from './dashboard-openapi';
import { CurrentSession, DashboardController, Needs } from './dashboard-session.guard';
import { MESSAGE_LOG_DEFAULT_LIMIT, parseMessageLogQuery } from './message-log-query';
import { MessageDetailDto, MessageLogPageDto, TestMessageRequestDto, TestMessageSentDto } from './messages.dto';

const text = (name: string, description: string) => ApiQuery({ name, required: false, description, schema: { type: 'string' } });

/** The company's message log, one message's story, and a test message sent the way POST /sms/send sends. */
@DashboardController('messages')
export class MessagesController {
  constructor(
    private readonly log: MessageLog,
    private readonly sms: SmsService,
    private readonly scopes: CompanyScopes,
  ) {}

  @Get()
  @Needs('messages.read')
  @ApiOperation({
    summary: 'The message log, newest first, a page at a time (OTP messages are not listed)',
    description: `Filters combine. Pages by keyset: pass \`next_cursor\` as \`cursor\` with the same filter for the next, older page; a page is never shifted by messages arriving meanwhile.`,
  })
  @ApiQuery(COMPANY_ID_QUERY)
  @text('search', 'A message id (exact), else a number or its first digits (spaces, dashes, dots and parentheses ignored), else a reference (exact)')
  @text('status', `One or several of ${MESSAGE_STATUSES.join(', ')}, comma-separated`)
  @text('from', 'Created at or after: a date (`2026-11-22`, midnight UTC) or a timestamp with its offset')
  @text('to', 'Created at or before: a date covers its whole UTC day')
  @ApiQuery({ name: 'campaign_id', required: false, description: 'Only the messages of this campaign', schema: { type: 'string', format: 'uuid' } })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: MESSAGE_LOG_MAX_LIMIT, default: MESSAGE_LOG_DEFAULT_LIMIT } })
  @text('cursor', 'The `next_cursor` of the previous page')
  @ApiOkResponse({ type: MessageLogPageDto, description: 'A page of messages' })
  @ApiBadRequest('A bad filter, limit or cursor, named in `error` (e.g. `cursor is not valid: …`, `from must be before to`)', ErrorBodyDto)
  async list(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<MessageLogPageDto> {
    const { companyId: requested, filter, limit, cursor } = valueOrBadRequest(parseMessageLogQuery(query));
    const companyId = await this.scopes.companyOf(session, requested);
    try {
      return await this.log.list(companyId, filter, { limit, cursor });
    } catch (error) {
      if (error instanceof MessageLogFilterError || error instanceof InvalidCursorError) throw new ApiError(HttpStatus.BAD_REQUEST, error.message);
      throw error;
    }
  }

  @Post('test')
  @HttpCode(200)
  @Needs('messages.send')
  @ApiOperation({
    summary: 'Send a test message: one SMS, accepted, charged and sent exactly as POST /sms/send sends it',
  })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: TestMessageSentDto, description: 'Accepted and charged; it follows in the log' })
  @ApiBadRequest('A missing or invalid field, named in `error` (`Invalid phone number format`, a sender that is not allowed, no price for the number)')
  @ApiPaymentRequired('Insufficient balance: `{ error, balance, cost }`; nothing was sent or charged')
  async sendTest(@CurrentSession() session: LiveSession, @Body() body: TestMessageRequestDto, @Query() query: unknown): Promise<TestMessageSentDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    const answer = await this.sms.send(companyId, { to: body.to, message: body.message, from: body.from });
    if (!('message_id' in answer.data)) throw new Error('a send to one number answered several');
    const { message_id, to, from, message, parts, cost, balance, status } = answer.data;
    return { message_id, to, from, message, parts, cost, balance, status };
  }

  @Get(':id')
  @Needs('messages.read')
  @ApiOperation({ summary: 'One message: its text, parts (carrier ids, receipts) and history' })
  @ApiParam({ name: 'id', description: 'The message id', schema: { type: 'string' } })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: MessageDetailDto, description: 'The message' })
  @ApiNotFound('No message of this company has this id (an OTP’s message included): `{ "error": "Message not found" }`')
  async detail(@CurrentSession() session: LiveSession, @Param('id') id: string, @Query() query: unknown): Promise<MessageDetailDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    const message = await this.log.detail(companyId, id);
    if (!message) throw new ApiError(HttpStatus.NOT_FOUND, 'Message not found');
    return message;
  }
}
