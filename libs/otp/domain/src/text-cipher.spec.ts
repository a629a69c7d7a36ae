import { randomBytes } from 'node:crypto';
import { isSealedText, openText, parseTextKey, sealText, TextCipherError } from './text-cipher';

describe('text-cipher', () => {
  const key = randomBytes(32);
  const text = 'Your Acme verification code is 482913. It expires in 10 minutes.';

  describe('parseTextKey', () => {
    it('decodes a 32-byte base64 key', () => {
      expect(parseTextKey(key.toString('base64')).equals(key)).toBe(true);
      expect(parseTextKey(` ${key.toString('base64')}\n`).equals(key)).toBe(true);
    });

    it.each([
      ['', /not base64/],
      ['not base64!', /not base64/],
      [randomBytes(16).toString('base64'), /32 bytes, not 16/],
      [randomBytes(33).toString('base64'), /32 bytes, not 33/],
    ])('refuses %p', (text, message) => {
      expect(() => parseTextKey(text)).toThrow(TextCipherError);
      expect(() => parseTextKey(text)).toThrow(message);
    });
  });

  it.each([
    ['an OTP text', text],
    ['emoji and accents', 'Code 1234 🔐 pour Zoë — 认证码 👍🏽'],
    ['the empty text', ''],
  ])('round-trips %s', (_name, plaintext) => {
    const sealed = sealText(key, plaintext);
    expect(isSealedText(sealed)).toBe(true);
    expect(openText(key, sealed)).toBe(plaintext);
  });

  it('has the v1.<iv>.<tag>.<ciphertext> format in base64url', () => {
    const [version, iv, tag, ciphertext, ...rest] = sealText(key, text).split('.');
    expect(version).toBe('v1');
    expect(Buffer.from(iv, 'base64url')).toHaveLength(12);
    expect(Buffer.from(tag, 'base64url')).toHaveLength(16);
    expect(Buffer.from(ciphertext, 'base64url')).toHaveLength(Buffer.byteLength(text));
    expect(rest).toEqual([]);
  });

  it('does not show the text or the code', () => {
    const sealed = sealText(key, text);
    expect(sealed).not.toContain(text);
    expect(sealed).not.toContain('482913');
  });

  it('seals the same text differently each time', () => {
    expect(sealText(key, text)).not.toBe(sealText(key, text));
  });

  it('never gives two seals the same IV, also across refills of the pool of IVs', () => {
    const seals = Array.from({ length: 1000 }, () => sealText(key, text));
    expect(new Set(seals.map((seal) => seal.split('.')[1])).size).toBe(1000);
    expect(seals.every((seal) => openText(key, seal) === text)).toBe(true);
  });

  it('refuses a changed ciphertext', () => {
    const [version, iv, tag, ciphertext] = sealText(key, text).split('.');
    const bytes = Buffer.from(ciphertext, 'base64url');
    bytes[0] ^= 1;
    expect(() => openText(key, [version, iv, tag, bytes.toString('base64url')].join('.'))).toThrow(TextCipherError);
  });

  it('refuses a changed tag', () => {
    const [version, iv, tag, ciphertext] = sealText(key, text).split('.');
    const bytes = Buffer.from(tag, 'base64url');
    bytes[15] ^= 0x80;
    expect(() => openText(key, [version, iv, bytes.toString('base64url'), ciphertext].join('.'))).toThrow(/changed or sealed with another key/);
  });

  it('refuses a changed IV', () => {
    const [version, iv, tag, ciphertext] = sealText(key, text).split('.');
    const bytes = Buffer.from(iv, 'base64url');
    bytes[0] ^= 1;
    const sealed = [version, bytes.toString('base64url'), tag, ciphertext].join('.');
    expect(() => openText(key, sealed)).toThrow(TextCipherError);
  });

  it('refuses a truncated tag', () => {
    const [version, iv, tag, ciphertext] = sealText(key, text).split('.');
    const short = Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => openText(key, [version, iv, short, ciphertext].join('.'))).toThrow(TextCipherError);
  });

  it('refuses another key', () => {
    expect(() => openText(randomBytes(32), sealText(key, text))).toThrow(/changed or sealed with another key/);
  });

  it.each([
    '',
    text,
    'v2.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA',
    'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA',
    'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AA+A',
    'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA.AAAA',
  ])('refuses the malformed seal %p', (sealed) => {
    expect(isSealedText(sealed)).toBe(false);
    expect(() => openText(key, sealed)).toThrow(/not a sealed text/);
  });

  it('refuses a key of the wrong size', () => {
    expect(() => sealText(randomBytes(16), text)).toThrow(/32 bytes, not 16/);
    expect(() => openText(randomBytes(16), sealText(key, text))).toThrow(/32 bytes, not 16/);
  });
});
