import { BodyReader, BodyWriter, CommandId, encodePdu, isResponse, PduError, PduFramer } from './pdu';

describe('PDU framing', () => {
  const enquire = encodePdu(CommandId.enquire_link, 0, 7);
  const submitResp = encodePdu(CommandId.submit_sm_resp, 0, 8, Buffer.from('abc\0'));

  it('encodes the header', () => {
    expect(enquire.toString('hex')).toBe('00000010000000150000000000000007');
    expect(submitResp.readUInt32BE(0)).toBe(20);
  });

  it('cuts PDUs out of a stream however it is chunked', () => {
    const stream = Buffer.concat([enquire, submitResp]);
    const framer = new PduFramer();
    const pdus = [...framer.push(stream.subarray(0, 3)), ...framer.push(stream.subarray(3, 17)), ...framer.push(stream.subarray(17))];
    expect(pdus).toEqual([
      { commandId: CommandId.enquire_link, status: 0, sequence: 7, body: Buffer.alloc(0) },
      { commandId: CommandId.submit_sm_resp, status: 0, sequence: 8, body: Buffer.from('abc\0') },
    ]);
    expect(isResponse(pdus[1].commandId)).toBe(true);
  });

  it('refuses a command_length no PDU can have', () => {
    expect(() => new PduFramer().push(Buffer.from([0, 0, 0, 4]))).toThrow(PduError);
    expect(() => new PduFramer().push(Buffer.from([0x7f, 0, 0, 0]))).toThrow(/out of range/);
  });
});

describe('PDU bodies', () => {
  it('writes and reads fields and TLVs', () => {
    const body = new BodyWriter()
      .cstring('esme')
      .u8(5)
      .bytes(Buffer.from([1, 2]))
      .tlv(0x0204, Buffer.from([0x01, 0x02]))
      .toBuffer();
    const reader = new BodyReader(body);
    expect([reader.cstring(), reader.u8(), reader.bytes(2)]).toEqual(['esme', 5, Buffer.from([1, 2])]);
    expect(reader.tlvs()).toEqual(new Map([[0x0204, Buffer.from([0x01, 0x02])]]));
  });

  it('throws PduError on a missing NUL or a truncated field', () => {
    expect(() => new BodyReader(Buffer.from('abc')).cstring()).toThrow(PduError);
    expect(() => new BodyReader(Buffer.from([1])).bytes(2)).toThrow(/truncated/);
    expect(() => new BodyReader(Buffer.from([0x02, 0x04, 0x00, 0x05, 0x01])).tlvs()).toThrow(/truncated/);
  });
});
