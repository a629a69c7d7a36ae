/** What a request presents, before anything is looked up. */
export type PresentedCredentials =
  { kind: 'key-pair'; key: string; secret: string } | { kind: 'jwt'; token: string } | { kind: 'none' } | { kind: 'malformed' };

export interface CredentialHeaders {
  authorization?: string | string[];
  'x-api-key'?: string | string[];
  'x-api-secret'?: string | string[];
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * Reads the three schemes the API accepts: X-API-Key + X-API-Secret, Basic (key:secret), and
 * Bearer, which carries either a JWT from POST /auth/token or base64 of key:secret.
 */
export function readPresentedCredentials(headers: CredentialHeaders): PresentedCredentials {
  const key = single(headers['x-api-key']);
  const secret = single(headers['x-api-secret']);
  if (key !== undefined || secret !== undefined) {
    return key && secret ? { kind: 'key-pair', key, secret } : { kind: 'malformed' };
  }
  const authorization = single(headers.authorization);
  if (authorization === undefined) return { kind: 'none' };
  const [scheme, value, ...extra] = authorization.trim().split(/\s+/);
  if (!value || extra.length > 0) return { kind: 'malformed' };
  switch (scheme.toLowerCase()) {
    case 'basic':
      return decodeKeyPair(value);
    case 'bearer':
      return JWT_SHAPE.test(value) ? { kind: 'jwt', token: value } : decodeKeyPair(value);
    default:
      return { kind: 'malformed' };
  }
}

function decodeKeyPair(encoded: string): PresentedCredentials {
  if (!BASE64.test(encoded)) return { kind: 'malformed' };
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return { kind: 'malformed' };
  return { kind: 'key-pair', key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

function single(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? undefined : first;
}
