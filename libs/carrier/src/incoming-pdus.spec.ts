import { setFlagsFromString } from 'node:v8';
import { PDU } from 'smpp';
import { useTableGsmDecoding } from './gsm-text-decoding';
import { decodeDirectly, decodePdu } from './incoming-pdus';

useTableGsmDecoding();

// V8's own check of an object's representation (a runtime function, allowed from here on).
setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;

const RECEIPT_TEXT = 'id:0a1b2c3d sub:001 dlvrd:001 submit date:2611241200 done date:2611241201 stat:DELIVRD err:000 text:Hello {world} €5';

function encoded(command: string, fields: Record<string, unknown>): Buffer {
  const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  return new PDU(command, { sequence_number: 4711, ...given }).toBuffer();
}

function receipt(fields: Record<string, unknown> = {}): Buffer {
  return encoded('deliver_sm', {
    source_addr_ton: 1,
    source_addr_npi: 1,
    source_addr: '447700900123',
    destination_addr: 'Acme',
    esm_class: 0x04,
    data_coding: 0,
    short_message: RECEIPT_TEXT,
    receipted_message_id: '0a1b2c3d',
    message_state: 2,
    ...fields,
  });
}

/** A TLV the fast path does not read, appended to an encoded PDU (network_error_code, 3 octets). */
function withNetworkErrorCode(pdu: Buffer): Buffer {
  const tlv = Buffer.from([0x04, 0x23, 0x00, 0x03, 0x03, 0x00, 0x01]);
  const joined = Buffer.concat([pdu, tlv]);
  joined.writeUInt32BE(joined.length, 0);
  return joined;
}

describe('incoming PDUs, decoded as the smpp package decodes them', () => {
  const direct: [string, Buffer][] = [
    ['submit_sm_resp with a message id', encoded('submit_sm_resp', { message_id: '0a1b2c3d' })],
    ['submit_sm_resp refused, without a body', encoded('submit_sm_resp', { command_status: 0x58 })],
    ['a delivery receipt as the simulator sends it', receipt()],
    ['a receipt without TLVs', receipt({ receipted_message_id: undefined, message_state: undefined })],
    ['a receipt with an empty text', receipt({ short_message: '' })],
  ];

  it.each(direct)('directly: %s', (_name, bytes) => {
    const decoded = decodeDirectly(bytes);
    expect(decoded).toBeDefined();
    expect(decoded).toStrictEqual(new PDU(bytes));
    expect(decoded?.isResponse()).toBe(bytes.readUInt32BE(4) === 0x80000004);
  });

  it('makes objects with fast properties, not dictionary-mode ones (several times the memory)', () => {
    for (const [, bytes] of direct) expect(hasFastProperties(decodePdu(bytes))).toBe(true);
  });

  it('answers a decoded receipt as the package would', () => {
    const decoded = decodePdu(receipt());
    expect(decoded.response().toBuffer().toString('hex')).toBe(new PDU(receipt()).response().toBuffer().toString('hex'));
    expect(decoded).toMatchObject({ short_message: { message: RECEIPT_TEXT }, receipted_message_id: '0a1b2c3d', message_state: 2, sequence_number: 4711 });
  });

  const fallback: [string, Buffer][] = [
    ['submit_sm_resp with a TLV after its message id', withNetworkErrorCode(encoded('submit_sm_resp', { message_id: 'abc' }))],
    ['a receipt with another TLV', withNetworkErrorCode(receipt())],
    ['a deliver_sm in UCS-2', receipt({ data_coding: 8, short_message: 'Привет' })],
    ['a deliver_sm with a user data header', receipt({ short_message: { udh: Buffer.from([5, 0, 3, 1, 2, 1]), message: 'part one' } })],
    ['a deliver_sm with a validity period', receipt({ validity_period: '261124120000000+' })],
    ['a deliver_sm refused in its header', encoded('deliver_sm', { command_status: 0x08 })],
    [
      'a deliver_sm cut short',
      (() => {
        const whole = receipt();
        const cut = Buffer.from(whole.subarray(0, 40));
        cut.writeUInt32BE(cut.length, 0);
        return cut;
      })(),
    ],
    ['enquire_link', encoded('enquire_link', {})],
  ];

  it.each(fallback)('through the package: %s', (_name, bytes) => {
    expect(decodeDirectly(bytes)).toBeUndefined();
    expect(decodePdu(bytes)).toStrictEqual(new PDU(bytes));
  });

  it('reads a message id and a receipt inside a larger buffer without going past the PDU', () => {
    const resp = encoded('submit_sm_resp', { message_id: 'ffee' });
    const joined = Buffer.concat([resp, receipt()]);
    expect(decodePdu(joined.subarray(0, resp.length))).toStrictEqual(new PDU(resp));
    expect(decodePdu(joined.subarray(resp.length))).toStrictEqual(new PDU(receipt()));
  });
});
