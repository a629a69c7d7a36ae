import { createCipheriv, createDecipheriv, randomFillSync } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
/** 96 bits: the IV size GCM is designed for; random per message, so a key never reuses one in practice. */
const IV_BYTES = 12;
/** The full tag. Node accepts shorter ones unless told otherwise, and a short tag is easier to forge. */
const TAG_BYTES = 16;
const VERSION = 'v1';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const SEALED = /^v1\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]*)$/;

/** A key, a sealed text or a seal that cannot be used; the message says which and why. */
export class TextCipherError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TextCipherError';
  }
}

/** The AES-256 key from its base64 text (such as `openssl rand -base64 32` prints). */
export function parseTextKey(base64: string): Buffer {
  const text = base64.trim();
  if (!BASE64.test(text)) throw new TextCipherError('the text encryption key is not base64');
  const key = Buffer.from(text, 'base64');
  if (key.length !== KEY_BYTES) {
    throw new TextCipherError(`the text encryption key must be ${KEY_BYTES} bytes, not ${key.length}`);
  }
  return key;
}

/**
 * Encrypts a text that carries a code (outbox rows, job data) for as long as it waits to be
 * sent: `v1.<iv>.<tag>.<ciphertext>`, each part base64url. The version lets a later format or
 * key rotation tell old seals apart.
 */
export function sealText(key: Buffer, plaintext: string): string {
  checkKey(key);
  const iv = freshIv();
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, ...[iv, tag, ciphertext].map((part) => part.toString('base64url'))].join('.');
}

/** The text of a seal; throws if the seal is malformed, was changed, or was made with another key. */
export function openText(key: Buffer, sealed: string): string {
  checkKey(key);
  const match = SEALED.exec(sealed);
  if (!match) throw new TextCipherError('not a sealed text (expected v1.<iv>.<tag>.<ciphertext>)');
  const [, iv, tag, ciphertext] = match.map((part) => Buffer.from(part, 'base64url'));
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
    throw new TextCipherError('not a sealed text (wrong IV or tag length)');
  }
  const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new TextCipherError('the sealed text was changed or sealed with another key');
  }
}

/** Whether a value has the shape of a seal (its content is checked only when opened). */
export function isSealedText(value: string): boolean {
  return SEALED.test(value);
}

const IVS_PER_FILL = 256;
const ivPool = Buffer.alloc(IV_BYTES * IVS_PER_FILL);
let nextIv = IVS_PER_FILL;

/**
 * A random IV, each handed out once, from a pool filled 256 at a time: every randomBytes call is
 * a trip into OpenSSL that also asks the kernel for the process id (its fork check), and at
 * hundreds of OTPs a second those system calls showed up in the gateway's profile
 * (docs/decisions/0025-otp-text-iv-pool.md).
 */
function freshIv(): Buffer {
  if (nextIv === IVS_PER_FILL) {
    randomFillSync(ivPool);
    nextIv = 0;
  }
  const at = IV_BYTES * nextIv++;
  return Buffer.from(ivPool.subarray(at, at + IV_BYTES));
}

function checkKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) {
    throw new TextCipherError(`the text encryption key must be ${KEY_BYTES} bytes, not ${key.length}`);
  }
}
