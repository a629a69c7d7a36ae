import { GSM_ESCAPE, gsmBasicCharacter, gsmExtensionCharacter, gsmSeptets } from './gsm-alphabet';

describe('GSM 03.38 alphabet', () => {
  it('has the 127 characters of the basic table at their standard codes', () => {
    const basic =
      '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' + '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
    expect([...basic]).toHaveLength(128);
    [...basic].forEach((character, code) => {
      if (code === GSM_ESCAPE) return;
      expect(gsmSeptets(character)).toEqual([code]);
      expect(gsmBasicCharacter(code)).toBe(character);
    });
  });

  it.each([
    ['\f', 0x0a],
    ['^', 0x14],
    ['{', 0x28],
    ['}', 0x29],
    ['\\', 0x2f],
    ['[', 0x3c],
    ['~', 0x3d],
    [']', 0x3e],
    ['|', 0x40],
    ['€', 0x65],
  ])('escapes %p as 1B %p', (character, code) => {
    expect(gsmSeptets(character)).toEqual([GSM_ESCAPE, code]);
    expect(gsmExtensionCharacter(code)).toBe(character);
  });

  it.each(['ç', 'á', '`', '\t', '😀', 'Ё', '\u001b'])('has no septet for %p', (character) => {
    expect(gsmSeptets(character)).toBeNull();
  });

  it('has nothing beyond 0x7F', () => {
    expect(gsmBasicCharacter(0x80)).toBeUndefined();
    expect(gsmExtensionCharacter(0x41)).toBeUndefined();
  });
});
