import { needsTouch, sessionState, type SessionLimits } from '@mp/accounts-domain';
import { csrfTokenFor, generateOpaqueToken, isOpaqueTokenShaped, tokenHash } from '@mp/auth';
import { SessionRepository } from './session.repository';
import type { UserRecord } from './user.repository';

/** A session a request presented that is still alive. */
export interface LiveSession {
  id: string;
  user: UserRecord;
  csrfToken: string;
}

/** A session just started: `token` goes into the cookie and is stored only as its hash. */
export interface StartedSession {
  token: string;
  csrfToken: string;
}

/**
 * Dashboard sessions: started at sign-in, found by their token's hash, ended by sign-out, by
 * "sign out everywhere", by the removal of their user, or by their idle and absolute timeouts
 * (sessionState), at which they are deleted when next presented.
 */
export class DashboardSessions {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly limits: SessionLimits,
  ) {}

  async start(userId: string, now = new Date()): Promise<StartedSession> {
    // A sign-in is the time to forget this user's sessions that timed out unseen.
    await this.sessions.deleteTimedOut(userId, {
      signedInBy: new Date(now.getTime() - this.limits.maxMs),
      idleSince: new Date(now.getTime() - this.limits.idleMs),
    });
    const token = generateOpaqueToken();
    await this.sessions.insert({ userId, tokenHash: tokenHash(token), at: now });
    return { token, csrfToken: csrfTokenFor(token) };
  }

  /** The live session of this token; null when there is none (unknown, ended, timed out: then it is deleted). */
  async resolve(token: string, now = new Date()): Promise<LiveSession | null> {
    if (!isOpaqueTokenShaped(token)) return null;
    const session = await this.sessions.findByTokenHash(tokenHash(token));
    if (!session) return null;
    if (sessionState(session, now, this.limits) !== 'active') {
      await this.sessions.delete(session.id);
      return null;
    }
    if (needsTouch(session, now, this.limits)) await this.sessions.touch(session.id, now);
    return { id: session.id, user: session.user, csrfToken: csrfTokenFor(token) };
  }

  async end(sessionId: string): Promise<void> {
    await this.sessions.delete(sessionId);
  }

  /** Ends every session of the user; how many ended. */
  async endAll(userId: string): Promise<number> {
    return this.sessions.deleteForUser(userId);
  }
}
