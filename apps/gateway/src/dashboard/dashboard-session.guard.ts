import {
  applyDecorators,
  CanActivate,
  Controller,
  ExecutionContext,
  HttpStatus,
  Injectable,
  SetMetadata,
  UseGuards,
  createParamDecorator,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiTags } from '@nestjs/swagger';
import { DashboardSessions, type LiveSession } from '@mp/accounts';
import { mayDo, type Permission } from '@mp/accounts-domain';
import { csrfTokenMatches } from '@mp/auth';
import { ApiError, Public } from '@mp/http-kit';
import type {} from '@fastify/cookie'; // its types: request.server.parseCookie
import type { FastifyRequest } from 'fastify';
import { ApiRoleRefused } from './dashboard-openapi';
import { SESSION_COOKIE } from './session-cookie';

const NO_SESSION = Symbol('dashboard-no-session');
const OPTIONAL_SESSION = Symbol('dashboard-optional-session');
const PERMISSION = Symbol('dashboard-permission');
const WHILE_SUSPENDED = Symbol('dashboard-while-suspended');
/** Methods that change something: each needs the session's CSRF token. */
const STATE_CHANGING: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const CSRF_HEADER = 'x-csrf-token';

/** A dashboard route open without a session (signing in, accepting an invitation): no CSRF token either. */
export const NoSession = () => SetMetadata(NO_SESSION, true);

/** A read that answers with or without a session (who is signed in): the session, if live, is read; none is no refusal. */
export const OptionalSession = () => SetMetadata(OPTIONAL_SESSION, true);

/** A change a user of a suspended company may still make (signing out). */
export const WhileSuspended = () => SetMetadata(WHILE_SUSPENDED, true);

/** What the signed-in user's role must allow (the role rules of @mp/accounts-domain). */
export const Needs = (permission: Permission) => applyDecorators(SetMetadata(PERMISSION, permission), ApiRoleRefused());

export type DashboardRequest = FastifyRequest & { dashboard?: LiveSession };

export const notSignedIn = () => new ApiError(HttpStatus.UNAUTHORIZED, 'Not signed in');
export const csrfRefused = () => new ApiError(HttpStatus.FORBIDDEN, 'CSRF token missing or wrong');
export const roleRefused = () => new ApiError(HttpStatus.FORBIDDEN, 'Your role does not allow this');
export const companySuspended = () => new ApiError(HttpStatus.FORBIDDEN, 'Company suspended: contact the platform operator');

/**
 * The dashboard API's own authentication, in place of the API key guard (its routes are
 * @Public() to that one): the `mp_session` cookie names a live session (401 otherwise), a
 * state change carries that session's CSRF token in `X-CSRF-Token` (403 otherwise), and the
 * user's role allows what the route @Needs (403 otherwise), and a user of a suspended company
 * changes nothing but signing out (403). The one place roles are enforced.
 */
@Injectable()
export class DashboardSessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: DashboardSessions,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean | undefined>(NO_SESSION, targets)) return true;
    const request = context.switchToHttp().getRequest<DashboardRequest>();
    const token = sessionToken(request);
    const session = token === undefined ? null : await this.sessions.resolve(token);
    if ((!session || token === undefined) && this.reflector.getAllAndOverride<boolean | undefined>(OPTIONAL_SESSION, targets)) return true;
    if (!session || token === undefined) throw notSignedIn();
    if (STATE_CHANGING.has(request.method) && !csrfTokenMatches(token, headerValue(request.headers[CSRF_HEADER]))) throw csrfRefused();
    const permission = this.reflector.getAllAndOverride<Permission | undefined>(PERMISSION, targets);
    if (permission !== undefined && !mayDo(session.user.role, permission)) throw roleRefused();
    if (session.user.companySuspended && STATE_CHANGING.has(request.method) && !this.reflector.getAllAndOverride<boolean | undefined>(WHILE_SUSPENDED, targets))
      throw companySuspended();
    request.dashboard = session;
    return true;
  }
}

/** The session cookie's value, parsed only here (the public API never reads cookies). */
function sessionToken(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined || !header.includes(SESSION_COOKIE)) return undefined;
  return request.server.parseCookie(header)[SESSION_COOKIE];
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A controller of the dashboard API: under /dashboard/api, in its own OpenAPI document, behind DashboardSessionGuard. */
export const DashboardController = (path: string) =>
  applyDecorators(Controller(path === '' ? 'dashboard/api' : `dashboard/api/${path}`), Public(), UseGuards(DashboardSessionGuard), ApiTags('dashboard'));

/** The live session on an @OptionalSession() route, or null. */
export const MaybeSession = createParamDecorator((_: unknown, context: ExecutionContext): LiveSession | null => {
  return context.switchToHttp().getRequest<DashboardRequest>().dashboard ?? null;
});

/** The signed-in user's live session, on a route the guard let through with one. */
export const CurrentSession = createParamDecorator((_: unknown, context: ExecutionContext): LiveSession => {
  const session = context.switchToHttp().getRequest<DashboardRequest>().dashboard;
  if (!session) throw new Error('CurrentSession used on a dashboard route open without a session');
  return session;
});
