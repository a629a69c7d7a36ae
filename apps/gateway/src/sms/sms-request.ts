import { isPriceRoute } from '@mp/billing-domain';
import { checkSender, DEFAULT_SMS_SENDER, MAX_SMS_CHARACTERS } from '@mp/messaging-domain';
import type { SmsRoute } from '@mp/messaging';
import type { SmsSendDto } from './sms-send.dto';

export const MAX_RECIPIENTS_PER_SEND = 1000;
const MAX_SCHEDULE_MS = 30 * 24 * 3600 * 1000;
const SMS_ROUTES: readonly SmsRoute[] = ['auto', 'standard', 'premium'];

export interface SmsRequest {
  recipients: string;
  message: string;
  sender: string;
  route: SmsRoute;
  scheduledAt: Date | null;
  reference: string | null;
  webhookUrl: string | null;
}

export type Resolution = { ok: true; request: SmsRequest } | { ok: false; error: string };

/** Applies the aliases and defaults of the interface and checks each field, naming the bad one. */
export function resolveSmsRequest(dto: SmsSendDto, now: Date = new Date()): Resolution {
  const recipients = firstGiven(dto.to, dto.phone, dto.recipient, dto.recipients);
  if (recipients === undefined) return { ok: false, error: 'to is required' };
  const message = firstGiven(dto.message, dto.text, dto.body);
  if (message === undefined) return { ok: false, error: 'message is required' };
  if ([...message].length > MAX_SMS_CHARACTERS) return { ok: false, error: `message must be at most ${MAX_SMS_CHARACTERS} characters` };
  const sender = checkSender(firstGiven(dto.from, dto.sender, dto.sender_id) ?? DEFAULT_SMS_SENDER);
  if (!sender.ok) return { ok: false, error: sender.error };
  const route = dto.route ?? 'auto';
  if (!isPriceRoute(route) || !(SMS_ROUTES as readonly string[]).includes(route)) {
    return { ok: false, error: `route must be one of ${SMS_ROUTES.join(', ')}` };
  }
  const scheduled = resolveSchedule(dto.scheduled_time, now);
  if (!scheduled.ok) return scheduled;
  const webhook = resolveWebhookUrl(dto.webhook_url);
  if (!webhook.ok) return webhook;
  return {
    ok: true,
    request: {
      recipients,
      message,
      sender: sender.sender,
      route: route as SmsRoute,
      scheduledAt: scheduled.at,
      reference: dto.reference ?? null,
      webhookUrl: webhook.url,
    },
  };
}

function firstGiven(...values: (string | undefined)[]): string | undefined {
  return values.find((value) => value !== undefined && value.trim() !== '');
}

export function resolveSchedule(text: string | undefined, now: Date): { ok: true; at: Date | null } | { ok: false; error: string } {
  if (text === undefined || text.trim() === '') return { ok: true, at: null };
  const isoWithZone = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
  const at = new Date(text);
  if (!isoWithZone.test(text.trim()) || Number.isNaN(at.getTime())) {
    return { ok: false, error: 'scheduled_time must be an ISO 8601 timestamp with a time zone, e.g. 2026-12-01T09:00:00Z' };
  }
  if (at.getTime() <= now.getTime()) return { ok: false, error: 'scheduled_time must be in the future' };
  if (at.getTime() - now.getTime() > MAX_SCHEDULE_MS) return { ok: false, error: 'scheduled_time must be at most 30 days ahead' };
  return { ok: true, at };
}

export function resolveWebhookUrl(text: string | undefined): { ok: true; url: string | null } | { ok: false; error: string } {
  if (text === undefined || text.trim() === '') return { ok: true, url: null };
  try {
    const url = new URL(text);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password) return { ok: true, url: url.toString() };
  } catch {
    // falls through to the error below
  }
  return { ok: false, error: 'webhook_url must be an http(s) URL without credentials' };
}
