import { splitSms } from './sms-text';
import { findUcs2Character } from './ucs2-character';

describe('findUcs2Character', () => {
  it('is null for GSM-7 text, the extension table (€, braces) included', () => {
    expect(findUcs2Character('Your code is 123456. Café à 5€ {ok} [x] ~^|\\')).toBeNull();
    expect(findUcs2Character('')).toBeNull();
  });

  it('names the first character outside GSM 03.38 with its 1-based position', () => {
    expect(findUcs2Character('Kod: 1234 – ważny')).toEqual({ character: '–', position: 11 });
    expect(findUcs2Character('Zażółć')).toEqual({ character: 'ż', position: 3 });
  });

  it('counts an emoji as one character, before and at its position', () => {
    expect(findUcs2Character('😀 hi ✓')).toEqual({ character: '😀', position: 1 });
    expect(findUcs2Character('ok 😀 ✓')).toEqual({ character: '😀', position: 4 });
    expect(findUcs2Character('é€😀ą')).toEqual({ character: '😀', position: 3 });
  });

  it('agrees with the character splitSms says forced UCS-2', () => {
    for (const text of ['Привет 1234', 'Code 1234 ✓', 'naïve ç Ç', 'Straße 1234', 'a\u00a0b']) {
      expect(findUcs2Character(text)?.character ?? null).toBe(splitSms(text).firstNonGsmCharacter);
    }
  });
});
