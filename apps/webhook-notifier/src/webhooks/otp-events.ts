import type { OtpForWebhook } from '@mp/persistence';
import type { OtpEventType, OtpFailure } from '@mp/queue-contracts';

/** The body of an OTP webhook: what happened, to which verification; never the code. */
export interface OtpEventPayload {
  type: OtpEventType;
  timestamp: string;
  data: {
    verification_id: string;
    appid: string;
    recipient: string;
    channel: string;
    status: string;
    expires_at: string;
    verified_at: string | null;
    /** `otp.failed` only: why (see OTP_FAILURE_REASONS) and the carrier's error code, if any. */
    failure_reason?: string | null;
    error_code?: string | null;
  };
}

/**
 * The payload of an OTP event. `otp.failed` tells the failure as it happened (from the event),
 * even if the OTP was resent before its webhook was made.
 */
export function buildOtpEvent(event: { type: OtpEventType; occurredAt: string; failure?: OtpFailure }, otp: OtpForWebhook): OtpEventPayload {
  const failed = event.type === 'otp.failed';
  return {
    type: event.type,
    timestamp: new Date(event.occurredAt).toISOString(),
    data: {
      verification_id: otp.id,
      appid: otp.appid,
      recipient: otp.recipient,
      channel: otp.channel,
      status: failed ? 'failed' : otp.status,
      expires_at: new Date(otp.expiresAt).toISOString(),
      verified_at: otp.verifiedAt ? new Date(otp.verifiedAt).toISOString() : null,
      ...(failed ? { failure_reason: event.failure?.reason ?? null, error_code: event.failure?.errorCode ?? null } : {}),
    },
  };
}
