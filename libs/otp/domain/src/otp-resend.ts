import { retryAfterSeconds } from './otp-block';

/** A resend at least 30 s after the previous send, and at most 5 resends of one OTP. */
export const OTP_RESEND = { minIntervalMs: 30_000, maxResends: 5 } as const;

export type ResendCheck = { ok: true } | { ok: false; reason: 'too-soon'; retryAfterSeconds: number } | { ok: false; reason: 'too-many' };

export interface ResendRequest {
  /** The first send of the OTP, or its latest resend. */
  lastSentAt: Date;
  /** The resends done so far, not counting the first send. */
  resends: number;
  now: Date;
}

/**
 * Whether the OTP may be sent again. Too many is checked first: it is final, and a client told
 * to retry after a few seconds would only be refused again.
 */
export function checkResend({ lastSentAt, resends, now }: ResendRequest): ResendCheck {
  if (resends >= OTP_RESEND.maxResends) return { ok: false, reason: 'too-many' };
  // A send stamped after `now` (clocks a little apart) counts as sent now: the wait is never
  // longer than the interval.
  const sentAt = Math.min(lastSentAt.getTime(), now.getTime());
  const allowedAt = new Date(sentAt + OTP_RESEND.minIntervalMs);
  if (allowedAt.getTime() > now.getTime()) {
    return { ok: false, reason: 'too-soon', retryAfterSeconds: retryAfterSeconds(allowedAt, now) };
  }
  return { ok: true };
}
