import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com/), as its reference libraries do it:
 * the signed content is `${id}.${unix seconds}.${body}`, the key is the base64-decoded part of a
 * `whsec_…` secret, and the header is a space-separated list of `v1,<base64 HMAC-SHA256>`.
 */
export interface WebhookSignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export const WEBHOOK_TOLERANCE_SECONDS = 300;

const SECRET_PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** The spec's recommended key sizes; ours are 32 bytes. */
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;
const TIMESTAMP = /^[0-9]{1,15}$/;

/**
 * The headers of a request signed with each secret given, in order: one `v1,` signature per
 * secret in `webhook-signature`, separated by spaces (two while a secret is rotated).
 */
export function signWebhook(input: { secret: string | readonly string[]; id: string; timestamp: Date; body: string }): WebhookSignatureHeaders {
  const secrets = typeof input.secret === 'string' ? [input.secret] : input.secret;
  if (secrets.length === 0) throw new Error('A webhook is signed with at least one secret');
  const keys = secrets.map((secret) => {
    const key = decodeWebhookSecret(secret);
    if (key === undefined) throw new Error(`A webhook secret is ${SECRET_PREFIX} and the base64 of ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} bytes`);
    return key;
  });
  const seconds = String(Math.floor(input.timestamp.getTime() / 1000));
  return {
    'webhook-id': input.id,
    'webhook-timestamp': seconds,
    'webhook-signature': keys.map((key) => `v1,${computeSignature(key, input.id, seconds, input.body)}`).join(' '),
  };
}

/**
 * True when the headers carry a current timestamp and at least one `v1` signature made with one
 * of the secrets (several are accepted while a secret is being rotated). Header names are matched
 * case-insensitively; signatures are compared in constant time.
 */
export function verifyWebhook(input: {
  secrets: string[];
  headers: Record<string, string | undefined>;
  body: string;
  now?: Date;
  toleranceSeconds?: number;
}): boolean {
  const headers = lowerCaseKeys(input.headers);
  const id = headers['webhook-id'];
  const seconds = headers['webhook-timestamp'];
  const signatureHeader = headers['webhook-signature'];
  if (!id || !seconds || !signatureHeader) return false;
  if (!isCurrent(seconds, input.now ?? new Date(), input.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS)) return false;
  const presented = readV1Signatures(signatureHeader);
  let matched = false;
  for (const secret of input.secrets) {
    const key = decodeWebhookSecret(secret);
    if (key === undefined) continue;
    const expected = Buffer.from(computeSignature(key, id, seconds, input.body), 'utf8');
    for (const signature of presented) matched = constantTimeEqual(expected, signature) || matched;
  }
  return matched;
}

/** The HMAC key of a `whsec_…` secret, or undefined when it is not one. */
export function decodeWebhookSecret(secret: string): Buffer | undefined {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!BASE64.test(encoded)) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length >= MIN_KEY_BYTES && key.length <= MAX_KEY_BYTES ? key : undefined;
}

function computeSignature(key: Buffer, id: string, seconds: string, body: string): string {
  return createHmac('sha256', key).update(`${id}.${seconds}.${body}`, 'utf8').digest('base64');
}

function isCurrent(seconds: string, now: Date, toleranceSeconds: number): boolean {
  if (!TIMESTAMP.test(seconds)) return false;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return Math.abs(nowSeconds - Number(seconds)) <= toleranceSeconds;
}

/** The base64 parts of the `v1,<sig>` entries; entries of other versions are ignored. */
function readV1Signatures(header: string): Buffer[] {
  return header
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'utf8'));
}

function constantTimeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function lowerCaseKeys(headers: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
