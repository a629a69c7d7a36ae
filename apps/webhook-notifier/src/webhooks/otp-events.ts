import type { OtpForWebhook } from '@mp/persistence';
import type { OtpEventType } from '@mp/queue-contracts';

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
  };
}

export function buildOtpEvent(event: { type: OtpEventType; occurredAt: string }, otp: OtpForWebhook): OtpEventPayload {
  return {
    type: event.type,
    timestamp: new Date(event.occurredAt).toISOString(),
    data: {
      verification_id: otp.id,
      appid: otp.appid,
      recipient: otp.recipient,
      channel: otp.channel,
      status: otp.status,
      expires_at: new Date(otp.expiresAt).toISOString(),
      verified_at: otp.verifiedAt ? new Date(otp.verifiedAt).toISOString() : null,
    },
  };
}
