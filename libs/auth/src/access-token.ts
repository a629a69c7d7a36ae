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

export function issueAccessToken(claims: AccessTokenClaims, secret: string, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS): string {
  return jwt.sign({ cid: claims.cid }, secret, {
    algorithm: ALGORITHM,
    subject: claims.sub,
    issuer: ISSUER,
    expiresIn: ttlSeconds,
  });
}

/**
 * Verifies signature, algorithm (HS256 only: `none` and every other one are refused), issuer and
 * expiry. Returns the claims, or undefined for any token that is not one of ours and current.
 */
export function verifyAccessToken(token: string, secret: string): AccessTokenClaims | undefined {
  try {
    const payload = jwt.verify(token, secret, { algorithms: [ALGORITHM], issuer: ISSUER });
    if (typeof payload === 'string' || typeof payload.sub !== 'string' || typeof payload['cid'] !== 'string') {
      return undefined;
    }
    return { sub: payload.sub, cid: payload['cid'] };
  } catch {
    return undefined;
  }
}
