import type { MessageEventStatus } from '@mp/queue-contracts';
import type { DataSource } from 'typeorm';

export type MessageEventType = 'message.sent' | 'message.delivered' | 'message.failed';

/** A message as its webhook events describe it. */
export interface MessageForWebhook {
  id: string;
  companyId: string;
  webhookUrl: string | null;
  recipient: string;
  reference: string | null;
  errorCode: string | null;
  errorReason: string | null;
  parts: number;
  status: string;
}

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

/**
 * A message's webhook event, made here for the webhook notifier to deliver: the company, the
 * address (null: the message has none, so there is nothing to send), the event and its body.
 */
export interface MessageWebhookEvent {
  companyId: string;
  messageId: string;
  url: string | null;
  eventType: MessageEventType;
  payload: MessageEventPayload;
}

/** The webhook events of messages, made from the messages as they are when the event is handled. */
export class MessageWebhookEvents {
  constructor(private readonly db: DataSource) {}

  /** The event of a status change; null when the message does not exist. Throws RangeError for a status without an event. */
  async statusChanged(event: { messageId: string; status: MessageEventStatus; occurredAt: string }): Promise<MessageWebhookEvent | null> {
    const message = await this.findMessage(event.messageId);
    if (!message) return null;
    const payload = buildMessageEvent(event, message);
    return { companyId: message.companyId, messageId: message.id, url: message.webhookUrl, eventType: payload.type, payload };
  }

  async findMessage(messageId: string): Promise<MessageForWebhook | null> {
    const rows: Record<string, unknown>[] = await this.db.query(
      `SELECT id, company_id, webhook_url, recipient, reference, error_code, error_reason, parts, status FROM messages WHERE id = $1`,
      [messageId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: String(row['id']),
      companyId: String(row['company_id']),
      webhookUrl: nullable(row['webhook_url'], String),
      recipient: String(row['recipient']),
      reference: nullable(row['reference'], String),
      errorCode: nullable(row['error_code'], String),
      errorReason: nullable(row['error_reason'], String),
      parts: Number(row['parts']),
      status: String(row['status']),
    };
  }
}

function nullable<T>(value: unknown, convert: (value: unknown) => T): T | null {
  return value === null || value === undefined ? null : convert(value);
}
