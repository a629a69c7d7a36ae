/**
 * Why an OTP is `failed`: its recipient used up the wrong codes (`too_many_attempts`), or the
 * message carrying its code did not reach the handset — the carrier could not deliver it
 * (`undelivered`), rejected it (`rejected`), gave up on it (`expired`), or it never reached a
 * carrier at all (`not_sent`).
 */
export const OTP_FAILURE_REASONS = ['too_many_attempts', 'undelivered', 'rejected', 'expired', 'not_sent'] as const;
export type OtpFailureReason = (typeof OTP_FAILURE_REASONS)[number];

/** The final states of a message that fail the OTP it carries (see docs/architecture.md). */
const FAILED_BY_MESSAGE: Readonly<Record<string, OtpFailureReason>> = {
  undelivered: 'undelivered',
  rejected: 'rejected',
  expired: 'expired',
  failed: 'not_sent',
};

/** Why an OTP fails when its message ends in `messageStatus`; null for a state that does not fail it. */
export function otpFailureOf(messageStatus: string): OtpFailureReason | null {
  return Object.hasOwn(FAILED_BY_MESSAGE, messageStatus) ? FAILED_BY_MESSAGE[messageStatus] : null;
}

/**
 * Whether a failed OTP may be resent. One whose code never reached the handset may: the user is
 * still there, waiting for a code (as with Twilio Verify, where a failed SMS is simply sent again
 * under the same verification). One that failed on wrong codes may not: its recipient is blocked,
 * and a new verification must be started once the block ends.
 */
export function resendableAfterFailure(reason: OtpFailureReason | null): boolean {
  return reason !== null && reason !== 'too_many_attempts';
}
