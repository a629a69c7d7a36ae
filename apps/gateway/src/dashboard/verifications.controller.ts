import { Get, HttpStatus, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import type { LiveSession } from '@mp/accounts';
import { ApiError, valueOrBadRequest } from '@mp/http-kit';
import { OtpManagementStore, VerificationStatsFilterError, type TimeToVerify } from '@mp/otp';
import { InvalidCursorError } from '@mp/persistence';
import { ApiBadRequest } from '../openapi/error-responses';
import { CompanyScopes } from './company-scope';
import { COMPANY_ID_QUERY } from './dashboard-openapi';
import { CurrentSession, DashboardController, Needs } from './dashboard-session.guard';
import { parseOtpBlocksQuery, parseVerificationStatsQuery } from './verifications-query';
import { OtpBlockPageDto, VerificationStatsDto, type VerificationCountsDto } from './verifications.dto';

const text = (description: string) => ({ required: false, description, schema: { type: 'string' } }) as const;
const RANGE_QUERIES = [
  { name: 'from', ...text('Start: an ISO 8601 date (midnight UTC) or timestamp') },
  { name: 'to', ...text('End: an ISO 8601 date (its whole UTC day) or timestamp') },
];

function counts(stats: { sent: number; verified: number; conversionRate: number; timeToVerify: TimeToVerify }): VerificationCountsDto {
  return {
    sent: stats.sent,
    verified: stats.verified,
    conversion_rate: stats.conversionRate,
    median_seconds: stats.timeToVerify.medianSeconds,
    p95_seconds: stats.timeToVerify.p95Seconds,
  };
}

/** The console's verifications page: OTP conversion charts and the 3-failure blocks. */
@DashboardController('verifications')
export class VerificationsController {
  constructor(
    private readonly store: OtpManagementStore,
    private readonly scopes: CompanyScopes,
  ) {}

  @Get('stats')
  @Needs('verifications.read')
  @ApiOperation({ summary: 'OTPs sent, verified, conversion and time to verify per UTC day, channel and country (the last 30 days by default, at most 366)' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiQuery(RANGE_QUERIES[0])
  @ApiQuery(RANGE_QUERIES[1])
  @ApiQuery({ name: 'channel', required: false, schema: { type: 'string', enum: ['sms', 'whatsapp'] } })
  @ApiQuery({ name: 'country', ...text("The recipient's country, ISO 3166-1 alpha-2 (GB)") })
  @ApiOkResponse({ type: VerificationStatsDto, description: 'The counts' })
  @ApiBadRequest('A bad date, channel or country, `from` not before `to`, or a range over 366 days, named in `error`')
  async stats(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<VerificationStatsDto> {
    const { companyId: requested, filter } = valueOrBadRequest(parseVerificationStatsQuery(query, new Date()));
    const companyId = await this.scopes.companyOf(session, requested);
    const stats = await this.store.verificationStats(companyId, filter).catch((error: unknown) => {
      if (error instanceof VerificationStatsFilterError) throw new ApiError(HttpStatus.BAD_REQUEST, error.message);
      throw error;
    });
    return {
      from: filter.from.toISOString(),
      to: filter.before.toISOString(),
      days: stats.days.map((day) => ({ day: day.day, ...counts(day) })),
      rows: stats.rows.map((row) => ({ day: row.day, channel: row.channel, country: row.country, ...counts(row) })),
      totals: counts(stats.totals),
    };
  }

  @Get('blocks')
  @Needs('verifications.read')
  @ApiOperation({ summary: 'Recipients blocked after three wrong codes within 30 minutes, newest first' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiQuery(RANGE_QUERIES[0])
  @ApiQuery(RANGE_QUERIES[1])
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } })
  @ApiQuery({ name: 'cursor', ...text('The `next_cursor` of the page before') })
  @ApiOkResponse({ type: OtpBlockPageDto, description: 'A page of blocks' })
  @ApiBadRequest('A bad date, limit or cursor, named in `error`')
  async blocks(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<OtpBlockPageDto> {
    const { companyId: requested, filter, page } = valueOrBadRequest(parseOtpBlocksQuery(query));
    const companyId = await this.scopes.companyOf(session, requested);
    const found = await this.store.blocks(companyId, filter, page, new Date()).catch((error: unknown) => {
      if (error instanceof InvalidCursorError) throw new ApiError(HttpStatus.BAD_REQUEST, error.message);
      throw error;
    });
    return {
      items: found.items.map((block) => ({
        blocked_at: block.blockedAt.toISOString(),
        blocked_until: block.blockedUntil.toISOString(),
        active: block.active,
        recipient: block.recipient,
        appid: block.appid,
        verification_id: block.verificationId,
      })),
      next_cursor: found.next_cursor,
    };
  }
}
