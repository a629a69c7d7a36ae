import { randomBytes } from 'node:crypto';
import { encodings, PDU } from 'smpp';
import { decodeGsmText, useTableGsmDecoding } from './gsm-text-decoding';

describe('GSM text decoding of the smpp package', () => {
  const packageDecode = encodings.ASCII.decode;
  beforeAll(() => useTableGsmDecoding());
  afterAll(() => {
    encodings.ASCII.decode = packageDecode;
  });

  it('decodes every octet, and every octet after an escape, as the package does', () => {
    const differing: string[] = [];
    for (let first = 0; first < 256; first += 1) {
      for (let second = 0; second < 256; second += 1) {
        const octets = Buffer.from([first, second]);
        if (decodeGsmText(octets) !== packageDecode(octets)) differing.push(octets.toString('hex'));
      }
    }
    expect(differing).toEqual([]);
  });

  it('decodes longer texts as the package does, escapes in a row and a trailing escape included', () => {
    const samples = [Buffer.from('id:abc sub:001 stat:DELIVRD text:Hi', 'latin1'), Buffer.from([0x1b, 0x1b, 0x28, 0x1b]), Buffer.alloc(0)];
    for (let i = 0; i < 200; i += 1) samples.push(randomBytes(1 + (i % 40)));
    for (const octets of samples) expect(decodeGsmText(octets)).toBe(packageDecode(octets));
  });

  it('is what the package uses for a deliver_sm with data_coding 0', () => {
    expect(encodings.ASCII.decode).toBe(decodeGsmText);
    const text = Buffer.from([0x69, 0x64, 0x3a, 0x1b, 0x65, 0x00]);
    const pdu = new PDU(new PDU('deliver_sm', { esm_class: 4, data_coding: 0, short_message: text, sequence_number: 1 }).toBuffer());
    expect(pdu['short_message']).toEqual({ message: 'id:€@' });
  });
});
