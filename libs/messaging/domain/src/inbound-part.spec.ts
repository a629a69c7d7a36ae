import { encodeSmsParts } from './concatenation';
import { joinInboundParts, readInboundPart } from './inbound-part';
import { encodeGsm7, splitSms } from './sms-text';

describe('readInboundPart', () => {
  it('reads a single GSM-7 part with extension characters', () => {
    const part = readInboundPart({ esmClass: 0, dataCoding: 0, userData: encodeGsm7('STOP {now} €5'), sar: null });
    expect(part).toEqual({ text: 'STOP {now} €5', concatenation: null });
  });

  it('reads UCS-2 parts with an 8-bit reference UDH and joins them in any order', () => {
    const text = 'Привет! '.repeat(20);
    const parts = encodeSmsParts(splitSms(text), 42).map((encoded) =>
      readInboundPart({ esmClass: 0x40, dataCoding: 8, userData: Buffer.concat([encoded.udh as Buffer, encoded.payload]), sar: null }),
    );
    expect(parts.map((part) => part.concatenation)).toEqual([
      { reference: 42, total: 3, index: 1 },
      { reference: 42, total: 3, index: 2 },
      { reference: 42, total: 3, index: 3 },
    ]);
    const pieces = parts.map((part) => ({ index: part.concatenation?.index ?? 0, text: part.text }));
    expect(joinInboundParts(3, [pieces[2], pieces[0], pieces[1]])).toBe(text);
  });

  it('reads a 16-bit reference UDH', () => {
    const udh = Buffer.from([0x06, 0x08, 0x04, 0x12, 0x34, 0x02, 0x02]);
    const part = readInboundPart({ esmClass: 0x40, dataCoding: 0, userData: Buffer.concat([udh, encodeGsm7('world')]), sar: null });
    expect(part).toEqual({ text: 'world', concatenation: { reference: 0x1234, total: 2, index: 2 } });
  });

  it('reads the SAR TLVs when there is no UDH', () => {
    const part = readInboundPart({ esmClass: 0, dataCoding: 0, userData: encodeGsm7('hello'), sar: { reference: 300, total: 2, sequence: 1 } });
    expect(part).toEqual({ text: 'hello', concatenation: { reference: 300, total: 2, index: 1 } });
  });

  it('refuses a data_coding it cannot read', () => {
    expect(() => readInboundPart({ esmClass: 0, dataCoding: 4, userData: Buffer.from([1, 2]), sar: null })).toThrow(/data_coding 4/);
  });
});

describe('joinInboundParts', () => {
  it('waits while a part is missing and counts a repeated part once', () => {
    expect(
      joinInboundParts(3, [
        { index: 1, text: 'a' },
        { index: 1, text: 'a' },
        { index: 3, text: 'c' },
      ]),
    ).toBeNull();
    expect(
      joinInboundParts(2, [
        { index: 2, text: 'b' },
        { index: 1, text: 'a' },
        { index: 2, text: 'b' },
      ]),
    ).toBe('ab');
  });
});
