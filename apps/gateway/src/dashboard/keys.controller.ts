import { Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { AccountsService, ApiKeyRepository, type LiveSession } from '@mp/accounts';
import { ApiNotFound } from '../openapi/error-responses';
import { companyIdQuery, refusalsAnswered } from './dashboard-answers';
import { ApiKeyListDto, CreatedApiKeyDto, RevokedApiKeyDto } from './dashboard.dto';
import { CurrentSession, DashboardController, Needs } from './dashboard-session.guard';
import { CompanyScopes } from './company-scope';
import { COMPANY_ID_QUERY } from './dashboard-openapi';

/** A company's API keys: the public API's credentials, made only here and by the admin tool. */
@DashboardController('keys')
export class KeysController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly keys: ApiKeyRepository,
    private readonly scopes: CompanyScopes,
  ) {}

  @Get()
  @Needs('keys.read')
  @ApiOperation({ summary: "The company's API keys, newest first, with when each was created, last used and revoked" })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: ApiKeyListDto, description: 'The keys' })
  async list(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<ApiKeyListDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    const keys = await this.keys.listForCompany(companyId);
    return {
      items: keys.map((key) => ({
        id: key.id,
        api_key: key.key,
        created_at: key.createdAt.toISOString(),
        last_used_at: key.lastUsedAt?.toISOString() ?? null,
        revoked_at: key.revokedAt?.toISOString() ?? null,
      })),
    };
  }

  @Post()
  @HttpCode(200)
  @Needs('keys.write')
  @ApiOperation({ summary: 'Create an API key pair: the secret is in this answer only' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: CreatedApiKeyDto, description: 'The new key pair' })
  async create(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<CreatedApiKeyDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    const created = await refusalsAnswered(() => this.accounts.createKey(companyId, session.user.id));
    return { id: created.id, api_key: created.api_key, api_secret: created.api_secret, created_at: created.created_at.toISOString() };
  }

  @Delete(':id')
  @Needs('keys.write')
  @ApiOperation({ summary: 'Revoke a key: the public API refuses it within the credential cache time (AUTH_CACHE_TTL_MS)' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: RevokedApiKeyDto, description: 'Revoked (again: the first time it was)' })
  @ApiNotFound('No key of this company has this id: `{ "error": "API key not found" }`')
  async revoke(@CurrentSession() session: LiveSession, @Param('id') id: string, @Query() query: unknown): Promise<RevokedApiKeyDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    const revoked = await refusalsAnswered(() => this.accounts.revokeCompanyKey(companyId, id, session.user.id));
    return { id: revoked.id, revoked_at: revoked.revoked_at.toISOString() };
  }
}
