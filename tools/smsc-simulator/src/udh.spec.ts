import { splitUserData } from './udh';

describe('splitUserData', () => {
  const payload = Buffer.from('hello', 'latin1');

  it('returns the whole user data as payload without a UDHI', () => {
    expect(splitUserData(payload, false)).toEqual({ udh: Buffer.alloc(0), payload, concatenation: null });
  });

  it('reads an 8-bit concatenation IE (IEI 0x00)', () => {
    const udh = Buffer.from([0x05, 0x00, 0x03, 0xa7, 0x03, 0x02]);
    expect(splitUserData(Buffer.concat([udh, payload]), true)).toEqual({
      udh,
      payload,
      concatenation: { reference: 0xa7, referenceBits: 8, total: 3, sequence: 2 },
    });
  });

  it('reads a 16-bit concatenation IE (IEI 0x08) among other IEs', () => {
    const udh = Buffer.from([0x0c, 0x05, 0x04, 0x0b, 0x84, 0x23, 0xf0, 0x08, 0x04, 0x12, 0x34, 0x02, 0x01]);
    expect(splitUserData(Buffer.concat([udh, payload]), true)?.concatenation).toEqual({ reference: 0x1234, referenceBits: 16, total: 2, sequence: 1 });
  });

  it('ignores a concatenation IE with a sequence out of range, as TS 23.040 says', () => {
    expect(splitUserData(Buffer.from([0x05, 0x00, 0x03, 0x01, 0x02, 0x03, 0x41]), true)?.concatenation).toBeNull();
    expect(splitUserData(Buffer.from([0x05, 0x00, 0x03, 0x01, 0x00, 0x00, 0x41]), true)?.concatenation).toBeNull();
  });

  it('refuses a header longer than the user data or with an IE running past it', () => {
    expect(splitUserData(Buffer.from([0x05, 0x00, 0x03]), true)).toBeNull();
    expect(splitUserData(Buffer.from([0x03, 0x00, 0x03, 0x01, 0x41]), true)).toBeNull();
    expect(splitUserData(Buffer.alloc(0), true)).toBeNull();
  });
});
