import { Controller, Get, HttpStatus, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiError, valueOrBadRequest } from '@mp/http-kit';
import { MESSAGE_STATUSES, MessageLog, MessageLogFilterError } from '@mp/messaging';
import { InvalidCursorError } from '@mp/persistence';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { ApiBadRequest, ErrorBodyDto } from '../openapi/error-responses';
import { parseSmsListQuery, SMS_LIST_DEFAULT_LIMIT, SMS_LIST_MAX_LIMIT } from './sms-list-query';
import { SmsListResponseDto } from './sms-list.dto';

const text = (name: string, description: string) => ApiQuery({ name, required: false, description, schema: { type: 'string' } });

/** GET /sms: the company's outbound messages, the console's message log query with the OTPs in it. */
@ApiTags('sms')
@Controller('sms')
export class SmsListController {
  constructor(private readonly log: MessageLog) {}

  @Get()
  @ApiOperation({
    summary: 'List outbound messages, newest first, a page at a time',
    description:
      'Every message of the company: single sends, campaign messages and OTP messages (an OTP’s `message` is null: its text is sealed). Filters combine. Pages by keyset: pass `next_cursor` as `cursor` with the same filters for the next, older page; messages arriving meanwhile never shift a page. `date_from`/`date_to` filter the creation time (`from`/`to` are the numbers, as in POST /sms/send).',
  })
  @text('status', `One or several of ${MESSAGE_STATUSES.join(', ')}, comma-separated`)
  @text('to', 'The recipient, exact, in E.164 (`+447911123456`)')
  @text('from', 'The sender, exact')
  @text('reference', 'Your reference, exact')
  @ApiQuery({ name: 'campaign_id', required: false, description: 'Only the messages of this campaign', schema: { type: 'string', format: 'uuid' } })
  @text('date_from', 'Created at or after: a date (`2026-11-22`, midnight UTC) or a timestamp with its offset')
  @text('date_to', 'Created at or before: a date covers its whole UTC day, a timestamp its millisecond')
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: SMS_LIST_MAX_LIMIT, default: SMS_LIST_DEFAULT_LIMIT } })
  @text('cursor', 'The `next_cursor` of the previous page')
  @ApiOkResponse({ type: SmsListResponseDto, description: 'A page of messages' })
  @ApiBadRequest('A bad filter, limit or cursor, named in `error` (e.g. `cursor is not valid: …`, `date_from must be before date_to`)', ErrorBodyDto)
  async list(@CurrentPrincipal() principal: Principal, @Query() query: unknown): Promise<SmsListResponseDto> {
    const { filter, limit, cursor } = valueOrBadRequest(parseSmsListQuery(query));
    try {
      const page = await this.log.listForApi(principal.companyId, filter, { limit, cursor });
      return { status: 'success', message: 'Messages retrieved', data: page };
    } catch (error) {
      if (error instanceof MessageLogFilterError || error instanceof InvalidCursorError) throw new ApiError(HttpStatus.BAD_REQUEST, error.message);
      throw error;
    }
  }
}
