import { Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { AuditLogRepository, type LiveSession } from '@mp/accounts';
import { ApiError } from '@mp/http-kit';
import { companyIdQuery } from './dashboard-answers';
import { AuditPageDto } from './dashboard.dto';
import { CurrentSession, DashboardController, Needs } from './dashboard-session.guard';
import { CompanyScopes } from './company-scope';
import { COMPANY_ID_QUERY } from './dashboard-openapi';

const AUDIT_PAGE = 50;
/** A cursor is an entry's id: a bigint. */
const CURSOR = /^[1-9][0-9]{0,17}$/;

/** The company's audit log: every change of its keys, members, settings and balance. */
@DashboardController('audit')
export class AuditController {
  constructor(
    private readonly audit: AuditLogRepository,
    private readonly scopes: CompanyScopes,
  ) {}

  @Get()
  @Needs('audit.read')
  @ApiOperation({ summary: 'The audit log, newest first, 50 entries a page' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiQuery({ name: 'cursor', required: false, description: 'The `next_cursor` of the page before', schema: { type: 'string' } })
  @ApiOkResponse({ type: AuditPageDto, description: 'A page of entries' })
  async list(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<AuditPageDto> {
    const { companyId: requested, reader } = companyIdQuery(query, ['cursor']);
    const cursor = reader['cursor'] ?? undefined;
    if (cursor !== undefined && !CURSOR.test(cursor)) throw new ApiError(400, 'cursor must be the next_cursor of an earlier page');
    const companyId = await this.scopes.companyOf(session, requested);
    const page = await this.audit.list(companyId, { before: cursor, limit: AUDIT_PAGE });
    return {
      items: page.items.map((entry) => ({ id: entry.id, at: entry.at.toISOString(), actor: entry.actor, action: entry.action, details: entry.details })),
      next_cursor: page.nextCursor,
    };
  }
}
