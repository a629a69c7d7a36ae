import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Public key ids look like `mpk_…`, so a leaked one is easy to grep for. */
const KEY_PREFIX = 'mpk_';
const SECRET_BYTES = 32;
const KEY_ID_BYTES = 16;
/** What generateApiKey makes: the prefix and 16 random bytes in base64url. */
const KEY_SHAPE = /^mpk_[A-Za-z0-9_-]{22}$/;

export interface GeneratedApiKey {
  key: string;
  /** Shown once, to whoever created the key; only its hash is kept. */
  secret: string;
  secretHash: Buffer;
}

export function generateApiKey(pepper: string): GeneratedApiKey {
  const key = KEY_PREFIX + randomBytes(KEY_ID_BYTES).toString('base64url');
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  return { key, secret, secretHash: hashApiSecret(secret, pepper) };
}

/** Whether a presented key could be one of ours; any other text is refused before a lookup. */
export function isApiKeyShaped(key: string): boolean {
  return KEY_SHAPE.test(key);
}

/** HMAC-SHA-256 with the server pepper: quick enough per request, useless without the pepper. */
export function hashApiSecret(secret: string, pepper: string): Buffer {
  return createHmac('sha256', pepper).update(secret, 'utf8').digest();
}

/** Constant-time comparison of a presented secret with the stored hash. */
export function apiSecretMatches(secret: string, storedHash: Buffer, pepper: string): boolean {
  const presented = hashApiSecret(secret, pepper);
  return presented.length === storedHash.length && timingSafeEqual(presented, storedHash);
}

/** A Standard Webhooks signing secret: `whsec_` and the base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
