export const OTP_STATES = ['pending', 'verified', 'expired', 'failed', 'cancelled'] as const;
export type OtpState = (typeof OTP_STATES)[number];

/** What the OTP log records about a verification (`failed`: its message did not reach the handset). */
export const OTP_LOG_EVENTS = ['sent', 'delivered', 'verified', 'failed_attempt', 'expired', 'resent', 'blocked', 'failed'] as const;
export type OtpLogEvent = (typeof OTP_LOG_EVENTS)[number];

/** How a verify attempt ended; only `invalid_code` counts toward a block. */
export const OTP_ATTEMPT_OUTCOMES = ['success', 'invalid_code', 'expired', 'blocked', 'already_verified'] as const;
export type OtpAttemptOutcome = (typeof OTP_ATTEMPT_OUTCOMES)[number];

/** How long a code is valid, in whole minutes. */
export const OTP_VALIDITY = { minMinutes: 1, maxMinutes: 60, defaultMinutes: 10 } as const;

/** When a code sent at `sentAt` and valid for `minutes` (a whole number from 1 to 60) expires. */
export function expiresAt(sentAt: Date, minutes: number): Date {
  if (!Number.isInteger(minutes) || minutes < OTP_VALIDITY.minMinutes || minutes > OTP_VALIDITY.maxMinutes) {
    throw new RangeError(`an OTP is valid for ${OTP_VALIDITY.minMinutes} to ${OTP_VALIDITY.maxMinutes} whole minutes, not ${minutes}`);
  }
  return new Date(sentAt.getTime() + minutes * 60_000);
}
