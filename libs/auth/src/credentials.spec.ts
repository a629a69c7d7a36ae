import jwt from 'jsonwebtoken';
import { issueAccessToken, verifyAccessToken } from './access-token';
import { apiSecretMatches, generateApiKey, generateWebhookSecret, hashApiSecret, isApiKeyShaped } from './api-credentials';

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

  it('tells a key it could have made from any other text, before anything is looked up', () => {
    expect(isApiKeyShaped(generateApiKey(PEPPER).key)).toBe(true);
    for (const text of ['mpk_unknown', '\u0000', 'mpk_FRbT-qc3bcj-MqRNTdaW7\u0000', `mpk_${'a'.repeat(23)}`, ' mpk_FRbT-qc3bcj-MqRNTdaW7A', '']) {
      expect(isApiKeyShaped(text)).toBe(false);
    }
  });

  it('makes Standard Webhooks secrets of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
  });
});

describe('access tokens', () => {
  const claims = { sub: '0193e8a0-1c2d-7e4f-8a9b-0c1d2e3f4a5b', cid: '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5' };

  it('round-trips our own token', () => {
    expect(verifyAccessToken(issueAccessToken(claims, JWT_SECRET), JWT_SECRET)).toEqual(claims);
  });

  it('refuses a token signed with our secret whose ids are not UUIDs', () => {
    expect(verifyAccessToken(issueAccessToken({ ...claims, sub: 'key-id' }, JWT_SECRET), JWT_SECRET)).toBeUndefined();
    expect(verifyAccessToken(issueAccessToken({ ...claims, cid: "x' OR 1=1" }, JWT_SECRET), JWT_SECRET)).toBeUndefined();
    expect(verifyAccessToken(issueAccessToken({ ...claims, sub: `${claims.sub}\u0000` }, JWT_SECRET), JWT_SECRET)).toBeUndefined();
  });

  it('refuses a token signed with another secret', () => {
    expect(verifyAccessToken(issueAccessToken(claims, 'x'.repeat(40)), JWT_SECRET)).toBeUndefined();
  });

  it('refuses alg none', () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ sub: 'key-id', cid: 'company-id', iss: 'messaging-platform', exp: Date.now() / 1000 + 60 })).toString(
      'base64url',
    );
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
    const forged = Buffer.from(JSON.stringify({ sub: 'key-id', cid: 'other', iss: 'messaging-platform' })).toString('base64url');
    expect(verifyAccessToken(`${header}.${forged}.${signature}`, JWT_SECRET)).toBeUndefined();
  });
});
