import { Body, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery } from '@nestjs/swagger';
import { AccountsService, ApplicationRepository, type ApplicationEntity, type LiveSession } from '@mp/accounts';
import { resolveApplicationSettings } from '@mp/accounts-domain';
import { ApiError } from '@mp/http-kit';
import { ApiBadRequest, ApiNotFound } from '../openapi/error-responses';
import {
  ApplicationDto,
  ApplicationListDto,
  CreateApplicationRequestDto,
  UpdateApplicationRequestDto,
  type CreateApplicationRequestDto as CreateBody,
} from './applications.dto';
import { CompanyScopes } from './company-scope';
import { companyIdQuery, refusalsAnswered } from './dashboard-answers';
import { COMPANY_ID_QUERY } from './dashboard-openapi';
import { CurrentSession, DashboardController, Needs } from './dashboard-session.guard';

export const APPID_PARAM = { name: 'appid', description: 'The application’s `appid`', schema: { type: 'string' } } as const;
export const applicationNotFound = () => new ApiError(404, 'Application not found');

export function applicationAnswer(application: ApplicationEntity): ApplicationDto {
  const settings = resolveApplicationSettings(application.settings);
  return {
    appid: application.appid,
    name: application.name,
    otp_validity_minutes: settings.otp_validity_minutes,
    allowed_countries: settings.allowed_countries,
    otp_prefix_limit_per_hour: settings.otp_prefix_limit_per_hour,
    timezone: settings.timezone,
    created_at: application.createdAt.toISOString(),
  };
}

/** The settings of a body as the accounts domain reads them (`key=value` texts): only those given. */
function settingUpdates(body: Partial<CreateBody>): Record<string, string> {
  const updates: Record<string, string> = {};
  if (body.otp_validity_minutes !== undefined) updates['otp_validity_minutes'] = String(body.otp_validity_minutes);
  if (body.otp_prefix_limit_per_hour !== undefined) updates['otp_prefix_limit_per_hour'] = String(body.otp_prefix_limit_per_hour);
  if (body.allowed_countries !== undefined) updates['allowed_countries'] = body.allowed_countries.join(',');
  return updates;
}

/** A company's applications: the `appid` of OTP sends, with their OTP settings. */
@DashboardController('applications')
export class ApplicationsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly applications: ApplicationRepository,
    private readonly scopes: CompanyScopes,
  ) {}

  @Get()
  @Needs('applications.read')
  @ApiOperation({ summary: "The company's applications, oldest first, with their OTP settings" })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: ApplicationListDto, description: 'The applications' })
  async list(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<ApplicationListDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    return { items: (await this.applications.listForCompany(companyId)).map(applicationAnswer) };
  }

  @Post()
  @HttpCode(200)
  @Needs('applications.write')
  @ApiOperation({ summary: 'Create an application: a new `appid`, with the OTP settings given (the others default)' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: ApplicationDto, description: 'The new application' })
  @ApiBadRequest('A missing or invalid field, named in `error`; a name the company already has; a setting out of its range')
  async create(@CurrentSession() session: LiveSession, @Body() body: CreateApplicationRequestDto, @Query() query: unknown): Promise<ApplicationDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    const created = await refusalsAnswered(() => this.accounts.createApplication(companyId, body.name, session.user.id, settingUpdates(body)));
    return this.answerOf(companyId, created.appid);
  }

  @Get(':appid')
  @Needs('applications.read')
  @ApiOperation({ summary: 'One application with its OTP settings' })
  @ApiParam(APPID_PARAM)
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: ApplicationDto, description: 'The application' })
  @ApiNotFound('The company has no application with this appid: `{ "error": "Application not found" }`')
  async find(@CurrentSession() session: LiveSession, @Param('appid') appid: string, @Query() query: unknown): Promise<ApplicationDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    return this.answerOf(companyId, appid);
  }

  @Patch(':appid')
  @Needs('applications.write')
  @ApiOperation({ summary: 'Rename an application or change its OTP settings: only the fields given change' })
  @ApiParam(APPID_PARAM)
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: ApplicationDto, description: 'The application as it is now' })
  @ApiBadRequest('An invalid field, named in `error`; a name the company already has; a setting out of its range')
  @ApiNotFound('The company has no application with this appid: `{ "error": "Application not found" }`')
  async update(
    @CurrentSession() session: LiveSession,
    @Param('appid') appid: string,
    @Body() body: UpdateApplicationRequestDto,
    @Query() query: unknown,
  ): Promise<ApplicationDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    const change = { name: body.name, settings: settingUpdates(body) };
    await refusalsAnswered(() => this.accounts.changeCompanyApplication(companyId, appid, change, session.user.id));
    return this.answerOf(companyId, appid);
  }

  private async answerOf(companyId: string, appid: string): Promise<ApplicationDto> {
    const application = await this.applications.findForCompany(companyId, appid);
    if (!application) throw applicationNotFound();
    return applicationAnswer(application);
  }
}
