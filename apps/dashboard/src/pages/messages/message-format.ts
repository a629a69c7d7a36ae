// How the message pages write statuses, amounts and exact times.
import type { MessageStatus } from '../../api/messages';

const STATUS_COLORS: Record<MessageStatus, string> = {
  scheduled: 'gray',
  queued: 'gray',
  sent: 'blue',
  delivered: 'green',
  undelivered: 'red',
  expired: 'orange',
  rejected: 'red',
  failed: 'red',
  cancelled: 'gray',
};

export function statusColor(status: string): string {
  return STATUS_COLORS[status as MessageStatus] ?? 'gray';
}

const amount = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 4 });

/** An exact amount of the API (at most 4 decimals) as the reader's locale writes it. */
export function formatAmount(value: number): string {
  return amount.format(value);
}

const toTheSecond = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** "12 May 2026, 14:03:27": a message's steps are seconds apart. */
export function formatToTheSecond(iso: string | null | undefined, fallback = '—'): string {
  if (!iso) return fallback;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? fallback : toTheSecond.format(date);
}

const EVENT_LABELS: Record<string, string> = {
  accepted: 'Accepted and charged',
  scheduled: 'Scheduled',
  queued: 'Queued by its campaign',
  submitted: 'Handed to the carrier',
  sent: 'Sent',
  delivered: 'Delivered',
  undelivered: 'Not delivered',
  expired: 'Expired',
  rejected: 'Rejected',
  failed: 'Failed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

/** "Delivered (part 2)", "Accepted and charged". */
export function eventLabel(event: string, part: number | null): string {
  const label = EVENT_LABELS[event] ?? event;
  return part === null ? label : `${label} (part ${part})`;
}
