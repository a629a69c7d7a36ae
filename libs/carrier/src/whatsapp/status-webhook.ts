import { createHmac, timingSafeEqual } from 'node:crypto';

/** A delivery status from Meta's webhook, as a carrier receipt: what the dispatch store applies. */
export interface WhatsAppStatus {
  messageId: string;
  status: 'sent' | 'delivered' | 'read' | 'failed' | string;
  timestamp: Date | null;
  errorCode: string | null;
}

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the app secret>`, compared in constant time. */
export function verifyHubSignature(appSecret: string, rawBody: string, header: string | undefined): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody, 'utf8').digest();
  return timingSafeEqual(expected, Buffer.from(match[1], 'hex'));
}

interface WebhookBody {
  object?: string;
  entry?: { changes?: { field?: string; value?: { statuses?: RawStatus[] } }[] }[];
}
interface RawStatus {
  id?: unknown;
  status?: unknown;
  timestamp?: unknown;
  errors?: { code?: unknown }[];
}

/** Every message status in a webhook body; other notifications (inbound messages) are ignored. */
export function statusesOf(body: unknown): WhatsAppStatus[] {
  const entries = (body as WebhookBody | null)?.entry;
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry) =>
    (entry.changes ?? []).flatMap((change) =>
      change.field === 'messages' && Array.isArray(change.value?.statuses) ? change.value.statuses.flatMap(toStatus) : [],
    ),
  );
}

function toStatus(raw: RawStatus): WhatsAppStatus[] {
  if (typeof raw.id !== 'string' || typeof raw.status !== 'string') return [];
  const seconds = Number(raw.timestamp);
  const code = raw.errors?.[0]?.code;
  return [
    {
      messageId: raw.id,
      status: raw.status,
      timestamp: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : null,
      errorCode: code === undefined ? null : String(code),
    },
  ];
}

/** The carrier receipt a status stands for: delivered (or read) and failed are final; sent is not. */
export function receiptOfStatus(status: WhatsAppStatus): { carrierMessageId: string; stat: string; err: string; doneAt: Date | null } | null {
  if (status.status === 'delivered' || status.status === 'read') {
    return { carrierMessageId: status.messageId, stat: 'DELIVRD', err: '000', doneAt: status.timestamp };
  }
  if (status.status === 'failed') return { carrierMessageId: status.messageId, stat: 'UNDELIV', err: `wa:${status.errorCode ?? 'unknown'}`, doneAt: status.timestamp };
  return null;
}
