import { decodeText, isSupportedDataCoding } from './data-coding';

describe('decodeText', () => {
  it('decodes GSM, IA5, Latin-1 and UCS-2 (with surrogate pairs)', () => {
    expect(decodeText(0, Buffer.from([0x48, 0x69, 0x1b, 0x65]))).toBe('Hi€');
    expect(decodeText(1, Buffer.from('Hi @', 'ascii'))).toBe('Hi @');
    expect(decodeText(3, Buffer.from('Café ñ', 'latin1'))).toBe('Café ñ');
    expect(decodeText(8, Buffer.from('Привет 😀', 'utf16le').swap16())).toBe('Привет 😀');
  });

  it('ignores a dangling odd octet of UCS-2', () => {
    expect(decodeText(8, Buffer.from([0x00, 0x41, 0x00]))).toBe('A');
  });

  it('supports 0, 1, 3 and 8 only', () => {
    expect([0, 1, 3, 8].every(isSupportedDataCoding)).toBe(true);
    expect(isSupportedDataCoding(4)).toBe(false);
    expect(() => decodeText(4, Buffer.alloc(1))).toThrow('data_coding 4');
  });
});
