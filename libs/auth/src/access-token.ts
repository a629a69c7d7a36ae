import jwt from 'jsonwebtoken';

/** Claims of the JWTs POST /auth/token issues. */
export interface AccessTokenClaims {
  /** The API key id (not the public key) the token was issued for; revoking the key ends it. */
  sub: string;
  /** The company the key belongs to. */
  cid: string;
}

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
const ALGORITHM = 'HS256';
const ISSUER = 'messaging-platform';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function issueAccessToken(claims: AccessTokenClaims, secret: string, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS): string {
  return jwt.sign({ cid: claims.cid }, secret, {
    algorithm: ALGORITHM,
    subject: claims.sub,
    issuer: ISSUER,
    expiresIn: ttlSeconds,
  });
}

/**
 * Verifies signature, algorithm (HS256 only: `none` and every other one are refused), issuer,
 * expiry and that `sub` and `cid` are UUIDs. Returns the claims, or undefined for any token that is not one of ours and current.
 */
export function verifyAccessToken(token: string, secret: string): AccessTokenClaims | undefined {
  try {
    const payload = jwt.verify(token, secret, { algorithms: [ALGORITHM], issuer: ISSUER });
    // Signed with our secret is not enough to be ours: the ids must be ids (a token signed
    // elsewhere with a leaked secret, or by an older version, must not reach the database as is).
    if (typeof payload === 'string' || typeof payload.sub !== 'string' || typeof payload['cid'] !== 'string') return undefined;
    if (!UUID.test(payload.sub) || !UUID.test(payload['cid'])) return undefined;
    return { sub: payload.sub, cid: payload['cid'] };
  } catch {
    return undefined;
  }
}
