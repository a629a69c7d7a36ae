import { Body, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AccountsService, AlreadyRecordedError, CompanyRepository, type CompanySummary, type LiveSession } from '@mp/accounts';
import { moneyToJson } from '@mp/billing-domain';
import { ApiError } from '@mp/http-kit';
import { ApiBadRequest, ApiConflict, ApiNotFound } from '../../openapi/error-responses';
import { refusalsAnswered } from '../dashboard-answers';
import { CurrentSession, DashboardController, Needs } from '../dashboard-session.guard';
import { companyNotFound } from '../company-scope';
import { CreateCompanyRequestDto, CreatedCompanyDto, OperatorCompanyDto, OperatorCompanyListDto, TopUpDto, TopUpRequestDto } from './operator.dto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NOT_FOUND = 'No company has this id: `{ "error": "Company not found" }`';

export function companyAnswer(company: CompanySummary): OperatorCompanyDto {
  return {
    id: company.id,
    name: company.name,
    currency: company.currency,
    balance: moneyToJson(company.balance),
    status: company.suspendedAt === null ? 'active' : 'suspended',
    suspended_at: company.suspendedAt?.toISOString() ?? null,
    created_at: company.createdAt.toISOString(),
  };
}

/** The operators' companies: every company with its balance, made, suspended and topped up here as by the admin tool. */
@DashboardController('operator/companies')
export class OperatorCompaniesController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly companies: CompanyRepository,
  ) {}

  @Get()
  @Needs('operator.companies')
  @ApiOperation({ summary: 'Every company with its balance and status, by name (operators only)' })
  @ApiOkResponse({ type: OperatorCompanyListDto, description: 'The companies' })
  async list(): Promise<OperatorCompanyListDto> {
    return { items: (await this.companies.listSummaries()).map(companyAnswer) };
  }

  @Post()
  @HttpCode(200)
  @Needs('operator.companies')
  @ApiOperation({
    summary: 'Create a company with its opening balance, a first application and an API key pair (operators only)',
    description: 'As `admin company:create`: the audit log names the operator who made it. The API secret is in this answer only.',
  })
  @ApiOkResponse({ type: CreatedCompanyDto, description: 'The company, its first application and key pair' })
  @ApiBadRequest('A missing or invalid field, named in `error`')
  async create(@CurrentSession() session: LiveSession, @Body() body: CreateCompanyRequestDto): Promise<CreatedCompanyDto> {
    const created = await refusalsAnswered(() =>
      this.accounts.createCompany({ name: body.name, balance: body.balance ?? '0', currency: body.currency }, session.user.id),
    );
    return { company: await this.summary(created.company_id), appid: created.appid, api_key: created.api_key, api_secret: created.api_secret };
  }

  @Get(':id')
  @Needs('operator.companies')
  @ApiOperation({ summary: 'One company with its balance and status (operators only)' })
  @ApiOkResponse({ type: OperatorCompanyDto, description: 'The company' })
  @ApiNotFound(NOT_FOUND)
  async one(@Param('id') id: string): Promise<OperatorCompanyDto> {
    return this.summary(id);
  }

  @Post(':id/suspend')
  @HttpCode(200)
  @Needs('operator.companies')
  @ApiOperation({
    summary: 'Suspend a company (operators only)',
    description:
      'From then on (within the credential cache time, AUTH_CACHE_TTL_MS) the public API answers its keys and tokens 403 `{ "error": "Company suspended: contact the platform operator" }`, and its dashboard users may sign in and read but every change answers 403 the same. Work already queued still runs. Suspending a suspended company changes nothing. Audited as `company.suspended`.',
  })
  @ApiOkResponse({ type: OperatorCompanyDto, description: 'The company, suspended' })
  @ApiNotFound(NOT_FOUND)
  async suspend(@CurrentSession() session: LiveSession, @Param('id') id: string): Promise<OperatorCompanyDto> {
    return this.setSuspended(id, true, session);
  }

  @Post(':id/unsuspend')
  @HttpCode(200)
  @Needs('operator.companies')
  @ApiOperation({ summary: 'Lift a suspension: its keys and users work again (within AUTH_CACHE_TTL_MS). Audited as `company.unsuspended` (operators only)' })
  @ApiOkResponse({ type: OperatorCompanyDto, description: 'The company, active' })
  @ApiNotFound(NOT_FOUND)
  async unsuspend(@CurrentSession() session: LiveSession, @Param('id') id: string): Promise<OperatorCompanyDto> {
    return this.setSuspended(id, false, session);
  }

  @Post(':id/top-ups')
  @HttpCode(200)
  @Needs('operator.balance')
  @ApiOperation({
    summary: "Credit the company's balance (operators only)",
    description:
      'A `topup` ledger entry (description "operator top-up", the reference if given) and a `balance.topped_up` audit entry naming the operator, in one transaction; the same as `admin balance:topup`.',
  })
  @ApiOkResponse({ type: TopUpDto, description: 'The top-up and the balance after it' })
  @ApiBadRequest('A missing, zero, negative or inexact amount (more than 4 decimals, not a decimal string), or a bad reference, named in `error`')
  @ApiNotFound(NOT_FOUND)
  @ApiConflict('The company already has a top-up with this reference: nothing was credited')
  async topUp(@CurrentSession() session: LiveSession, @Param('id') id: string, @Body() body: TopUpRequestDto): Promise<TopUpDto> {
    this.requireId(id);
    try {
      const done = await refusalsAnswered(() => this.accounts.topUpBy(id, { amount: body.amount, reference: body.reference }, session.user.id));
      return { company_id: id, amount: moneyToJson(done.amount), balance: moneyToJson(done.balance), reference: done.reference };
    } catch (error) {
      if (error instanceof AlreadyRecordedError) throw new ApiError(HttpStatus.CONFLICT, error.message);
      throw error;
    }
  }

  private async setSuspended(id: string, suspended: boolean, session: LiveSession): Promise<OperatorCompanyDto> {
    this.requireId(id);
    await refusalsAnswered(() => this.accounts.setSuspended(id, suspended, session.user.id));
    return this.summary(id);
  }

  private async summary(id: string): Promise<OperatorCompanyDto> {
    this.requireId(id);
    const company = await this.companies.findSummary(id);
    if (!company) throw companyNotFound();
    return companyAnswer(company);
  }

  private requireId(id: string): void {
    if (!UUID.test(id)) throw companyNotFound();
  }
}
