import { countSmsParts, encodeGsm7, encodeUcs2, MAX_SMS_CHARACTERS, splitSms, SmsTextError } from './sms-text';

const unitsOf = (text: string) => splitSms(text).parts.map((part) => part.units);
const textsOf = (text: string) => splitSms(text).parts.map((part) => part.text);

describe('splitSms, GSM-7', () => {
  it.each([
    [1, 1],
    [160, 1],
    [161, 2],
    [153 * 2, 2],
    [307, 3],
    [153 * 3, 3],
    [1600, 11],
  ])('sends %p GSM characters as %p parts', (length, parts) => {
    const text = 'a'.repeat(length);
    expect(countSmsParts(text)).toBe(parts);
    expect(splitSms(text)).toMatchObject({ encoding: 'GSM-7', units: length, firstNonGsmCharacter: null });
  });

  it('fills 153 septets per part and numbers the parts from 1', () => {
    const split = splitSms('a'.repeat(307));
    expect(split.parts.map((part) => [part.index, part.units])).toEqual([
      [1, 153],
      [2, 153],
      [3, 1],
    ]);
  });

  it('counts extension characters as two septets', () => {
    expect(splitSms('€^{}\\[~]|\f')).toMatchObject({ encoding: 'GSM-7', units: 20 });
    expect(countSmsParts('€'.repeat(80))).toBe(1);
    expect(countSmsParts('€'.repeat(81))).toBe(2);
  });

  it('moves an escape pair whole to the next part rather than split it', () => {
    const text = 'a'.repeat(152) + '€' + 'b'.repeat(10);
    expect(unitsOf(text)).toEqual([152, 12]);
    expect(textsOf(text)).toEqual(['a'.repeat(152), '€' + 'b'.repeat(10)]);
  });

  it('fills a part to 153 when the escape pair ends exactly there', () => {
    expect(unitsOf('a'.repeat(151) + '€' + 'b'.repeat(10))).toEqual([153, 10]);
  });

  it('keeps the accented capitals and symbols of the basic table in GSM-7', () => {
    const split = splitSms('Ça va? @£$¥èéùìòØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ ¤ÄÖÑÜ§¿äöñüà\r\n');
    expect(split.encoding).toBe('GSM-7');
    expect(split.firstNonGsmCharacter).toBeNull();
  });
});

describe('splitSms, UCS-2', () => {
  it.each([
    [70, 1],
    [71, 2],
    [67 * 2, 2],
    [135, 3],
  ])('sends %p UCS-2 characters as %p parts', (length, parts) => {
    const text = 'ç'.repeat(length);
    expect(countSmsParts(text)).toBe(parts);
    expect(splitSms(text)).toMatchObject({ encoding: 'UCS-2', units: length });
  });

  it('makes the whole text UCS-2 for one non-GSM character, escapes included', () => {
    const split = splitSms('€'.repeat(40) + 'ç');
    expect(split).toMatchObject({ encoding: 'UCS-2', units: 41, firstNonGsmCharacter: 'ç' });
    expect(split.parts).toHaveLength(1);
  });

  it('counts an emoji as two units', () => {
    expect(splitSms('😀'.repeat(35))).toMatchObject({ units: 70, parts: [{ units: 70 }] });
    expect(countSmsParts('😀'.repeat(36))).toBe(2);
  });

  it('moves an emoji at the 67/68 boundary whole to the next part', () => {
    const text = 'ç' + 'a'.repeat(65) + '😀' + 'b'.repeat(10);
    expect(unitsOf(text)).toEqual([66, 12]);
    expect(textsOf(text)).toEqual(['ç' + 'a'.repeat(65), '😀' + 'b'.repeat(10)]);
  });

  it.each([
    ['Hello 😀', '😀'],
    ['Ça va', null],
    ['ça va', 'ç'],
    ['Price: 5 € or 5 ₽', '₽'],
  ])('names the first character that forced UCS-2 in %p', (text, character) => {
    expect(splitSms(text).firstNonGsmCharacter).toBe(character);
  });
});

describe('splitSms, limits', () => {
  it.each(['a'.repeat(1000) + '€'.repeat(600), 'Ünïcödé ✓ '.repeat(100) + '😀'.repeat(600), '€'.repeat(1600), '😀'.repeat(MAX_SMS_CHARACTERS)])(
    'joins its parts back into the input (%#)',
    (text) => {
      const split = splitSms(text);
      expect(split.parts.map((part) => part.text).join('')).toBe(text);
      expect(split.parts.reduce((sum, part) => sum + part.units, 0)).toBe(split.units);
    },
  );

  it('takes 1600 code points, emoji counted once', () => {
    expect(countSmsParts('😀'.repeat(1600))).toBe(Math.ceil(1600 / 33));
    expect(countSmsParts('€'.repeat(1600))).toBe(Math.ceil(1600 / 76));
  });

  it('refuses an empty text', () => {
    expect(() => splitSms('')).toThrow(SmsTextError);
    expect(() => splitSms('')).toThrow('message is required');
  });

  it('refuses more than 1600 code points', () => {
    expect(() => countSmsParts('a'.repeat(1601))).toThrow('message must be at most 1600 characters');
    expect(() => splitSms('😀'.repeat(1601))).toThrow(SmsTextError);
  });
});

describe('encodeGsm7', () => {
  it('writes one octet per septet, unpacked', () => {
    expect([...encodeGsm7('@')]).toEqual([0x00]);
    expect([...encodeGsm7('Hi!\n')]).toEqual([0x48, 0x69, 0x21, 0x0a]);
    expect([...encodeGsm7('£Çà')]).toEqual([0x01, 0x09, 0x7f]);
  });

  it('escapes extension characters', () => {
    expect([...encodeGsm7('€')]).toEqual([0x1b, 0x65]);
    expect([...encodeGsm7('a{b}')]).toEqual([0x61, 0x1b, 0x28, 0x62, 0x1b, 0x29]);
  });

  it('refuses a character outside the alphabet', () => {
    expect(() => encodeGsm7('ça')).toThrow(SmsTextError);
    expect(() => encodeGsm7('ça')).toThrow('"ç" is not in the GSM 03.38 alphabet');
  });
});

describe('encodeUcs2', () => {
  it('writes UTF-16 big-endian, a surrogate pair as two units', () => {
    expect([...encodeUcs2('aç')]).toEqual([0x00, 0x61, 0x00, 0xe7]);
    expect([...encodeUcs2('😀')]).toEqual([0xd8, 0x3d, 0xde, 0x00]);
  });
});
