import { Get, Header, HttpStatus, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { ApiError, readQuery, valueOrBadRequest, type Result } from '@mp/http-kit';
import {
  MARGIN_DIMENSIONS,
  marginRange,
  MarginReportError,
  MarginReports,
  marginReportCsv,
  marginReportJson,
  parseMarginDimensions,
  type MarginQuery,
} from '@mp/messaging';
import { ApiBadRequest } from '../../openapi/error-responses';
import { DashboardController, Needs } from '../dashboard-session.guard';
import { MarginReportDto } from './margins.dto';

const text = (name: string, required: boolean, description: string) => ({ name, required, description, schema: { type: 'string' } }) as const;
const QUERIES = [
  text('from', true, 'First UTC day, YYYY-MM-DD'),
  text('to', true, 'Last UTC day, YYYY-MM-DD, included; at most 366 days from `from`'),
  text('by', false, 'day, country and/or carrier, comma-separated; all three unless given'),
  text('carrier', false, 'Only the parts this carrier took (its name, any case)'),
];

/** `from`, `to`, `by`, `carrier`: the margin report's query, or the first thing wrong with it. */
export function parseMarginQuery(query: unknown): Result<{ days: { from: string; to: string }; query: MarginQuery }> {
  return readQuery(query, ['from', 'to', 'by', 'carrier'], (q) => {
    const days = { from: q.required('from'), to: q.required('to') };
    const by = q.parsed('by', 'day, country and/or carrier, comma-separated', parseMarginDimensions) ?? [...MARGIN_DIMENSIONS];
    return { days, query: { range: marginRange(days.from, days.to), by, carrier: q.text('carrier') } };
  });
}

function parsed(query: unknown) {
  try {
    return valueOrBadRequest(parseMarginQuery(query));
  } catch (error) {
    if (error instanceof MarginReportError) throw new ApiError(HttpStatus.BAD_REQUEST, error.message);
    throw error;
  }
}

/**
 * The margin report (operators only): over every company's messages, what their parts were
 * charged net of refunds, what the carriers that took them charge, and the margin, by day,
 * country and carrier; as `admin report:margins`.
 */
@DashboardController('operator')
export class OperatorMarginsController {
  constructor(private readonly reports: MarginReports) {}

  @Get('margins')
  @Needs('operator.prices')
  @ApiOperation({
    summary: 'Price charged, carrier cost and margin by day, country and carrier (operators only)',
    description:
      'Exact sums over the parts of the messages accepted from `from` to `to` (UTC days). A message refund goes to its parts that never reached a carrier first. Parts whose carrier cost is unknown are counted in `uncosted_parts` and `uncosted_charged` and left out of `margin`, so an unknown cost never reads as profit. `timed_out_parts` counts, on the lines of the carrier a submit timed out on, the parts another carrier then took: a possible second charge whose cost is not recorded.',
  })
  @ApiQuery(QUERIES[0])
  @ApiQuery(QUERIES[1])
  @ApiQuery(QUERIES[2])
  @ApiQuery(QUERIES[3])
  @ApiOkResponse({ type: MarginReportDto, description: 'The report' })
  @ApiBadRequest('A missing or bad date, `from` after `to`, a range over 366 days, or an unknown dimension in `by`, named in `error`')
  async margins(@Query() query: unknown): Promise<MarginReportDto> {
    const { days, query: reportQuery } = parsed(query);
    return marginReportJson(await this.reports.read(reportQuery), days);
  }

  @Get('margins.csv')
  @Needs('operator.prices')
  @Header('Content-Type', 'text/csv; charset=utf-8')
  @Header('Content-Disposition', 'attachment; filename="margins.csv"')
  @ApiOperation({ summary: 'The margin report as a CSV download, amounts exact with 4 decimals, the total last (operators only)' })
  @ApiQuery(QUERIES[0])
  @ApiQuery(QUERIES[1])
  @ApiQuery(QUERIES[2])
  @ApiQuery(QUERIES[3])
  @ApiOkResponse({
    description:
      'RFC 4180 CSV (CRLF): the dimensions asked for, then parts, charged, refunded, net_charged, cost, uncosted_parts, uncosted_charged, margin, margin_percent, timed_out_parts; the last line is the total, its dimensions reading `total`',
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  @ApiBadRequest('As GET /dashboard/api/operator/margins')
  async csv(@Query() query: unknown): Promise<string> {
    const { query: reportQuery } = parsed(query);
    return marginReportCsv(await this.reports.read(reportQuery));
  }
}
