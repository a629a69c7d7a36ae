import { isPriceRoute } from '@mp/billing-domain';
import { checkSender, DEFAULT_SMS_SENDER, MAX_SMS_CHARACTERS } from '@mp/messaging-domain';
import type { SmsRoute } from '@mp/messaging';
import { fail, firstGiven, ok, type Result } from '@mp/http-kit';
import { checkWebhookUrl, type AddressPolicy } from '@mp/webhooks';
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

/** What a request is checked against besides its own fields. */
export interface RequestContext {
  now?: Date;
  /** Which non-public addresses a `webhook_url` may name; none unless the operator allows them. */
  webhookPolicy?: AddressPolicy;
}

const STRICT_WEBHOOK_POLICY: AddressPolicy = { allowLoopback: false, allowPrivate: false };

/** The operator's settings (WEBHOOK_ALLOW_LOOPBACK / _PRIVATE) as the policy a `webhook_url` meets. */
export function webhookPolicyOf(config: { WEBHOOK_ALLOW_LOOPBACK: boolean; WEBHOOK_ALLOW_PRIVATE: boolean }): AddressPolicy {
  return { allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE };
}

/** Applies the aliases and defaults of the interface and checks each field, naming the bad one. */
export function resolveSmsRequest(dto: SmsSendDto, { now = new Date(), webhookPolicy = STRICT_WEBHOOK_POLICY }: RequestContext = {}): Result<SmsRequest> {
  const recipients = firstGiven(dto.to, dto.phone, dto.recipient, dto.recipients);
  if (recipients === undefined) return fail('to is required');
  const message = firstGiven(dto.message, dto.text, dto.body);
  if (message === undefined) return fail('message is required');
  if ([...message].length > MAX_SMS_CHARACTERS) return fail(`message must be at most ${MAX_SMS_CHARACTERS} characters`);
  const sender = checkSender(firstGiven(dto.from, dto.sender, dto.sender_id) ?? DEFAULT_SMS_SENDER);
  if (!sender.ok) return fail(sender.error);
  const route = dto.route ?? 'auto';
  if (!isPriceRoute(route) || !(SMS_ROUTES as readonly string[]).includes(route)) {
    return fail(`route must be one of ${SMS_ROUTES.join(', ')}`);
  }
  const scheduled = resolveSchedule(dto.scheduled_time, now);
  if (!scheduled.ok) return scheduled;
  const webhook = resolveWebhookUrl(dto.webhook_url, webhookPolicy);
  if (!webhook.ok) return webhook;
  return ok({
    recipients,
    message,
    sender: sender.sender,
    route: route as SmsRoute,
    scheduledAt: scheduled.value,
    reference: dto.reference ?? null,
    webhookUrl: webhook.value,
  });
}

export function resolveSchedule(text: string | undefined, now: Date): Result<Date | null> {
  if (text === undefined || text.trim() === '') return ok(null);
  const isoWithZone = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
  const at = new Date(text);
  if (!isoWithZone.test(text.trim()) || Number.isNaN(at.getTime())) {
    return fail('scheduled_time must be an ISO 8601 timestamp with a time zone, e.g. 2026-12-01T09:00:00Z');
  }
  if (at.getTime() <= now.getTime()) return fail('scheduled_time must be in the future');
  if (at.getTime() - now.getTime() > MAX_SCHEDULE_MS) return fail('scheduled_time must be at most 30 days ahead');
  return ok(at);
}

export function resolveWebhookUrl(text: string | undefined, policy: AddressPolicy = STRICT_WEBHOOK_POLICY): Result<string | null> {
  if (text === undefined || text.trim() === '') return ok(null);
  try {
    // A host that is a literal address (or localhost) is checked now; a name, when each delivery resolves it.
    return ok(checkWebhookUrl(text.trim(), policy).toString());
  } catch (error) {
    const reason = error instanceof Error && error.name === 'ForbiddenAddressError' ? error.message : 'not a valid URL';
    return fail(`webhook_url must be an http(s) URL of a public address without credentials: ${reason}`);
  }
}
