import jwt from 'jsonwebtoken';
import { issueAccessToken, verifyAccessToken } from './access-token';
import { apiSecretMatches, generateApiKey, generateWebhookSecret, hashApiSecret } from './api-credentials';

const PEPPER = 'p'.repeat(40);
const JWT_SECRET = 'j'.repeat(40);

describe('API key pairs', () => {
  it('keeps only a peppered hash that matches the secret and nothing else', () => {
    const generated = generateApiKey(PEPPER);
    expect(generated.key).toMatch(/^mpk_[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(generated.secret, 'base64url')).toHaveLength(32);
    expect(generated.secretHash.equals(hashApiSecret(generated.secret, PEPPER))).toBe(true);
    expect(generated.secretHash.toString('utf8')).not.toContain(generated.secret);
    expect(apiSecretMatches(generated.secret, generated.secretHash, PEPPER)).toBe(true);
    expect(apiSecretMatches(generated.secret + 'x', generated.secretHash, PEPPER)).toBe(false);
    expect(apiSecretMatches(generated.secret, generated.secretHash, 'another-pepper')).toBe(false);
  });

  it('makes Standard Webhooks secrets of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
  });
});

describe('access tokens', () => {
  const claims = { sub: 'key-id', cid: 'company-id' };

  it('round-trips our own token', () => {
    expect(verifyAccessToken(issueAccessToken(claims, JWT_SECRET), JWT_SECRET)).toEqual(claims);
  });

  it('refuses a token signed with another secret', () => {
    expect(verifyAccessToken(issueAccessToken(claims, 'x'.repeat(40)), JWT_SECRET)).toBeUndefined();
  });

  it('refuses alg none', () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(
      JSON.stringify({ sub: 'key-id', cid: 'company-id', iss: 'messaging-platform', exp: Date.now() / 1000 + 60 }),
    ).toString('base64url');
    expect(verifyAccessToken(`${header}.${body}.`, JWT_SECRET)).toBeUndefined();
  });

  it('refuses another algorithm with the same secret', () => {
    const token = jwt.sign({ cid: 'c' }, JWT_SECRET, { algorithm: 'HS512', subject: 's', issuer: 'messaging-platform' });
    expect(verifyAccessToken(token, JWT_SECRET)).toBeUndefined();
  });

  it('refuses an expired token', () => {
    expect(verifyAccessToken(issueAccessToken(claims, JWT_SECRET, -10), JWT_SECRET)).toBeUndefined();
  });

  it('refuses a tampered payload', () => {
    const [header, , signature] = issueAccessToken(claims, JWT_SECRET).split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'key-id', cid: 'other', iss: 'messaging-platform' })).toString(
      'base64url',
    );
    expect(verifyAccessToken(`${header}.${forged}.${signature}`, JWT_SECRET)).toBeUndefined();
  });
});
