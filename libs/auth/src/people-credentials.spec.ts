import { csrfTokenFor, csrfTokenMatches, generateOpaqueToken, isOpaqueTokenShaped, tokenHash } from './opaque-tokens';
import { hashPassword, passwordMatches, spendPasswordCheck } from './passwords';

describe('passwords', () => {
  it('are kept as argon2id hashes with a salt of their own, which match the password and nothing else', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('correct horse');
    expect(await passwordMatches('correct horse battery', first)).toBe(true);
    expect(await passwordMatches('correct horse battery', second)).toBe(true);
    expect(await passwordMatches('correct horse batterY', first)).toBe(false);
    expect(await passwordMatches('', first)).toBe(false);
  });

  it('answer false, not an error, for a stored value that is no argon2 hash', async () => {
    expect(await passwordMatches('anything', 'not a hash')).toBe(false);
    expect(await passwordMatches('anything', '')).toBe(false);
  });

  it('spend a check on an unknown account too, and never match it', async () => {
    expect(await spendPasswordCheck('decoy password of no account')).toBe(false);
  });
});

describe('opaque tokens', () => {
  it('are 32 random bytes in base64url, stored as their SHA-256 only', () => {
    const token = generateOpaqueToken();
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(isOpaqueTokenShaped(token)).toBe(true);
    expect(generateOpaqueToken()).not.toBe(token);
    expect(tokenHash(token)).toHaveLength(32);
    expect(tokenHash(token).equals(tokenHash(token))).toBe(true);
    expect(tokenHash(token).equals(tokenHash(generateOpaqueToken()))).toBe(false);
  });

  it('tell a token from any other text before anything is looked up', () => {
    for (const text of ['', 'short', `${generateOpaqueToken()}x`, `${generateOpaqueToken().slice(1)}=`, 'a'.repeat(42) + '/']) {
      expect(isOpaqueTokenShaped(text)).toBe(false);
    }
  });

  it("give each session a CSRF token of its own that only that session's token matches", () => {
    const session = generateOpaqueToken();
    const other = generateOpaqueToken();
    const csrf = csrfTokenFor(session);
    expect(csrf).not.toBe(session);
    expect(csrf).toBe(csrfTokenFor(session));
    expect(csrfTokenMatches(session, csrf)).toBe(true);
    expect(csrfTokenMatches(other, csrf)).toBe(false);
    expect(csrfTokenMatches(session, undefined)).toBe(false);
    expect(csrfTokenMatches(session, '')).toBe(false);
    expect(csrfTokenMatches(session, `${csrf}x`)).toBe(false);
  });
});
