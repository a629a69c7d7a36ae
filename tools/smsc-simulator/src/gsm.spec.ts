import { decodeGsm, encodeGsm, isGsmText } from './gsm';

describe('GSM 03.38 default alphabet, unpacked', () => {
  it('decodes the basic table, where it differs from ASCII too', () => {
    expect(decodeGsm(Buffer.from('Hello 123', 'latin1'))).toBe('Hello 123');
    expect(decodeGsm(Buffer.from([0x00, 0x01, 0x02, 0x11, 0x24, 0x40, 0x5f, 0x60, 0x7f, 0x0a]))).toBe('@£$_¤¡§¿à\n');
  });

  it('decodes the extension table after 0x1B', () => {
    const octets = [0x1b, 0x65, 0x1b, 0x28, 0x1b, 0x29, 0x1b, 0x3c, 0x1b, 0x3e, 0x1b, 0x3d, 0x1b, 0x2f, 0x1b, 0x40, 0x1b, 0x14, 0x1b, 0x0a];
    expect(decodeGsm(Buffer.from(octets))).toBe('€{}[]~\\|^\f');
  });

  it('shows the basic character for an undefined extension, nothing for a trailing escape, ? for 8-bit octets', () => {
    expect(decodeGsm(Buffer.from([0x1b, 0x41, 0x42]))).toBe('AB');
    expect(decodeGsm(Buffer.from([0x41, 0x1b]))).toBe('A');
    expect(decodeGsm(Buffer.from([0x41, 0xe9]))).toBe('A?');
  });

  it('encodes what it decodes, and ? for what is not in the alphabet', () => {
    const text = 'Prix: 5€ {ok} [x] ~^|\\ @£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ¤¡ÄÖÑÜ§¿äöñüà';
    expect(decodeGsm(encodeGsm(text))).toBe(text);
    expect(encodeGsm('€')).toEqual(Buffer.from([0x1b, 0x65]));
    expect(decodeGsm(encodeGsm('Привет'))).toBe('??????');
  });

  it('tells GSM text from text that needs UCS-2', () => {
    expect(isGsmText('Hello {world} €5')).toBe(true);
    expect(isGsmText('Hello ✓')).toBe(false);
  });
});

describe('GSM 03.38 edge cases', () => {
  it('turns a character outside the BMP into one ?, and a lone surrogate into one ?', () => {
    expect(decodeGsm(encodeGsm('a😀b'))).toBe('a?b');
    expect(decodeGsm(encodeGsm('a\ud83db'))).toBe('a?b');
    expect(isGsmText('a😀')).toBe(false);
  });

  it('decodes an empty payload and the escape before an escape as a space', () => {
    expect(decodeGsm(Buffer.alloc(0))).toBe('');
    expect(decodeGsm(Buffer.from([0x1b, 0x1b, 0x41]))).toBe(' A');
  });
});
