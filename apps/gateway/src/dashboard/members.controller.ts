import { Body, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { DashboardSessions, PeopleService, type LiveSession } from '@mp/accounts';
import { Inject } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiBadRequest, ApiConflict, ApiNotFound } from '../openapi/error-responses';
import { companyIdQuery, refusalsAnswered, sessionAnswer } from './dashboard-answers';
import {
  AcceptInvitationRequestDto,
  CancelledInvitationDto,
  CreatedInvitationDto,
  InviteRequestDto,
  MembersDto,
  RemovedMemberDto,
  SessionDto,
} from './dashboard.dto';
import { CurrentSession, DashboardController, Needs, NoSession } from './dashboard-session.guard';
import { CompanyScopes } from './company-scope';
import { ApiGone, COMPANY_ID_QUERY } from './dashboard-openapi';
import { setSessionCookie, type CookiePolicy } from './session-cookie';
import { COOKIE_POLICY } from './dashboard.tokens';

/** The people of a company: its members, and the one-time links that invite more. */
@DashboardController('')
export class MembersController {
  constructor(
    private readonly people: PeopleService,
    private readonly sessions: DashboardSessions,
    private readonly scopes: CompanyScopes,
    @Inject(COOKIE_POLICY) private readonly cookies: CookiePolicy,
  ) {}

  @Get('members')
  @Needs('members.read')
  @ApiOperation({ summary: "The company's members, and its invitations not yet accepted" })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: MembersDto, description: 'Members and pending invitations' })
  async list(@CurrentSession() session: LiveSession, @Query() query: unknown): Promise<MembersDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    const { members, invitations } = await this.people.listMembers(companyId);
    return {
      items: members.map((member) => ({ id: member.id, email: member.email, role: member.role, created_at: member.createdAt.toISOString() })),
      invitations: invitations.map((invitation) => ({
        id: invitation.id,
        email: invitation.email,
        role: invitation.role,
        expires_at: invitation.expiresAt.toISOString(),
      })),
    };
  }

  @Post('invitations')
  @HttpCode(200)
  @Needs('members.write')
  @ApiOperation({ summary: 'Invite someone: a one-time link, valid 7 days, shown only in this answer (owners only)' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: CreatedInvitationDto, description: 'The invitation and its link' })
  @ApiBadRequest('A missing or invalid field, named in `error`')
  @ApiConflict('A user with this email already exists')
  async invite(@CurrentSession() session: LiveSession, @Body() body: InviteRequestDto, @Query() query: unknown): Promise<CreatedInvitationDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    const invitation = await refusalsAnswered(() => this.people.invite(companyId, body, session.user.id));
    return {
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      expires_at: invitation.expiresAt.toISOString(),
      link: `/dashboard/invite/${invitation.token}`,
    };
  }

  @Delete('invitations/:id')
  @Needs('members.write')
  @ApiOperation({ summary: 'Cancel an invitation not yet accepted: its link answers 404 from then on (owners only)' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: CancelledInvitationDto, description: 'Cancelled' })
  @ApiNotFound('No pending invitation of this company has this id (accepted, cancelled, or never made): `{ "error": "Invitation not found" }`')
  async cancel(@CurrentSession() session: LiveSession, @Param('id') id: string, @Query() query: unknown): Promise<CancelledInvitationDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    await refusalsAnswered(() => this.people.cancelInvitation(companyId, id, session.user.id));
    return { id, cancelled: true };
  }

  @Post('invitations/:token/accept')
  @NoSession()
  @HttpCode(200)
  @ApiOperation({ summary: 'Accept an invitation: makes the account with this password and signs it in (sets the `mp_session` cookie)' })
  @ApiOkResponse({ type: SessionDto, description: 'The new account, signed in' })
  @ApiBadRequest('A missing or invalid field, or a password of fewer than 10 or more than 256 characters')
  @ApiNotFound('No invitation has this link: `{ "error": "Invitation not found" }`')
  @ApiGone('The invitation was used already or has expired: `{ "error": "Invitation already used" }` / `"Invitation expired"`')
  @ApiConflict('A user with the invited email exists already')
  async accept(@Param('token') token: string, @Body() body: AcceptInvitationRequestDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionDto> {
    const user = await refusalsAnswered(() => this.people.acceptInvitation(token, body.password));
    const started = await this.sessions.start(user.id);
    setSessionCookie(reply, started.token, this.cookies);
    return sessionAnswer({ user, csrfToken: started.csrfToken });
  }

  @Delete('members/:id')
  @Needs('members.write')
  @ApiOperation({ summary: 'Remove a member: their sessions end at once (owners only; never the last owner)' })
  @ApiQuery(COMPANY_ID_QUERY)
  @ApiOkResponse({ type: RemovedMemberDto, description: 'Removed' })
  @ApiNotFound('No member of this company has this id: `{ "error": "Member not found" }`')
  @ApiConflict('The member is the company’s last owner')
  async remove(@CurrentSession() session: LiveSession, @Param('id') id: string, @Query() query: unknown): Promise<RemovedMemberDto> {
    const companyId = await this.scopes.companyOf(session, companyIdQuery(query).companyId);
    await refusalsAnswered(() => this.people.removeMember(companyId, id, session.user.id));
    return { id, removed: true };
  }
}
