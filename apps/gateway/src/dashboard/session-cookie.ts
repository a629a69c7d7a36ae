import { sessionCookieMaxAgeSeconds, type SessionLimits } from '@mp/accounts-domain';
import type {} from '@fastify/cookie'; // its types: reply.setCookie, reply.clearCookie
import type { FastifyReply } from 'fastify';

export const SESSION_COOKIE = 'mp_session';

/** Where the browser sends the cookie: the console and its API, nothing else of the gateway. */
const COOKIE_PATH = '/dashboard';

export interface CookiePolicy {
  /** `Secure` everywhere but on a developer's or a test's plain-HTTP loopback. */
  secure: boolean;
  limits: SessionLimits;
}

/** HttpOnly (no script reads it), SameSite=Lax (no cross-site POST carries it), for the session's absolute lifetime. */
export function setSessionCookie(reply: FastifyReply, token: string, policy: CookiePolicy): void {
  void reply.setCookie(SESSION_COOKIE, token, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: policy.secure,
    maxAge: sessionCookieMaxAgeSeconds(policy.limits),
  });
}

export function clearSessionCookie(reply: FastifyReply, policy: CookiePolicy): void {
  void reply.clearCookie(SESSION_COOKIE, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: policy.secure });
}
