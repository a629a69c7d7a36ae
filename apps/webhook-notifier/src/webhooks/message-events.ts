import type { MessageForWebhook } from '@mp/persistence';
import type { MessageEventStatus } from '@mp/queue-contracts';

export type MessageEventType = 'message.sent' | 'message.delivered' | 'message.failed';

/** The body of a message webhook, as decisions.md documents it. */
export interface MessageEventPayload {
  type: MessageEventType;
  timestamp: string;
  data: {
    message_id: string;
    to: string;
    status: MessageEventStatus;
    reference: string | null;
    error_code?: string | null;
    reason?: MessageEventStatus;
    parts: number;
  };
}

const EVENT_TYPES: Readonly<Record<MessageEventStatus, MessageEventType>> = {
  sent: 'message.sent',
  delivered: 'message.delivered',
  undelivered: 'message.failed',
  expired: 'message.failed',
  rejected: 'message.failed',
  failed: 'message.failed',
};

/** The webhook event of a message status, or undefined for a status that has none. */
export function eventTypeFor(status: string): MessageEventType | undefined {
  return Object.hasOwn(EVENT_TYPES, status) ? EVENT_TYPES[status as MessageEventStatus] : undefined;
}

/** The payload of one status change; a failure says which (`reason`) and the carrier's error code. */
export function buildMessageEvent(
  event: { status: MessageEventStatus; occurredAt: string },
  message: Pick<MessageForWebhook, 'id' | 'recipient' | 'reference' | 'errorCode' | 'parts'>,
): MessageEventPayload {
  const type = eventTypeFor(event.status);
  if (!type) throw new RangeError(`no webhook event for message status ${JSON.stringify(event.status)}`);
  const failure = type === 'message.failed' ? { error_code: message.errorCode, reason: event.status } : {};
  return {
    type,
    timestamp: new Date(event.occurredAt).toISOString(),
    data: {
      message_id: message.id,
      to: message.recipient,
      status: event.status,
      reference: message.reference,
      ...failure,
      parts: message.parts,
    },
  };
}

const KEY_ORDER = ['type', 'timestamp', 'data', 'message_id', 'to', 'status', 'reference', 'error_code', 'reason', 'parts'];

/**
 * The body sent. The payload is stored as jsonb, which reorders keys, so the documented order is
 * restored here (keys not listed follow, alphabetically): every attempt sends the same bytes.
 */
export function serializeEvent(payload: unknown): string {
  return JSON.stringify(ordered(payload));
}

function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (value === null || typeof value !== 'object') return value;
  const rank = (key: string) => (KEY_ORDER.includes(key) ? KEY_ORDER.indexOf(key) : KEY_ORDER.length);
  const keys = Object.keys(value).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((key) => [key, ordered((value as Record<string, unknown>)[key])]));
}
