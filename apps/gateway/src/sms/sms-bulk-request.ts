import { fail, withoutNullFields, type Result } from '@mp/http-kit';
import { checkSender, recipientEntries, splitSms, SmsTextError, type CampaignInput, type CampaignMessageInput } from '@mp/messaging-domain';
import { resolveSchedule, resolveWebhookUrl, type RequestContext } from './sms-request';

export const MAX_BULK_ENTRIES = 1_000_000;

/** The fields of the body; any other is refused, as /sms/send refuses them (a typo must not send at once). */
const BULK_FIELDS = new Set([
  'recipients',
  'message',
  'messages',
  'from',
  'batch_size',
  'delay_between_batches',
  'reference',
  'priority',
  'scheduled_time',
  'webhook_url',
]);
const MESSAGE_FIELDS = new Set(['to', 'message', 'reference', 'from']);

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

/**
 * POST /sms/send-bulk, read straight from the parsed JSON (a million entries through
 * class-validator would take seconds): mode 1 (`recipients` + `message`) or mode 2 (`messages`),
 * never both, and each option checked, naming the bad field.
 */
export function resolveBulkRequest(body: unknown, { now = new Date(), webhookPolicy }: RequestContext = {}): Result<SmsBulkRequest> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail('request body must be a JSON object');
  const fields = knownFields(body as Record<string, unknown>, BULK_FIELDS);
  if (!fields.ok) return fail(`${fields.unknown} is not a known field`);
  const b = fields.given;
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
  if (!isOptionalString(b['scheduled_time'])) return fail('scheduled_time must be an ISO 8601 timestamp');
  if (!isOptionalString(b['webhook_url'])) return fail('webhook_url must be an http(s) URL');
  const schedule = resolveSchedule(b['scheduled_time'], now);
  if (!schedule.ok) return schedule;
  const webhook = resolveWebhookUrl(b['webhook_url'], webhookPolicy);
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
      scheduledAt: schedule.value,
      webhookUrl: webhook.value,
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
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return fail(`messages[${i}] must be an object with to and message`);
    const fields = knownFields(item as Record<string, unknown>, MESSAGE_FIELDS);
    if (!fields.ok) return fail(`messages[${i}].${fields.unknown} is not a known field`);
    const { to, message, reference, from } = fields.given;
    if (typeof to !== 'string') return fail(`messages[${i}].to is required`);
    if (reference !== undefined && typeof reference !== 'string') return fail(`messages[${i}].reference must be a string`);
    if (from !== undefined && typeof from !== 'string') return fail(`messages[${i}].from must be a string`);
    entries.push({
      to,
      message: typeof message === 'string' ? message : '',
      reference: (reference as string | undefined) ?? null,
      from: (from as string | undefined) ?? null,
    });
  }
  return { ok: true, value: { mode: 2, messages: entries } };
}

/**
 * The first field that is not `known`, or the fields given: one given as null counts as not
 * given, as on every other route (see withoutNullFields). One pass: mode 2 calls it a million times.
 */
function knownFields(
  fields: Record<string, unknown>,
  known: ReadonlySet<string>,
): { ok: true; given: Record<string, unknown> } | { ok: false; unknown: string } {
  let hasNull = false;
  for (const key in fields) {
    if (!known.has(key)) return { ok: false, unknown: key };
    if (fields[key] === null) hasNull = true;
  }
  return { ok: true, given: hasNull ? (withoutNullFields(fields) as Record<string, unknown>) : fields };
}

function integerIn(value: unknown, min: number, max: number, fallback: number, field: string): Result<number> {
  if (value === undefined || value === null) return { ok: true, value: fallback };
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) return fail(`${field} must be an integer from ${min} to ${max}`);
  return { ok: true, value };
}

function isOptionalString(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}
