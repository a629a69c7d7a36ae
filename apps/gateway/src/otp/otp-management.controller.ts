import { applyDecorators, Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { OTP_LOG_ENTRY_EVENTS } from '@mp/otp';
import { OTP_ATTEMPT_OUTCOMES, OTP_STATES } from '@mp/otp-domain';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { ApiBadRequest, ApiNotFound, ErrorBodyDto } from '../openapi/error-responses';
import {
  OtpAttemptsResponseDto,
  OtpListResponseDto,
  OtpLogsResponseDto,
  OtpRateLimitsResponseDto,
  OtpReportResponseDto,
  OtpStatusResponseDto,
} from './otp-management.dto';
import { OtpManagementService } from './otp-management.service';

const LIST_ENVELOPE =
  'Answers `{ status: "success", message, data: { items, page, limit, total } }`, items newest first; `total` counts every match over all pages.';
const FILTER_RULES =
  "`from` and `to` are ISO 8601 dates (`2026-11-22`, a whole UTC day) or timestamps with an offset (`2026-11-22T10:00:00Z`), both inclusive, on the creation time. A filter naming an `appid` or `verification_id` that is not this company's answers 404; an unknown query parameter answers 400.";
const RECORD_FIELDS =
  '`verification_id, appid, recipient, channel, status, sender, lang, expires_at, created_at, last_sent_at, resends, verified_at, cost`; `status` reads `expired` for a pending OTP past `expires_at`. Never the code or its hash.';

const text = (name: string, description: string, required = false) => ApiQuery({ name, required, description, type: String });
const oneOf = (name: string, values: readonly string[], description?: string) =>
  ApiQuery({ name, required: false, enum: [...values], ...(description ? { description } : {}) });
const integer = (name: string, schema: { minimum: number; maximum?: number; default: number }) =>
  ApiQuery({ name, required: false, schema: { type: 'integer', ...schema } });

const appid = () => text('appid', 'One of your applications (404 otherwise)');
const recipient = () => text('recipient', 'E.164 number; encode the `+` as `%2B` (a number without it is read with one)');
const verificationId = () => text('verification_id', 'One OTP of yours (404 otherwise; also for an id that is not a verification id)');
const channel = () => oneOf('channel', ['sms', 'whatsapp']);
const from = () => text('from', 'Created at or after: `2026-11-01` (midnight UTC) or `2026-11-01T08:00:00+02:00`');
const to = () => text('to', 'Created at or before; a date covers its whole UTC day');
const page = () => integer('page', { minimum: 1, default: 1 });
const limit = () => integer('limit', { minimum: 1, maximum: 100, default: 20 });

/** The query parameters of a route, documented in the order given. */
function ApiQueries(...parameters: MethodDecorator[]) {
  return applyDecorators(...parameters);
}

function ApiQueryErrors(notFound: string) {
  return applyDecorators(
    ApiBadRequest('A bad query parameter, named in `error` (e.g. `limit must be an integer from 1 to 100`), or an unknown one', ErrorBodyDto),
    ApiNotFound(notFound),
  );
}

@ApiTags('otp')
@Controller('otp')
export class OtpManagementController {
  constructor(private readonly management: OtpManagementService) {}

  @Get('status')
  @ApiOperation({ summary: 'One OTP and its status', description: `Answers \`data\`: the OTP, with ${RECORD_FIELDS}` })
  @ApiQueries(text('verification_id', 'The id POST /otp/send answered', true))
  @ApiOkResponse({ type: OtpStatusResponseDto, description: 'The OTP' })
  @ApiQueryErrors('No such OTP for this company (also for an id that is not a verification id)')
  status(@CurrentPrincipal() principal: Principal, @Query() query: unknown) {
    return this.management.status(principal.companyId, query);
  }

  @Get('list')
  @ApiOperation({
    summary: 'List OTPs',
    description: `Filters: \`appid\`, \`recipient\`, \`status\`, \`channel\`, \`from\`, \`to\`; pages with \`page\` and \`limit\` (default 20, at most 100). ${LIST_ENVELOPE} Items: ${RECORD_FIELDS} ${FILTER_RULES}`,
  })
  @ApiQueries(appid(), recipient(), oneOf('status', OTP_STATES, '`expired` includes pending OTPs past `expires_at`'), channel(), from(), to(), page(), limit())
  @ApiOkResponse({ type: OtpListResponseDto, description: 'A page of OTPs' })
  @ApiQueryErrors('`appid` is not an application of this company')
  list(@CurrentPrincipal() principal: Principal, @Query() query: unknown) {
    return this.management.list(principal.companyId, query);
  }

  @Get('logs')
  @ApiOperation({
    summary: 'OTP activity log',
    description: `What happened to your OTPs: \`sent\`, \`delivered\`, \`verified\`, \`failed_attempt\`, \`expired\`, \`resent\`, \`blocked\`, and \`refused\` (a send the fraud guard turned down; no \`verification_id\`). Filters: \`verification_id\`, \`appid\`, \`recipient\`, \`event\`, \`from\`, \`to\`; \`page\`, \`limit\`. ${LIST_ENVELOPE} Items: \`id, verification_id, appid, recipient, event, detail, created_at\`. ${FILTER_RULES}`,
  })
  @ApiQueries(verificationId(), appid(), recipient(), oneOf('event', OTP_LOG_ENTRY_EVENTS), from(), to(), page(), limit())
  @ApiOkResponse({ type: OtpLogsResponseDto, description: 'A page of events' })
  @ApiQueryErrors("`verification_id` or `appid` is not this company's")
  logs(@CurrentPrincipal() principal: Principal, @Query() query: unknown) {
    return this.management.logs(principal.companyId, query);
  }

  @Get('attempts')
  @ApiOperation({
    summary: 'Verification attempts',
    description: `Every POST /otp/verify that found an OTP, with its \`outcome\`: \`success\`, \`invalid_code\`, \`expired\`, \`blocked\`, \`already_verified\`. Filters: \`verification_id\`, \`recipient\`, \`appid\`, \`outcome\`, \`from\`, \`to\`; \`page\`, \`limit\`. ${LIST_ENVELOPE} Items: \`id, verification_id, appid, recipient, outcome, created_at\` (never the code tried). ${FILTER_RULES}`,
  })
  @ApiQueries(verificationId(), recipient(), appid(), oneOf('outcome', OTP_ATTEMPT_OUTCOMES), from(), to(), page(), limit())
  @ApiOkResponse({ type: OtpAttemptsResponseDto, description: 'A page of attempts' })
  @ApiQueryErrors("`verification_id` or `appid` is not this company's")
  attempts(@CurrentPrincipal() principal: Principal, @Query() query: unknown) {
    return this.management.attempts(principal.companyId, query);
  }

  @Get('rate-limits')
  @ApiOperation({
    summary: 'OTP rate limit and blocked recipients, now',
    description:
      'Answers `data: { limit, used, remaining, reset_at, window_seconds, blocked_recipients }`: sends and resends counted in the rolling 60-second window of this company (`reset_at`: when the oldest counted one leaves it, null when none is counted), and the recipients blocked now after 3 wrong codes within 30 minutes, `[{ appid, recipient, blocked_until }]`.',
  })
  @ApiOkResponse({ type: OtpRateLimitsResponseDto, description: 'Usage of the limit and blocked recipients' })
  rateLimits(@CurrentPrincipal() principal: Principal) {
    return this.management.rateLimits(principal.companyId);
  }

  @Get('reports')
  @ApiOperation({
    summary: 'OTP usage report',
    description:
      'OTPs created in the range (`from`, `to`: default the last 30 days up to now; at most 366 days), optionally of one `appid` or `channel`, counted per UTC day of creation, channel and application. Answers `data: { from, to, rows: [{ day, channel, appid, sent, verified, expired, failed, conversion_rate, cost }], totals: { sent, verified, conversion_rate, cost } }`; `conversion_rate` = verified / sent to 4 decimals (0 when none was sent); `cost` is exactly what those OTPs were charged, resends included. A pending OTP past its expiry counts as expired.',
  })
  @ApiQueries(
    text('from', 'Created at or after; default 30 days before `to`'),
    text('to', 'Created at or before (a date covers its whole UTC day); default now'),
    appid(),
    channel(),
  )
  @ApiOkResponse({ type: OtpReportResponseDto, description: 'The report' })
  @ApiQueryErrors('`appid` is not an application of this company')
  reports(@CurrentPrincipal() principal: Principal, @Query() query: unknown) {
    return this.management.reports(principal.companyId, query);
  }
}
