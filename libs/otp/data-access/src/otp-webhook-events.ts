import type { OtpEventType, OtpFailure } from '@mp/queue-contracts';
import type { DataSource } from 'typeorm';

export interface OtpForWebhook {
  id: string;
  companyId: string;
  /** The message that carries its current code: deliveries are unique per (message, event). */
  messageId: string;
  appid: string;
  webhookUrl: string | null;
  recipient: string;
  channel: string;
  status: string;
  expiresAt: Date;
  verifiedAt: Date | null;
}

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

/** An OTP event as the `otp.event` job carries it. */
export interface OtpEvent {
  otpId: string;
  type: OtpEventType;
  occurredAt: string;
  /** The message the event is about (older jobs have none: the OTP's current one). */
  messageId?: string;
  failure?: OtpFailure;
}

/**
 * An OTP's webhook event, made here for the webhook notifier to deliver: the company, the
 * message it is about, its application's address (null: none, so nothing to send), the event and
 * its body.
 */
export interface OtpWebhookEvent {
  companyId: string;
  messageId: string;
  url: string | null;
  eventType: OtpEventType;
  payload: OtpEventPayload;
}

/** The webhook events of OTPs, made from the OTP as it is when the event is handled (never its code). */
export class OtpWebhookEvents {
  constructor(private readonly db: DataSource) {}

  /** The event's webhook; null when the OTP does not exist. */
  async event(event: OtpEvent): Promise<OtpWebhookEvent | null> {
    const otp = await this.findOtp(event.otpId);
    if (!otp) return null;
    return {
      companyId: otp.companyId,
      // The message the event is about: a resent OTP's events of each of its messages stay apart.
      messageId: event.messageId ?? otp.messageId,
      url: otp.webhookUrl,
      eventType: event.type,
      payload: buildOtpEvent(event, otp),
    };
  }

  /** An OTP as its webhook events describe it, with its application's webhook address (never its code). */
  async findOtp(otpId: string): Promise<OtpForWebhook | null> {
    const rows: Record<string, unknown>[] = await this.db.query(
      `SELECT o.id, o.company_id, o.message_id, a.appid, a.settings->>'webhook_url' AS webhook_url, o.recipient, o.channel, o.status,
         o.expires_at, o.verified_at
       FROM otps o JOIN applications a ON a.id = o.application_id WHERE o.id = $1`,
      [otpId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: String(row['id']),
      companyId: String(row['company_id']),
      messageId: String(row['message_id']),
      appid: String(row['appid']),
      webhookUrl: row['webhook_url'] === null || row['webhook_url'] === undefined ? null : String(row['webhook_url']),
      recipient: String(row['recipient']),
      channel: String(row['channel']),
      status: String(row['status']),
      expiresAt: row['expires_at'] as Date,
      verifiedAt: (row['verified_at'] as Date | null) ?? null,
    };
  }
}
