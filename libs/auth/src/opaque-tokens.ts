import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Bytes of a session or invitation token: 256 bits, never guessed. */
const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * A bearer token for people (a dashboard session, an invitation link): 32 random bytes in
 * base64url. Only its hash is stored (tokenHash), so a copy of the database opens no session.
 */
export function generateOpaqueToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** Whether a presented text could be a token generateOpaqueToken made; nothing else is looked up. */
export function isOpaqueTokenShaped(text: string): boolean {
  return TOKEN_SHAPE.test(text);
}

/**
 * What is stored of a token: its SHA-256. A token has 256 random bits, so no pepper or slow hash
 * is needed to make the stored digest useless for guessing it.
 */
export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * The CSRF token of a session: derived from the session's own token (HMAC), so nothing more is
 * stored, it changes with every session, and it reveals nothing of the session token (which
 * stays in an HttpOnly cookie). A page's script reads it from the session answer and sends it
 * back in a header, which a cross-site form cannot do.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('csrf', 'utf8').digest('base64url');
}

/** Constant-time comparison of a presented CSRF token with the session's. */
export function csrfTokenMatches(sessionToken: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const expected = Buffer.from(csrfTokenFor(sessionToken), 'utf8');
  const given = Buffer.from(presented, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
