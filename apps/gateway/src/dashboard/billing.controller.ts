import { Body, Get, HttpStatus, Put, Query, StreamableFile } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { BillingSettings, CompanyRepository, parseLowBalanceThreshold, type LiveSession } from '@mp/accounts';
import { ledgerCsvFileName, LedgerFilterError, ledgerFilterError, LedgerRepository, LedgerViews } from '@mp/billing';
import { moneyToJson } from '@mp/billing-domain';
import { ApiError, valueOrBadRequest } from '@mp/http-kit';
import { InvalidCursorError } from '@mp/persistence';
import { Readable } from 'node:stream';
import { ApiBadRequest } from '../openapi/error-responses';
import { BillingBalanceDto, BillingSettingsDto, BillingSettingsRequestDto, LedgerPageDto, SpendDto } from './billing.dto';
import { parseLedgerCsvQuery, parseLedgerQuery, parseSpendQuery } from './billing-query';
import { companyNotFound, CompanyScopes } from './company-scope';
import { companyIdQuery, refusalsAnswered } from './dashboard-answers';
import { COMPANY_ID_QUERY } from './dashboard-openapi';
import { CurrentSession, DashboardController, Needs } from './dashboard-session.guard';

const text = (name: string, description: string) => ({ name, required: false, description, schema: { type: 'string' } }) as const;
const FROM = text('from', 'Start: an ISO 8601 date (midnight UTC) or timestamp');
const TO = text('to', 'End: an ISO 8601 date (its whole UTC day) or timestamp');
const KINDS = text('kinds', 'One or several of topup, charge, refund, adjustment, comma-separated');
const REFERENCE = text('reference', 'The exact reference of the entries (`otp:<id>`, `message:<id>`, a request id…)');

/** The ledger's and the spend's refusals (filters, cursors) as 400s. */
function badRequestOf(error: unknown): never {
  if (error instanceof LedgerFilterError || error instanceof InvalidCursorError) throw new ApiError(HttpStatus.BAD_REQUEST, error.message);
  throw error;
}

/** The console's billing page: balance, ledger, spend per day, the CSV export, and the owners' settings. */
@DashboardController('billing')
export class BillingController {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly views: LedgerViews,
    private readonly settings: BillingSettings,
    private readonly companies: CompanyRepository,
    private readonly scopes: CompanyScopes,
  ) {}

  @Get('balance')
  @Needs('billing.read')
  @ApiOperation({ summary: 'The balance, its currency, and whether it is below the low-balance warning threshold' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: BillingBalanceDto, description: 'The balance' })
  async balance(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<BillingBalanceDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    const [found, settings] = await Promise.all([this.ledger.findBalanceWithCurrency(companyId), this.settings.get(companyId)]);
    if (!found || !settings) throw companyNotFound();
    const threshold = settings.lowBalanceThreshold;
    return {
      balance: moneyToJson(found.balance),
      currency: found.currency,
      low_balance_threshold: threshold === null ? null : moneyToJson(threshold),
      low_balance: threshold !== null && found.balance < threshold,
    };
  }

  @Get('ledger')
  @Needs('billing.read')
  @ApiOperation({ summary: 'The ledger, newest first in the order it was written, filtered by kinds, dates and reference, a page at a time' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiQuery(KINDS)
  @ApiQuery(FROM)
  @ApiQuery(TO)
  @ApiQuery(REFERENCE)
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } })
  @ApiQuery(text('cursor', 'The `next_cursor` of the page before'))
  @ApiOkResponse({ type: LedgerPageDto, description: 'A page of entries' })
  @ApiBadRequest('A bad kind, date, reference, limit or cursor, or `from` not before `to`, named in `error`')
  async list(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<LedgerPageDto> {
    const { companyId: requested, filter, page } = valueOrBadRequest(parseLedgerQuery(query));
    const companyId = await this.scopes.companyOf(session, requested);
    return this.views.list(companyId, filter, page).catch(badRequestOf);
  }

  @Get('spend')
  @Needs('billing.read')
  @ApiOperation({ summary: 'Charges less refunds per UTC day, every day of the range (the last 30 days by default, at most 366)' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiQuery(FROM)
  @ApiQuery(TO)
  @ApiOkResponse({ type: SpendDto, description: 'The spend per day' })
  @ApiBadRequest('A bad date, `from` not before `to`, or a range over 366 days, named in `error`')
  async spend(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<SpendDto> {
    const { companyId: requested, range } = valueOrBadRequest(parseSpendQuery(query, new Date()));
    const companyId = await this.scopes.companyOf(session, requested);
    const days = await this.views.spendByDay(companyId, range).catch(badRequestOf);
    return { from: range.from.toISOString(), to: range.before.toISOString(), days };
  }

  @Get('ledger.csv')
  @Needs('billing.read')
  @ApiOperation({ summary: 'The ledger entries that match, newest first, as a CSV download (amounts exact with 4 decimals)' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiQuery(KINDS)
  @ApiQuery(FROM)
  @ApiQuery(TO)
  @ApiQuery(REFERENCE)
  @ApiOkResponse({
    description: 'RFC 4180 CSV: id, created_at, kind, amount, balance_after, reference, description',
    content: { 'text/csv': { schema: { type: 'string' } } },
    headers: { 'Content-Disposition': { description: 'attachment; filename="ledger-<company>-<date>.csv"', schema: { type: 'string' } } },
  })
  @ApiBadRequest('A bad kind, date or reference, or `from` not before `to`, named in `error`')
  async csv(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<StreamableFile> {
    const { companyId: requested, filter } = valueOrBadRequest(parseLedgerCsvQuery(query));
    const companyId = await this.scopes.companyOf(session, requested);
    // Refused before the first byte: once streaming, a failure can only cut the download short.
    const refused = ledgerFilterError(filter);
    if (refused) throw new ApiError(HttpStatus.BAD_REQUEST, refused);
    const company = await this.companies.findById(companyId);
    if (!company) throw companyNotFound();
    return new StreamableFile(Readable.from(this.views.csv(companyId, filter)), {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="${ledgerCsvFileName(company.name, new Date())}"`,
    });
  }

  @Get('settings')
  @Needs('billing.settings')
  @ApiOperation({ summary: 'The billing settings: the low-balance warning threshold (owners only)' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: BillingSettingsDto, description: 'The settings' })
  async readSettings(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<BillingSettingsDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    return this.settingsAnswer(companyId);
  }

  @Put('settings')
  @Needs('billing.settings')
  @ApiOperation({ summary: 'Change the low-balance warning threshold (owners only; written to the audit log)' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiBody({ type: BillingSettingsRequestDto })
  @ApiOkResponse({ type: BillingSettingsDto, description: 'The settings as they are now' })
  @ApiBadRequest('A missing threshold, or one that is not decimal text of zero or more with at most 4 decimals, named in `error`')
  async changeSettings(@CurrentSession() session: LiveSession, @Body() body: BillingSettingsRequestDto, @Query() query: unknown): Promise<BillingSettingsDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    await refusalsAnswered(() =>
      this.settings.setLowBalanceThreshold(companyId, parseLowBalanceThreshold(body.low_balance_threshold ?? null), session.user.id),
    );
    return this.settingsAnswer(companyId);
  }

  private async settingsAnswer(companyId: string): Promise<BillingSettingsDto> {
    const [settings, company] = await Promise.all([this.settings.get(companyId), this.companies.findById(companyId)]);
    if (!settings || !company) throw companyNotFound();
    const threshold = settings.lowBalanceThreshold;
    return { low_balance_threshold: threshold === null ? null : moneyToJson(threshold), currency: company.currency };
  }
}
