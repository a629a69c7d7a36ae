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

/** Seconds since 1970 of a status that could be real: from 2000 to 2200 (a 14-digit value is not one). */
const EARLIEST_STATUS_SECONDS = 946_684_800;
const LATEST_STATUS_SECONDS = 7_258_118_400;

/**
 * Every message status in a webhook body; other notifications (inbound messages) and anything of
 * another shape are ignored, item by item: the body is signed by Meta, but its shape is theirs.
 */
export function statusesOf(body: unknown): WhatsAppStatus[] {
  return arrayAt(body, 'entry').flatMap((entry) =>
    arrayAt(entry, 'changes').flatMap((change) => {
      if (!isObject(change) || change['field'] !== 'messages') return [];
      return arrayAt(change['value'], 'statuses').flatMap(toStatus);
    }),
  );
}

function toStatus(raw: unknown): WhatsAppStatus[] {
  if (!isObject(raw) || typeof raw['id'] !== 'string' || raw['id'] === '' || typeof raw['status'] !== 'string') return [];
  const seconds = Number(raw['timestamp']);
  const firstError = arrayAt(raw, 'errors')[0];
  const code = isObject(firstError) ? firstError['code'] : undefined;
  const plausible = Number.isInteger(seconds) && seconds >= EARLIEST_STATUS_SECONDS && seconds <= LATEST_STATUS_SECONDS;
  return [
    {
      messageId: raw['id'],
      status: raw['status'],
      timestamp: plausible ? new Date(seconds * 1000) : null,
      errorCode: typeof code === 'string' || typeof code === 'number' ? String(code) : null,
    },
  ];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function arrayAt(value: unknown, key: string): unknown[] {
  const item = isObject(value) ? value[key] : undefined;
  return Array.isArray(item) ? item : [];
}

/** The carrier receipt a status stands for: delivered (or read) and failed are final; sent is not. */
export function receiptOfStatus(status: WhatsAppStatus): { carrierMessageId: string; stat: string; err: string; doneAt: Date | null } | null {
  if (status.status === 'delivered' || status.status === 'read') {
    return { carrierMessageId: status.messageId, stat: 'DELIVRD', err: '000', doneAt: status.timestamp };
  }
  if (status.status === 'failed')
    return { carrierMessageId: status.messageId, stat: 'UNDELIV', err: `wa:${status.errorCode ?? 'unknown'}`, doneAt: status.timestamp };
  return null;
}
