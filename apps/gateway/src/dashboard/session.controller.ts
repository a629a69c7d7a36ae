import { Body, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { DashboardSessions, PeopleService, type LiveSession } from '@mp/accounts';
import { ApiError } from '@mp/http-kit';
import type { FastifyReply } from 'fastify';
import { clientAddress } from '../auth/client-address';
import { ApiBadRequest, ApiTooManyRequests, ApiUnavailable } from '../openapi/error-responses';
import { ApiWrongPassword } from './dashboard-openapi';
import { sessionAnswer } from './dashboard-answers';
import { SessionDto, SessionStateDto, SignedOutDto, SignedOutEverywhereDto, SignInRequestDto } from './dashboard.dto';
import { CurrentSession, DashboardController, MaybeSession, NoSession, OptionalSession, WhileSuspended } from './dashboard-session.guard';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie, type CookiePolicy } from './session-cookie';
import { COOKIE_POLICY } from './dashboard.tokens';
import { SignInThrottle } from './sign-in-throttle.service';

type AddressedRequest = { ip?: string; headers: { 'x-forwarded-for'?: string | string[] } };

@DashboardController('')
export class SessionController {
  constructor(
    private readonly people: PeopleService,
    private readonly sessions: DashboardSessions,
    private readonly throttle: SignInThrottle,
    @Inject(COOKIE_POLICY) private readonly cookies: CookiePolicy,
  ) {}

  @Post('session')
  @NoSession()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in',
    description:
      'Sets the `mp_session` cookie (HttpOnly, SameSite=Lax, Path=/dashboard, Secure outside development). 5 failed sign-ins for one account, or 20 from one address, within 15 minutes lock it until the oldest is 15 minutes old.',
  })
  @ApiOkResponse({ type: SessionDto, description: 'Signed in; the `csrf_token` goes with every change' })
  @ApiBadRequest('A missing or invalid field, named in `error`')
  @ApiWrongPassword()
  @ApiTooManyRequests('Too many failed sign-ins for this account or from this address: `{ error, retry_after }` (the error says the minutes) and `Retry-After`')
  @ApiUnavailable('The database, or the Redis the sign-in throttle counts in, is unreachable')
  async signIn(@Body() body: SignInRequestDto, @Req() request: AddressedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionDto> {
    const address = clientAddress(request.ip, request.headers['x-forwarded-for']);
    await this.throttle.refuseIfLocked(body.email, address);
    const user = await this.people.checkSignIn(body.email, body.password);
    if (!user) {
      await this.throttle.failed(body.email, address);
      throw new ApiError(401, 'Email or password is wrong');
    }
    const started = await this.sessions.start(user.id);
    setSessionCookie(reply, started.token, this.cookies);
    return sessionAnswer({ user, csrfToken: started.csrfToken });
  }

  @Get('session')
  @OptionalSession()
  @ApiOperation({
    summary: 'Who is signed in: the user and the session’s CSRF token',
    description:
      'Answers 200 with or without a live session, so that a page asking whether anyone is signed in meets no error: `{ "user": null, "csrf_token": null }` without one (no cookie, signed out, removed, or past a timeout), and a dead session’s cookie is cleared.',
  })
  @ApiOkResponse({ type: SessionStateDto, description: 'The session, or nulls without one' })
  session(
    @MaybeSession() session: LiveSession | null,
    @Req() request: { headers: { cookie?: string } },
    @Res({ passthrough: true }) reply: FastifyReply,
  ): SessionStateDto {
    if (session) return sessionAnswer(session);
    if (request.headers.cookie?.includes(SESSION_COOKIE)) clearSessionCookie(reply, this.cookies);
    return { user: null, csrf_token: null };
  }

  @Delete('session')
  @WhileSuspended()
  @ApiOperation({ summary: 'Sign out: this session ends and its cookie is cleared' })
  @ApiOkResponse({ type: SignedOutDto, description: 'Signed out' })
  async signOut(@CurrentSession() session: LiveSession, @Res({ passthrough: true }) reply: FastifyReply): Promise<SignedOutDto> {
    await this.sessions.end(session.id);
    clearSessionCookie(reply, this.cookies);
    return { signed_out: true };
  }

  @Delete('sessions')
  @WhileSuspended()
  @ApiOperation({ summary: 'Sign out everywhere: every session of this user ends, this one included' })
  @ApiOkResponse({ type: SignedOutEverywhereDto, description: 'Signed out everywhere' })
  async signOutEverywhere(@CurrentSession() session: LiveSession, @Res({ passthrough: true }) reply: FastifyReply): Promise<SignedOutEverywhereDto> {
    const ended = await this.sessions.endAll(session.user.id);
    clearSessionCookie(reply, this.cookies);
    return { signed_out: true, sessions: ended };
  }
}
