import { Controller, Get, HttpStatus, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiError, readQuery, valueOrBadRequest, type Result } from '@mp/http-kit';
import { INBOUND_MAX_LIMIT, InboundFilterError, InboundViews, type InboundFilter } from '@mp/messaging';
import { InvalidCursorError } from '@mp/persistence';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { cursorQuery, dateRange } from '../common/date-range-query';
import { ApiBadRequest, ApiNotFound, ErrorBodyDto } from '../openapi/error-responses';
import { InboundListResponseDto, InboundMessageResponseDto } from './inbound.dto';

const DEFAULT_LIMIT = 50;
const E164 = /^\+[1-9][0-9]{0,14}$/;
const SHORT_CODE = /^[0-9]{3,8}$/;
const text = (name: string, description: string) => ApiQuery({ name, required: false, description, schema: { type: 'string' } });

interface InboundListQuery {
  filter: InboundFilter;
  limit: number;
  cursor: string | null;
}

/** `from` (E.164), `to` (E.164 or a short code), `date_from`, `date_to`, `limit`, `cursor`. */
export function parseInboundListQuery(query: unknown): Result<InboundListQuery> {
  return readQuery(query, ['from', 'to', 'date_from', 'date_to', 'limit', 'cursor'], (q) => {
    const range = dateRange(q);
    const from = q.parsed('from', 'a number in E.164 (+ then its digits)', (value) => (E164.test(value) ? value : null));
    const to = q.parsed('to', 'a number in E.164 (+ then its digits) or a short code of 3 to 8 digits', (value) =>
      E164.test(value) || SHORT_CODE.test(value) ? value : null,
    );
    return {
      filter: { from, to, since: range.from, before: range.before },
      limit: q.integer('limit', 1, INBOUND_MAX_LIMIT, DEFAULT_LIMIT),
      cursor: cursorQuery(q),
    };
  });
}

/** GET /sms/inbound: messages handsets sent to the company's numbers (docs/decisions/0050-inbound-messages.md). */
@ApiTags('sms')
@Controller('sms/inbound')
export class InboundController {
  constructor(private readonly views: InboundViews) {}

  @Get()
  @ApiOperation({
    summary: 'List inbound messages (sent to your numbers), newest first, a page at a time',
    description:
      'Messages handsets sent to the numbers assigned to the company, their parts joined. Filters combine. Pages by keyset: pass `next_cursor` as `cursor` with the same filters for the next, older page. `date_from`/`date_to` filter the time received.',
  })
  @text('from', 'The handset, in E.164 (matches it however the carrier wrote it: with or without `+`)')
  @text('to', 'Your number it was sent to: in E.164, or a short code as its digits (matches it however the carrier wrote it: with or without `+`)')
  @text('date_from', 'Received at or after: a date (`2026-11-22`, midnight UTC) or a timestamp with its offset')
  @text('date_to', 'Received at or before: a date covers its whole UTC day, a timestamp its millisecond')
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: INBOUND_MAX_LIMIT, default: DEFAULT_LIMIT } })
  @text('cursor', 'The `next_cursor` of the previous page')
  @ApiOkResponse({ type: InboundListResponseDto, description: 'A page of inbound messages' })
  @ApiBadRequest('A bad filter, limit or cursor, named in `error`', ErrorBodyDto)
  async list(@CurrentPrincipal() principal: Principal, @Query() query: unknown): Promise<InboundListResponseDto> {
    const { filter, limit, cursor } = valueOrBadRequest(parseInboundListQuery(query));
    try {
      const page = await this.views.list(principal.companyId, filter, { limit, cursor });
      return { status: 'success', message: 'Inbound messages retrieved', data: page };
    } catch (error) {
      if (error instanceof InboundFilterError || error instanceof InvalidCursorError) throw new ApiError(HttpStatus.BAD_REQUEST, error.message);
      throw error;
    }
  }

  @Get(':id')
  @ApiOperation({ summary: 'An inbound message' })
  @ApiParam({ name: 'id', description: 'Its id (GET /sms/inbound, or the message.received webhook)' })
  @ApiOkResponse({ type: InboundMessageResponseDto, description: 'The message' })
  @ApiNotFound('No such inbound message for this company (also for an id that is not a uuid)')
  async find(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<InboundMessageResponseDto> {
    const message = await this.views.find(principal.companyId, id);
    if (!message) throw new ApiError(HttpStatus.NOT_FOUND, 'Inbound message not found');
    return { status: 'success', message: 'Inbound message retrieved', data: message };
  }
}
