import { createHmac } from 'node:crypto';
import { hashOtpCode, otpCodeMatches } from './code-hash';

describe('code-hash', () => {
  const secret = Buffer.from('a secret of the deployment, 32 b');
  const id = '0f8b6a6e-5d6f-4f4e-9c36-3c1f1b7e2a10';

  it('is the hex HMAC-SHA-256 of "<verification id>:<code>"', () => {
    const expected = createHmac('sha256', secret).update(`${id}:123456`).digest('hex');
    expect(hashOtpCode(secret, id, '123456')).toBe(expected);
    expect(hashOtpCode(secret, id, '123456')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does not contain the code', () => {
    expect(hashOtpCode(secret, id, '123456')).not.toContain('123456');
  });

  it('binds the hash to the verification', () => {
    expect(hashOtpCode(secret, 'other-verification', '123456')).not.toBe(hashOtpCode(secret, id, '123456'));
  });

  it('depends on the secret', () => {
    expect(hashOtpCode(Buffer.from('another secret'), id, '123456')).not.toBe(hashOtpCode(secret, id, '123456'));
  });

  it('matches the right code only', () => {
    const stored = hashOtpCode(secret, id, '123456');
    expect(otpCodeMatches(secret, id, '123456', stored)).toBe(true);
    expect(otpCodeMatches(secret, id, '123457', stored)).toBe(false);
    expect(otpCodeMatches(secret, id, '', stored)).toBe(false);
  });

  it('does not match the hash of the same code on another verification', () => {
    const stored = hashOtpCode(secret, 'other-verification', '123456');
    expect(otpCodeMatches(secret, id, '123456', stored)).toBe(false);
  });

  it('accepts the stored hash in upper case', () => {
    expect(otpCodeMatches(secret, id, '123456', hashOtpCode(secret, id, '123456').toUpperCase())).toBe(true);
  });

  it.each(['', 'abc', 'zz'.repeat(32), '0'.repeat(63), '0'.repeat(66), ` ${'0'.repeat(64)}`])(
    'refuses the malformed stored hash %p without throwing',
    (stored) => {
      expect(otpCodeMatches(secret, id, '123456', stored)).toBe(false);
    },
  );

  it('does not match a well-formed hash of a truncated value', () => {
    const stored = hashOtpCode(secret, id, '123456');
    expect(otpCodeMatches(secret, id, '123456', `${stored.slice(0, 62)}00`)).toBe(false);
  });
});
