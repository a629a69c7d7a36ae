import { Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { AUDIT_ACTIONS, AuditLogRepository, isAuditAction, type AuditAction, type LiveSession } from '@mp/accounts';
import { ApiError } from '@mp/http-kit';
import { ApiBadRequest, ApiNotFound, ErrorBodyDto } from '../openapi/error-responses';
import { companyIdQuery } from './dashboard-answers';
import { AuditPageDto } from './dashboard.dto';
import { CurrentSession, DashboardController, Needs } from './dashboard-session.guard';
import { CompanyScopes } from './company-scope';

const AUDIT_PAGE = 50;
/** A cursor is an entry's id: a bigint. */
const CURSOR = /^[1-9][0-9]{0,17}$/;

/**
 * The audit log: every change of a company's keys, members, settings and balance; for an operator
 * who names no company, the platform's own entries (operators created, prices set and imported).
 */
@DashboardController('audit')
export class AuditController {
  constructor(
    private readonly audit: AuditLogRepository,
    private readonly scopes: CompanyScopes,
  ) {}

  @Get()
  @Needs('audit.read')
  @ApiOperation({
    summary: 'The audit log, newest first, 50 entries a page',
    description:
      "A company's users read their company's entries. An operator reads a company's with `company_id`, and without it the platform's own: entries of no company (`operator.created`, `price.set`, `prices.imported`).",
  })
  @ApiQuery({
    name: 'company_id',
    required: false,
    description: "Operators: the company whose entries to read; left out, the platform's own. A company's own users may leave it out or give their own.",
    schema: { type: 'string', format: 'uuid' },
  })
  @ApiQuery({
    name: 'action',
    required: false,
    description: 'Only entries of this action, e.g. `key.created`',
    schema: { type: 'string', enum: [...AUDIT_ACTIONS] },
  })
  @ApiQuery({ name: 'cursor', required: false, description: 'The `next_cursor` of the page before', schema: { type: 'string' } })
  @ApiOkResponse({ type: AuditPageDto, description: 'A page of entries' })
  @ApiBadRequest('A bad cursor, an action the log does not record, or an unknown parameter, named in `error`', ErrorBodyDto)
  @ApiNotFound("An operator's company_id that names no company, or another company's")
  async list(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<AuditPageDto> {
    const { companyId: requested, reader } = companyIdQuery(query, ['cursor', 'action']);
    const cursor = reader['cursor'] ?? undefined;
    if (cursor !== undefined && !CURSOR.test(cursor)) throw new ApiError(400, 'cursor must be the next_cursor of an earlier page');
    const action = parseAction(reader['action'] ?? undefined);
    const platform = session.user.role === 'operator' && requested === undefined;
    const companyId = platform ? null : await this.scopes.companyOf(session, requested);
    const page = await this.audit.list(companyId, { before: cursor, limit: AUDIT_PAGE, action });
    return {
      items: page.items.map((entry) => ({ id: entry.id, at: entry.at.toISOString(), actor: entry.actor, action: entry.action, details: entry.details })),
      next_cursor: page.nextCursor,
    };
  }
}

function parseAction(text: string | undefined): AuditAction | undefined {
  if (text === undefined) return undefined;
  if (!isAuditAction(text)) throw new ApiError(400, `action must be one of ${AUDIT_ACTIONS.join(', ')}`);
  return text;
}
