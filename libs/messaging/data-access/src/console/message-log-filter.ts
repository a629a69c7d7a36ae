import type { MessageStatus } from '../message.repository';

export const MESSAGE_STATUSES = [
  'scheduled',
  'queued',
  'sent',
  'delivered',
  'undelivered',
  'expired',
  'rejected',
  'failed',
  'cancelled',
] as const satisfies readonly MessageStatus[];

/** A number searched for: the whole number, or the numbers that start with these digits. */
export interface NumberSearch {
  /** `+` then 1 to 15 digits. */
  value: string;
  match: 'exact' | 'prefix';
}

/** What the message log is narrowed to; null leaves a condition out. */
export interface MessageLogFilter {
  number: NumberSearch | null;
  messageId: string | null;
  /** The caller's reference, exact. */
  reference: string | null;
  /** Any of these statuses. */
  statuses: readonly MessageStatus[] | null;
  /** Created at or after. */
  from: Date | null;
  /** Created before. */
  before: Date | null;
  campaignId: string | null;
  /** The sender, exact (the public list's `from`); absent or null: any. */
  sender?: string | null;
  /** List OTP messages too (the public list); absent: not (the console's log). */
  includeOtps?: boolean;
}

export const NO_MESSAGE_FILTER: MessageLogFilter = {
  number: null,
  messageId: null,
  reference: null,
  statuses: null,
  from: null,
  before: null,
  campaignId: null,
};

export const MESSAGE_LOG_MAX_LIMIT = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NUMBER = /^\+[0-9]{1,15}$/;
/** What people type around the digits of a number: spaces, dashes, dots, parentheses. */
const NUMBER_TYPED = /^\+?[0-9 ().-]+$/;
const REFERENCE_MAX = 200;

export function isUuid(text: string): boolean {
  return UUID.test(text);
}

export function isNumberSearchValue(text: string): boolean {
  return NUMBER.test(text);
}

/**
 * What the log's single `Search` field means: a message id (a uuid), else a number's digits (a
 * prefix: `+4479`, `447911 123`, `(0044) 79`… is not rewritten, only spaces, dashes, dots and
 * parentheses are dropped and a `+` put in front), else a reference (exact). Empty text: no
 * condition.
 */
export function messageSearch(text: string): Pick<MessageLogFilter, 'messageId' | 'number' | 'reference'> {
  const trimmed = text.trim();
  const none = { messageId: null, number: null, reference: null };
  if (trimmed === '') return none;
  if (isUuid(trimmed)) return { ...none, messageId: trimmed.toLowerCase() };
  if (NUMBER_TYPED.test(trimmed)) {
    const value = `+${trimmed.replace(/[^0-9]/g, '')}`;
    if (NUMBER.test(value)) return { ...none, number: { value, match: 'prefix' } };
  }
  return { ...none, reference: trimmed.slice(0, REFERENCE_MAX) };
}

/** The first thing wrong with a filter, as a 400's `error` names it; null when it can be run. */
export function messageLogFilterError(filter: MessageLogFilter): string | null {
  if (filter.number && !NUMBER.test(filter.number.value)) return 'number must be + then 1 to 15 digits';
  if (filter.statuses?.some((status) => !(MESSAGE_STATUSES as readonly string[]).includes(status))) {
    return `status must be one of ${MESSAGE_STATUSES.join(', ')}`;
  }
  if (filter.from && filter.before && filter.from >= filter.before) return 'from must be before to';
  for (const date of [filter.from, filter.before]) if (date && Number.isNaN(date.getTime())) return 'dates must be ISO 8601 timestamps';
  return null;
}
