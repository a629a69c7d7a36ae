import { createHmac, timingSafeEqual } from 'node:crypto';

const SHA256_HEX = /^[0-9a-f]{64}$/i;

/**
 * The only form in which a code is stored: a keyed hash, so a database dump does not give the
 * codes away (a plain hash of a 6-digit code is reversed by trying the million codes), bound to
 * the verification, so a hash copied onto another verification does not match there.
 */
export function hashOtpCode(secret: Buffer, verificationId: string, code: string): string {
  return createHmac('sha256', secret).update(`${verificationId}:${code}`).digest('hex');
}

/**
 * Whether `code` is the code whose hash is stored, compared in constant time so the response
 * time does not tell how much of a guess was right. A stored hash that is not 64 hex digits
 * matches nothing.
 */
export function otpCodeMatches(secret: Buffer, verificationId: string, code: string, storedHash: string): boolean {
  if (!SHA256_HEX.test(storedHash)) return false;
  const expected = Buffer.from(storedHash, 'hex');
  const actual = Buffer.from(hashOtpCode(secret, verificationId, code), 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
