import { Body, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery } from '@nestjs/swagger';
import { ApplicationRepository, CatalogService, TemplateRepository, type ApplicationEntity, type LiveSession } from '@mp/accounts';
import { ApiBadRequest, ApiNotFound } from '../openapi/error-responses';
import { APPID_PARAM, applicationNotFound } from './applications.controller';
import {
  CreatedTemplateDto,
  CreateTemplateRequestDto,
  RemovedTemplateDto,
  RemovedTemplateTextDto,
  TemplateListDto,
  TemplatePreviewDto,
  TemplatePreviewRequestDto,
  TemplateTextRequestDto,
  TemplateTextSetDto,
} from './applications.dto';
import { CompanyScopes } from './company-scope';
import { companyIdQuery, refusalsAnswered } from './dashboard-answers';
import { COMPANY_ID_QUERY } from './dashboard-openapi';
import { CurrentSession, DashboardController, Needs } from './dashboard-session.guard';
import { TemplatePreviewService } from './template-preview.service';

const TEMPLATE_PARAM = { name: 'template_id', description: 'The template’s id', schema: { type: 'string' } } as const;
const LANG_PARAM = { name: 'lang', description: 'A language code such as en or pt-BR', schema: { type: 'string' } } as const;
const APP_404 = 'The company has no application with this appid: `{ "error": "Application not found" }`';
const TEMPLATE_404 = 'No such application, or it has no template with this id (or no text in this language)';

/** An application's templates: a text per language each, what `template` of an OTP send names. */
@DashboardController('applications/:appid/templates')
export class TemplatesController {
  constructor(
    private readonly catalog: CatalogService,
    private readonly applications: ApplicationRepository,
    private readonly templates: TemplateRepository,
    private readonly previews: TemplatePreviewService,
    private readonly scopes: CompanyScopes,
  ) {}

  @Get()
  @Needs('applications.read')
  @ApiOperation({ summary: "The application's templates, each with its text in every language it has" })
  @ApiParam(APPID_PARAM)
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: TemplateListDto, description: 'The templates and their languages' })
  @ApiNotFound(APP_404)
  async list(@CurrentSession() session: LiveSession, @Param('appid') appid: string, @Query() query: unknown): Promise<TemplateListDto> {
    const application = await this.applicationOf(session, appid, query);
    const texts = await this.templates.listForApplication(application.id);
    const items = new Map<number, TemplateListDto['items'][number]>();
    for (const text of texts) {
      const template = items.get(text.templateId) ?? { template_id: text.templateId, texts: [] };
      template.texts.push({ lang: text.lang, text: text.text, original: text.original, created_at: text.createdAt.toISOString() });
      items.set(text.templateId, template);
    }
    return { items: [...items.values()], languages: [...new Set(texts.map((text) => text.lang))].sort() };
  }

  @Post()
  @HttpCode(200)
  @Needs('applications.write')
  @ApiOperation({ summary: 'Create a template with its text in one language (`en` unless given)' })
  @ApiParam(APPID_PARAM)
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: CreatedTemplateDto, description: 'The new template' })
  @ApiBadRequest('A missing or invalid field, named in `error`: a text of 1 to 1600 characters, a language code such as en or pt-BR')
  @ApiNotFound(APP_404)
  async create(
    @CurrentSession() session: LiveSession,
    @Param('appid') appid: string,
    @Body() body: CreateTemplateRequestDto,
    @Query() query: unknown,
  ): Promise<CreatedTemplateDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    return refusalsAnswered(() => this.catalog.createTemplate({ appid, text: body.text, lang: body.lang }, { companyId, actor: session.user.id }));
  }

  @Post('preview')
  @HttpCode(200)
  @Needs('applications.read')
  @ApiOperation({
    summary: 'A template text rendered with sample values, its encoding, parts and cost',
    description:
      'Rendered as an OTP of this application would be (a sample code, its name, expiry and time zone, the sample number), then split and priced as POST /sms/estimate of the public API does for that text and number. Saves nothing.',
  })
  @ApiParam(APPID_PARAM)
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: TemplatePreviewDto, description: 'The rendered text and what sending it would cost' })
  @ApiBadRequest('A missing or invalid field, named in `error`; an invalid sample number; a text over 1600 characters (rendered); no price for the number')
  @ApiNotFound(APP_404)
  async preview(
    @CurrentSession() session: LiveSession,
    @Param('appid') appid: string,
    @Body() body: TemplatePreviewRequestDto,
    @Query() query: unknown,
  ): Promise<TemplatePreviewDto> {
    return this.previews.preview(await this.applicationOf(session, appid, query), body);
  }

  @Put(':template_id/texts/:lang')
  @Needs('applications.write')
  @ApiOperation({ summary: "Set a template's text in a language: adds the language, or replaces its text" })
  @ApiParam(APPID_PARAM)
  @ApiParam(TEMPLATE_PARAM)
  @ApiParam(LANG_PARAM)
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: TemplateTextSetDto, description: 'The text set' })
  @ApiBadRequest('An invalid field, named in `error`: a text of 1 to 1600 characters, a language code such as en or pt-BR, a template id')
  @ApiNotFound(TEMPLATE_404)
  async setText(
    @CurrentSession() session: LiveSession,
    @Param('appid') appid: string,
    @Param('template_id') template: string,
    @Param('lang') lang: string,
    @Body() body: TemplateTextRequestDto,
    @Query() query: unknown,
  ): Promise<TemplateTextSetDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    return refusalsAnswered(() => this.catalog.translateTemplate({ template, lang, text: body.text }, { companyId, appid, actor: session.user.id }));
  }

  @Delete(':template_id/texts/:lang')
  @Needs('applications.write')
  @ApiOperation({ summary: "Remove a template's text in a language (not the one it was created in: remove the template)" })
  @ApiParam(APPID_PARAM)
  @ApiParam(TEMPLATE_PARAM)
  @ApiParam(LANG_PARAM)
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: RemovedTemplateTextDto, description: 'The text removed' })
  @ApiBadRequest('An invalid language code or template id; the language the template was created in')
  @ApiNotFound(TEMPLATE_404)
  async removeText(
    @CurrentSession() session: LiveSession,
    @Param('appid') appid: string,
    @Param('template_id') template: string,
    @Param('lang') lang: string,
    @Query() query: unknown,
  ): Promise<RemovedTemplateTextDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    const removed = await refusalsAnswered(() => this.catalog.removeTemplateText({ template, lang }, { companyId, appid, actor: session.user.id }));
    return { ...removed, removed: true };
  }

  @Delete(':template_id')
  @Needs('applications.write')
  @ApiOperation({ summary: 'Remove a template with its every language: OTP sends naming it are refused from then on' })
  @ApiParam(APPID_PARAM)
  @ApiParam(TEMPLATE_PARAM)
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: RemovedTemplateDto, description: 'The template removed' })
  @ApiBadRequest('A template id that is not a positive integer')
  @ApiNotFound(TEMPLATE_404)
  async remove(
    @CurrentSession() session: LiveSession,
    @Param('appid') appid: string,
    @Param('template_id') template: string,
    @Query() query: unknown,
  ): Promise<RemovedTemplateDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    const removed = await refusalsAnswered(() => this.catalog.removeTemplate({ template }, { companyId, appid, actor: session.user.id }));
    return { ...removed, removed: true };
  }

  private async applicationOf(session: LiveSession, appid: string, query: unknown): Promise<ApplicationEntity> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    const application = await this.applications.findForCompany(companyId, appid);
    if (!application) throw applicationNotFound();
    return application;
  }
}
