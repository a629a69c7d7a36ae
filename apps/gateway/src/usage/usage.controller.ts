import { Controller, Get, Headers, HttpStatus, Query, StreamableFile, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { csvRecord, LedgerFilterError, ledgerFilterError, LedgerViews, LEDGER_KINDS, LEDGER_MAX_LIMIT } from '@mp/billing';
import { formatMoney, moneyToJson } from '@mp/billing-domain';
import { ApiError, valueOrBadRequest } from '@mp/http-kit';
import { MessageLog, SPEND_GROUPS, USAGE_MAX_DAYS, type SpendSums, type SpendSummary } from '@mp/messaging';
import { InvalidCursorError } from '@mp/persistence';
import { Readable } from 'node:stream';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { wantsCsv } from '../common/date-range-query';
import { ApiBadRequest, ErrorBodyDto } from '../openapi/error-responses';
import { LEDGER_DEFAULT_LIMIT, parseLedgerQuery, parseUsageQuery, USAGE_DEFAULT_DAYS } from './usage-query';
import { UsageLedgerResponseDto, UsageResponseDto } from './usage.dto';

const text = (name: string, description: string) => ApiQuery({ name, required: false, description, schema: { type: 'string' } });
const DATE_FROM = text('date_from', 'Start (inclusive): a date (`2026-11-22`, midnight UTC) or a timestamp with its offset');
const DATE_TO = text('date_to', 'End (inclusive): a date covers its whole UTC day, a timestamp its millisecond');
const FORMAT = ApiQuery({
  name: 'format',
  required: false,
  enum: ['json', 'csv'],
  description: '`csv` for RFC 4180 CSV; without it, CSV when `Accept` names `text/csv` before `application/json`, else JSON',
});
const csvAnswer = (columns: string, jsonType: Type<unknown>) =>
  ApiOkResponse({
    description: `JSON, or RFC 4180 CSV (${columns}; amounts exact with 4 decimals)`,
    content: { 'application/json': { schema: { $ref: getSchemaPath(jsonType) } }, 'text/csv': { schema: { type: 'string' } } },
  });
const USAGE_COLUMNS = ['key', 'messages', 'parts', 'charged', 'refunded', 'spent'];

function badRequestOf(error: unknown): never {
  if (error instanceof LedgerFilterError || error instanceof InvalidCursorError) throw new ApiError(HttpStatus.BAD_REQUEST, error.message);
  throw error;
}

function csvFile(chunks: AsyncIterable<string> | Iterable<string>, name: string): StreamableFile {
  return new StreamableFile(Readable.from(chunks), { type: 'text/csv; charset=utf-8', disposition: `attachment; filename="${name}"` });
}

const sumsJson = (sums: SpendSums) => ({
  messages: sums.messages,
  parts: sums.parts,
  charged: moneyToJson(sums.charged),
  refunded: moneyToJson(sums.refunded),
  spent: moneyToJson(sums.spent),
});

function usageCsv(summary: SpendSummary): string[] {
  const records = summary.lines.map((line) =>
    csvRecord([line.key, String(line.messages), String(line.parts), formatMoney(line.charged), formatMoney(line.refunded), formatMoney(line.spent)]),
  );
  return [csvRecord(USAGE_COLUMNS), ...records];
}

/** GET /usage (spend by day, country or route) and GET /usage/ledger, as JSON or CSV. */
@ApiTags('account')
@ApiExtraModels(UsageResponseDto, UsageLedgerResponseDto)
@Controller('usage')
export class UsageController {
  constructor(
    private readonly messages: MessageLog,
    private readonly ledger: LedgerViews,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Spend by day, country or route',
    description: `What the company's messages made in the range were charged, refunded and spent, summed exactly, grouped by \`group_by\`: \`day\` (UTC, the default), \`country\` (the recipient's, by the numbering plan) or \`route\`. Every message counts: single sends, campaign messages (once their batch has made them) and OTP messages. The range is the last ${USAGE_DEFAULT_DAYS} UTC days by default, at most ${USAGE_MAX_DAYS}. The ledger (GET /usage/ledger) holds the charges themselves.`,
  })
  @ApiQuery({ name: 'group_by', required: false, enum: [...SPEND_GROUPS], description: 'Default `day`' })
  @DATE_FROM
  @DATE_TO
  @FORMAT
  @ApiProduces('application/json', 'text/csv')
  @csvAnswer(USAGE_COLUMNS.join(', '), UsageResponseDto)
  @ApiBadRequest(`A bad group, date or format, \`date_from\` not before \`date_to\`, or a range over ${USAGE_MAX_DAYS} days, named in \`error\``, ErrorBodyDto)
  async usage(
    @CurrentPrincipal() principal: Principal,
    @Query() query: unknown,
    @Headers('accept') accept?: string,
  ): Promise<UsageResponseDto | StreamableFile> {
    const { group, range, format } = valueOrBadRequest(parseUsageQuery(query, new Date()));
    const summary = await this.messages.spendBy(principal.companyId, group, range);
    if (wantsCsv(format, accept)) return csvFile(usageCsv(summary), `usage-by-${group}-${range.from.toISOString().slice(0, 10)}.csv`);
    return {
      status: 'success',
      message: 'Usage retrieved',
      data: {
        group_by: group,
        date_from: range.from.toISOString(),
        date_to: range.before.toISOString(),
        lines: summary.lines.map((line) => ({ key: line.key, ...sumsJson(line) })),
        total: sumsJson(summary.total),
      },
    };
  }

  @Get('ledger')
  @ApiOperation({
    summary: 'The ledger: every charge, refund, top-up and adjustment, newest first',
    description:
      'JSON: a page at a time (`limit`, `cursor`: pass `next_cursor` with the same filters for the next, older page). CSV: every entry that matches, streamed (`limit` and `cursor` are not used). Amounts are signed (a charge is negative) with the balance after each entry.',
  })
  @text('kind', `One or several of ${LEDGER_KINDS.join(', ')}, comma-separated`)
  @DATE_FROM
  @DATE_TO
  @text('reference', 'The entry’s reference, exact (`message:<id>`, `otp:<id>`, a request id…)')
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: LEDGER_MAX_LIMIT, default: LEDGER_DEFAULT_LIMIT } })
  @text('cursor', 'The `next_cursor` of the previous page')
  @FORMAT
  @ApiProduces('application/json', 'text/csv')
  @csvAnswer('id, created_at, kind, amount, balance_after, reference, description', UsageLedgerResponseDto)
  @ApiBadRequest('A bad kind, date, limit, cursor or format, or `date_from` not before `date_to`, named in `error`', ErrorBodyDto)
  async ledgerEntries(
    @CurrentPrincipal() principal: Principal,
    @Query() query: unknown,
    @Headers('accept') accept?: string,
  ): Promise<UsageLedgerResponseDto | StreamableFile> {
    const { filter, limit, cursor, format } = valueOrBadRequest(parseLedgerQuery(query));
    if (wantsCsv(format, accept)) {
      // Refused before the first byte: once streaming, a failure can only cut the download short.
      const refused = ledgerFilterError(filter);
      if (refused) throw new ApiError(HttpStatus.BAD_REQUEST, refused);
      return csvFile(this.ledger.csv(principal.companyId, filter), `ledger-${new Date().toISOString().slice(0, 10)}.csv`);
    }
    const page = await this.ledger.list(principal.companyId, filter, { limit, cursor }).catch(badRequestOf);
    return { status: 'success', message: 'Ledger retrieved', data: page };
  }
}
