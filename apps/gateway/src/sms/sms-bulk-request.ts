import { checkSender, recipientEntries, splitSms, SmsTextError, type CampaignInput, type CampaignMessageInput } from '@mp/messaging-domain';
import { resolveSchedule, resolveWebhookUrl } from './sms-request';

export const MAX_BULK_ENTRIES = 1_000_000;

export interface SmsBulkRequest {
  input: CampaignInput;
  sender: string;
  batchSize: number;
  delayBetweenBatchesS: number;
  priority: 'normal' | 'high';
  reference: string | null;
  scheduledAt: Date | null;
  webhookUrl: string | null;
}

type Result<T> = { ok: true; value: T } | { ok: false; error: string };
const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });

/**
 * POST /sms/send-bulk, read straight from the parsed JSON (a million entries through
 * class-validator would take seconds): mode 1 (`recipients` + `message`) or mode 2 (`messages`),
 * never both, and each option checked, naming the bad field.
 */
export function resolveBulkRequest(body: unknown, now: Date = new Date()): Result<SmsBulkRequest> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail('request body must be a JSON object');
  const b = body as Record<string, unknown>;
  const input = resolveInput(b);
  if (!input.ok) return input;
  const sender = typeof b['from'] === 'string' ? checkSender(b['from']) : null;
  if (!sender) return fail('from is required');
  if (!sender.ok) return fail(sender.error);
  const batchSize = integerIn(b['batch_size'], 1, 10_000, 1_000, 'batch_size');
  if (!batchSize.ok) return batchSize;
  const delay = integerIn(b['delay_between_batches'], 0, 3_600, 0, 'delay_between_batches');
  if (!delay.ok) return delay;
  const priority = b['priority'] ?? 'normal';
  if (priority !== 'normal' && priority !== 'high') return fail('priority must be normal or high');
  const reference = b['reference'] ?? null;
  if (reference !== null && (typeof reference !== 'string' || reference.length > 200)) return fail('reference must be a string of at most 200 characters');
  const schedule = resolveSchedule(optionalString(b['scheduled_time']), now);
  if (!schedule.ok) return schedule;
  const webhook = resolveWebhookUrl(optionalString(b['webhook_url']));
  if (!webhook.ok) return webhook;
  return {
    ok: true,
    value: {
      input: input.value,
      sender: sender.sender,
      batchSize: batchSize.value,
      delayBetweenBatchesS: delay.value,
      priority,
      reference,
      scheduledAt: schedule.at,
      webhookUrl: webhook.url,
    },
  };
}

function resolveInput(b: Record<string, unknown>): Result<CampaignInput> {
  const hasRecipients = b['recipients'] !== undefined;
  const hasMessages = b['messages'] !== undefined;
  if (hasRecipients && hasMessages) return fail('give either recipients (with message) or messages, not both');
  if (hasMessages) return resolveMessages(b['messages']);
  if (!hasRecipients) return fail('recipients is required (or messages)');
  const recipients = b['recipients'];
  if (typeof recipients !== 'string' && !(Array.isArray(recipients) && recipients.every((r) => typeof r === 'string'))) {
    return fail('recipients must be an array of numbers or one string of numbers separated by commas or semicolons');
  }
  const entries = recipientEntries(recipients);
  if (entries.length === 0) return fail('recipients is required (or messages)');
  if (entries.length > MAX_BULK_ENTRIES) return fail(`at most ${MAX_BULK_ENTRIES} recipients per request`);
  const message = b['message'];
  if (typeof message !== 'string' || message.trim() === '') return fail('message is required');
  try {
    splitSms(message);
  } catch (error) {
    if (error instanceof SmsTextError) return fail(error.message);
    throw error;
  }
  return { ok: true, value: { mode: 1, recipients: entries, message } };
}

function resolveMessages(messages: unknown): Result<CampaignInput> {
  if (!Array.isArray(messages) || messages.length === 0) return fail('messages must be a non-empty array of { to, message }');
  if (messages.length > MAX_BULK_ENTRIES) return fail(`at most ${MAX_BULK_ENTRIES} messages per request`);
  const entries: CampaignMessageInput[] = [];
  for (const [i, item] of messages.entries()) {
    if (item === null || typeof item !== 'object') return fail(`messages[${i}] must be an object with to and message`);
    const { to, message, reference, from } = item as Record<string, unknown>;
    if (typeof to !== 'string') return fail(`messages[${i}].to is required`);
    if (reference !== undefined && reference !== null && typeof reference !== 'string') return fail(`messages[${i}].reference must be a string`);
    if (from !== undefined && from !== null && typeof from !== 'string') return fail(`messages[${i}].from must be a string`);
    entries.push({ to, message: typeof message === 'string' ? message : '', reference: (reference as string | undefined) ?? null, from: (from as string | undefined) ?? null });
  }
  return { ok: true, value: { mode: 2, messages: entries } };
}

function integerIn(value: unknown, min: number, max: number, fallback: number, field: string): Result<number> {
  if (value === undefined || value === null) return { ok: true, value: fallback };
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) return fail(`${field} must be an integer from ${min} to ${max}`);
  return { ok: true, value };
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
