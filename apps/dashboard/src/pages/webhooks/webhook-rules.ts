// What the Webhooks page decides, apart from how it draws it: the filter in the URL, how a
// delivery and an attempt are worded, which can be resent, and the overlaps a rotation offers.
import { DELIVERY_STATUSES, type DeliveryStatus, type WebhookAttempt, type WebhookDelivery } from '../../api/webhooks';

export type DeliveryFilter = 'all' | DeliveryStatus;
export const DELIVERY_FILTERS: readonly { value: DeliveryFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'pending', label: 'Retrying' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'dead', label: 'Dead letters' },
];

/** The `status` search parameter as a filter: anything else shows all deliveries. */
export function parseDeliveryFilter(value: unknown): DeliveryFilter {
  return typeof value === 'string' && (DELIVERY_STATUSES as readonly string[]).includes(value) ? (value as DeliveryStatus) : 'all';
}

export function deliveryFilterToSearch(filter: DeliveryFilter): { status?: DeliveryStatus } {
  return filter === 'all' ? {} : { status: filter };
}

export const STATUS_WORDS: Record<DeliveryStatus, { label: string; color: string }> = {
  pending: { label: 'retrying', color: 'yellow' },
  delivered: { label: 'delivered', color: 'green' },
  dead: { label: 'dead letter', color: 'red' },
};

/** A delivered or dead delivery may be resent; one still being tried has its next attempt coming. */
export function canResend(delivery: Pick<WebhookDelivery, 'status'>): boolean {
  return delivery.status === 'delivered' || delivery.status === 'dead';
}

/** "HTTP 500", or why there was no answer ("timeout after 10000 ms"). */
export function attemptResponse(attempt: Pick<WebhookAttempt, 'status_code' | 'error'>): string {
  if (attempt.status_code !== null) return `HTTP ${attempt.status_code}`;
  return attempt.error ? `No answer: ${attempt.error}` : 'No answer';
}

export function attemptSucceeded(attempt: Pick<WebhookAttempt, 'status_code'>): boolean {
  return attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
}

/** The last response code a delivery got, for its summary line. */
export function lastResponse(delivery: Pick<WebhookDelivery, 'attempts'>): string {
  const last = delivery.attempts.at(-1);
  return last ? attemptResponse(last) : 'Not tried yet';
}

export const OVERLAP_CHOICES: readonly { value: number; label: string }[] = [
  { value: 24 * 3600, label: '24 hours (recommended)' },
  { value: 3600, label: '1 hour' },
  { value: 7 * 24 * 3600, label: '7 days' },
  { value: 0, label: 'None: the old secret stops at once (it leaked)' },
];
export const DEFAULT_OVERLAP = OVERLAP_CHOICES[0].value;

/** What a rotation with this overlap does, in a sentence for the confirmation. */
export function overlapConsequence(seconds: number): string {
  if (seconds === 0) return 'Webhooks are signed with the new secret only, from now on: receivers that still check the old one refuse them until updated.';
  const hours = seconds / 3600;
  const span = hours >= 24 && hours % 24 === 0 ? `${hours / 24} day${hours === 24 ? '' : 's'}` : `${hours} hour${hours === 1 ? '' : 's'}`;
  return `For the next ${span}, every webhook carries two signatures, one with the new secret and one with the old, so your receivers keep working while you update them. After that, only the new secret signs.`;
}
