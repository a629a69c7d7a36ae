import { decodeConcatenationHeader, decodeGsm7, decodeUcs2, EncodedPart, encodeSmsParts } from './concatenation';
import { encodeGsm7, encodeUcs2, splitSms, SmsTextError } from './sms-text';

const partIndex = (part: EncodedPart) => (part.udh ? decodeConcatenationHeader(part.udh)?.index : undefined) ?? 0;

/** What the SMSC simulator does: order the parts by their header and decode each. */
function reassemble(parts: readonly EncodedPart[]): string {
  return [...parts]
    .sort((a, b) => partIndex(a) - partIndex(b))
    .map((part) => (part.dataCoding === 0 ? decodeGsm7(part.payload) : decodeUcs2(part.payload)))
    .join('');
}

describe('encodeSmsParts', () => {
  it('sends a one-part text without a header', () => {
    expect(encodeSmsParts(splitSms('Hello @ €'), 7)).toEqual([{ index: 1, total: 1, dataCoding: 0, udh: null, payload: encodeGsm7('Hello @ €') }]);
    expect(encodeSmsParts(splitSms('Hello 😀'), 7)).toMatchObject([{ dataCoding: 8, udh: null, payload: encodeUcs2('Hello 😀') }]);
  });

  it('gives each part of a long text the 8-bit concatenation header', () => {
    const parts = encodeSmsParts(splitSms('a'.repeat(307)), 0xab);
    expect(parts.map((part) => [...(part.udh ?? [])])).toEqual([
      [0x05, 0x00, 0x03, 0xab, 3, 1],
      [0x05, 0x00, 0x03, 0xab, 3, 2],
      [0x05, 0x00, 0x03, 0xab, 3, 3],
    ]);
    expect(parts.map((part) => part.payload.length)).toEqual([153, 153, 1]);
  });

  it('writes UCS-2 parts with data coding 8 and two octets per unit', () => {
    const parts = encodeSmsParts(splitSms('ç'.repeat(71)), 1);
    expect(parts.map((part) => [part.dataCoding, part.total, part.payload.length])).toEqual([
      [8, 2, 134],
      [8, 2, 8],
    ]);
  });

  it.each([-1, 256, 1.5, NaN])('refuses the reference %p', (reference) => {
    expect(() => encodeSmsParts(splitSms('hi'), reference)).toThrow(RangeError);
  });

  it.each([
    ['multipart GSM-7 with escapes', 'Price {EUR}: 10€ ^_^ [ok] ~ |pipe| \\ '.repeat(30)],
    ['multipart UCS-2 with emoji', 'Привет 😀 — ça va? '.repeat(40)],
    ['an escape pair at the part boundary', 'a'.repeat(152) + '€' + 'b'.repeat(200)],
    ['an emoji at the part boundary', 'ç' + 'a'.repeat(65) + '😀' + 'b'.repeat(100)],
  ])('round-trips %s through encode, decode and join', (_name, text) => {
    const parts = encodeSmsParts(splitSms(text), 42);
    expect(parts.length).toBeGreaterThan(1);
    expect(reassemble([...parts].reverse())).toBe(text);
  });
});

describe('decodeConcatenationHeader', () => {
  it('reads the 8-bit reference form', () => {
    expect(decodeConcatenationHeader(Buffer.from([0x05, 0x00, 0x03, 0x2a, 4, 2]))).toEqual({ reference: 42, total: 4, index: 2 });
  });

  it('reads the 16-bit reference form', () => {
    expect(decodeConcatenationHeader(Buffer.from([0x06, 0x08, 0x04, 0x12, 0x34, 3, 3]))).toEqual({
      reference: 0x1234,
      total: 3,
      index: 3,
    });
  });

  it('finds the element after others and ignores the text after the header', () => {
    const udh = Buffer.from([0x09, 0x0a, 0x02, 0x00, 0x01, 0x00, 0x03, 0x07, 2, 1, 0x61, 0x62]);
    expect(decodeConcatenationHeader(udh)).toEqual({ reference: 7, total: 2, index: 1 });
  });

  it.each([
    ['empty', []],
    ['cut short', [0x05, 0x00, 0x03, 0x01, 2]],
    ['an element overrunning the header', [0x04, 0x00, 0x03, 0x01, 2]],
    ['no concatenation element', [0x04, 0x0a, 0x02, 0x00, 0x01]],
    ['a wrong element length', [0x05, 0x00, 0x02, 0x01, 2, 1]],
    ['zero parts', [0x05, 0x00, 0x03, 0x01, 0, 0]],
    ['index zero', [0x05, 0x00, 0x03, 0x01, 2, 0]],
    ['index beyond the total', [0x05, 0x00, 0x03, 0x01, 2, 3]],
  ])('answers null for %s', (_name, bytes) => {
    expect(decodeConcatenationHeader(Buffer.from(bytes))).toBeNull();
  });
});

describe('decodeGsm7', () => {
  it('inverts encodeGsm7 over the whole alphabet', () => {
    const text = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./09:;<=>?¡AZÄÖÑÜ§¿azäöñüà\f^{}\\[~]|€';
    expect(decodeGsm7(encodeGsm7(text))).toBe(text);
  });

  it('shows an unknown escape as the basic character, and 1B 1B as a space (TS 23.038)', () => {
    expect(decodeGsm7(Buffer.from([0x1b, 0x41, 0x1b, 0x1b, 0x62]))).toBe('A b');
  });

  it('refuses a trailing escape and octets beyond 0x7F', () => {
    expect(() => decodeGsm7(Buffer.from([0x61, 0x1b]))).toThrow(SmsTextError);
    expect(() => decodeGsm7(Buffer.from([0x80]))).toThrow('0x80 is not a GSM-7 septet');
  });
});

describe('decodeUcs2', () => {
  it('inverts encodeUcs2 and leaves its input alone', () => {
    const bytes = encodeUcs2('Hi 😀 ç');
    const copy = Buffer.from(bytes);
    expect(decodeUcs2(bytes)).toBe('Hi 😀 ç');
    expect(bytes).toEqual(copy);
  });

  it('refuses an odd number of octets', () => {
    expect(() => decodeUcs2(Buffer.from([0x00, 0x61, 0x00]))).toThrow(SmsTextError);
  });
});
