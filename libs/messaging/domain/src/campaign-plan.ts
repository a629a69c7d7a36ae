import type { Money } from '@mp/billing-domain';
import { RECIPIENT_OPTED_OUT } from './opt-out-keywords';
import { INVALID_PHONE_NUMBER, type PhoneParse } from './phone-number';
import { checkSender } from './sender-id';
import { splitSms, SmsTextError } from './sms-text';

export interface CampaignMessageInput {
  to: string;
  message: string;
  reference?: string | null;
  from?: string | null;
}

/** Mode 1: one text to many recipients (entries already split); mode 2: one message each. */
export type CampaignInput = { mode: 1; recipients: readonly string[]; message: string } | { mode: 2; messages: readonly CampaignMessageInput[] };

export interface CampaignPlanOptions {
  batchSize: number;
  delayBetweenBatchesS: number;
  /** When the first batch is released (now, or the campaign's scheduled time). */
  startAt: Date;
  /** Validates one number as a bulk entry (a missing `+` accepted). */
  validate: (input: string) => PhoneParse;
  /** Price per part for a number; undefined when no price is set. */
  price: (e164: string) => Money | undefined;
  /** Whether the number has opted out of the entry's sender (null: the campaign's own); such an entry is listed as failed, not charged. */
  suppressed?: (e164: string, sender: string | null) => boolean;
}

export interface PlannedBatch {
  position: number;
  scheduledAt: Date;
  recipients: string[];
  /** Mode 2 only: each message's text, reference and sender (null: the campaign's). */
  bodies: string[] | null;
  references: (string | null)[] | null;
  senders: (string | null)[] | null;
  parts: number[];
  prices: Money[];
  cost: Money;
}

export interface CampaignPlan {
  /** Entries in the request. */
  total: number;
  accepted: number;
  duplicates: number;
  /** Each refused entry as given, trimmed, with why. */
  failedNumbers: { number: string; error: string }[];
  batches: PlannedBatch[];
  totalCost: Money;
}

interface Accepted {
  e164: string;
  body: string | null;
  reference: string | null;
  sender: string | null;
  parts: number;
  price: Money;
}

/**
 * A campaign as it will be charged and sent: each entry validated (invalid ones listed, never
 * charged), duplicates sent once (mode 1: the same number; mode 2: the same number, text and
 * sender), priced per part, and cut into batches released `delayBetweenBatchesS` apart.
 */
export function planCampaign(input: CampaignInput, options: CampaignPlanOptions): CampaignPlan {
  const failedNumbers: CampaignPlan['failedNumbers'] = [];
  const accepted: Accepted[] = [];
  const seen = new Set<string>();
  const partsOf = memoisedParts();
  const entries = input.mode === 1 ? input.recipients.map((to) => ({ to, message: input.message })) : input.messages;
  for (const entry of entries) {
    const outcome = acceptEntry(entry, input.mode, options, partsOf);
    if ('error' in outcome) {
      failedNumbers.push({ number: String(entry.to ?? '').trim(), error: outcome.error });
      continue;
    }
    const key = input.mode === 1 ? outcome.e164 : `${outcome.e164}\u0000${outcome.body}\u0000${outcome.sender ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    accepted.push(outcome);
  }
  const batches = cutBatches(accepted, input.mode, options);
  return {
    total: entries.length,
    accepted: accepted.length,
    duplicates: entries.length - failedNumbers.length - accepted.length,
    failedNumbers,
    batches,
    totalCost: batches.reduce((sum, batch) => sum + batch.cost, 0n),
  };
}

function acceptEntry(
  entry: CampaignMessageInput,
  mode: 1 | 2,
  options: CampaignPlanOptions,
  partsOf: (text: string) => number | { error: string },
): Accepted | { error: string } {
  const phone = typeof entry.to === 'string' ? options.validate(entry.to) : null;
  if (!phone?.ok) return { error: INVALID_PHONE_NUMBER };
  if (typeof entry.message !== 'string' || entry.message.trim() === '') return { error: 'message is required' };
  const parts = partsOf(entry.message);
  if (typeof parts !== 'number') return parts;
  let sender: string | null = null;
  if (entry.from !== undefined && entry.from !== null && entry.from !== '') {
    const checked = checkSender(entry.from);
    if (!checked.ok) return { error: checked.error };
    sender = checked.sender;
  }
  if (options.suppressed?.(phone.e164, sender)) return { error: RECIPIENT_OPTED_OUT };
  const price = options.price(phone.e164);
  if (price === undefined) return { error: `No price is set for ${phone.e164}` };
  return { e164: phone.e164, body: mode === 2 ? entry.message : null, reference: entry.reference ?? null, sender, parts, price };
}

/** Parts per text, split once per distinct text (mode 1 has one). */
function memoisedParts(): (text: string) => number | { error: string } {
  const cache = new Map<string, number | { error: string }>();
  return (text) => {
    let parts = cache.get(text);
    if (parts === undefined) {
      try {
        parts = splitSms(text).parts.length;
      } catch (error) {
        if (!(error instanceof SmsTextError)) throw error;
        parts = { error: error.message };
      }
      cache.set(text, parts);
    }
    return parts;
  };
}

function cutBatches(accepted: readonly Accepted[], mode: 1 | 2, options: CampaignPlanOptions): PlannedBatch[] {
  const batches: PlannedBatch[] = [];
  for (let start = 0, position = 1; start < accepted.length; start += options.batchSize, position++) {
    const slice = accepted.slice(start, start + options.batchSize);
    batches.push({
      position,
      scheduledAt: new Date(options.startAt.getTime() + (position - 1) * options.delayBetweenBatchesS * 1000),
      recipients: slice.map((m) => m.e164),
      bodies: mode === 2 ? slice.map((m) => m.body ?? '') : null,
      references: mode === 2 ? slice.map((m) => m.reference) : null,
      senders: mode === 2 ? slice.map((m) => m.sender) : null,
      parts: slice.map((m) => m.parts),
      prices: slice.map((m) => m.price),
      cost: slice.reduce((sum, m) => sum + m.price * BigInt(m.parts), 0n),
    });
  }
  return batches;
}
