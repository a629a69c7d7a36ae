/** How long a dashboard session lives: idle since its last request, and at most from sign-in. */
export interface SessionLimits {
  idleMs: number;
  maxMs: number;
}

export interface SessionTimes {
  createdAt: Date;
  lastSeenAt: Date;
}

/** `active`, or why the session ended: `idle` (no request for too long) or `expired` (too long since sign-in). */
export type SessionState = 'active' | 'idle' | 'expired';

export function sessionState(session: SessionTimes, now: Date, limits: SessionLimits): SessionState {
  if (now.getTime() - session.createdAt.getTime() >= limits.maxMs) return 'expired';
  if (now.getTime() - session.lastSeenAt.getTime() >= limits.idleMs) return 'idle';
  return 'active';
}

/** The longest a session's last request time may lag: a minute, or a twentieth of the idle timeout when that is shorter. */
export function touchIntervalMs(limits: SessionLimits): number {
  return Math.min(60_000, limits.idleMs / 20);
}

/**
 * Whether a request should write the session's last request time: not on every request (a write
 * each), only once the stored time lags by touchIntervalMs; the idle timeout is then early by at
 * most that much.
 */
export function needsTouch(session: SessionTimes, now: Date, limits: SessionLimits): boolean {
  return now.getTime() - session.lastSeenAt.getTime() >= touchIntervalMs(limits);
}

/** Seconds a cookie for a session started now should live: its absolute timeout (at least 1). */
export function sessionCookieMaxAgeSeconds(limits: SessionLimits): number {
  return Math.max(1, Math.floor(limits.maxMs / 1000));
}
