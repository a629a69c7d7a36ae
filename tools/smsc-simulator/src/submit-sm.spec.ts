// The simulator reads PDUs with its own code; the smpp package writes and reads them here as an
// independent implementation of the same specification (its types: libs/carrier/src/types).
import { PDU } from 'smpp';
import { CommandId, encodePdu } from './pdu';
import { deliverReceiptBody, parseBind, parseSubmitSm } from './submit-sm';

const bodyOf = (pdu: PDU): Buffer => pdu.toBuffer().subarray(16);

describe('parseSubmitSm', () => {
  it('reads the fields, short_message as sent, and user_message_reference', () => {
    const userData = Buffer.from([0x05, 0x00, 0x03, 0x01, 0x02, 0x01, 0x48, 0x1b, 0x65]);
    const pdu = new PDU('submit_sm', {
      source_addr_ton: 5,
      source_addr: 'Acme',
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: '447700900123',
      esm_class: 0x40,
      registered_delivery: 1,
      data_coding: 0,
      short_message: userData,
      user_message_reference: 513,
    });
    expect(parseSubmitSm(bodyOf(pdu))).toEqual({
      serviceType: '',
      sourceTon: 5,
      sourceNpi: 0,
      source: 'Acme',
      destinationTon: 1,
      destinationNpi: 1,
      destination: '447700900123',
      esmClass: 0x40,
      registeredDelivery: 1,
      dataCoding: 0,
      userData,
      userMessageReference: 513,
      sar: null,
    });
  });

  it('takes message_payload when short_message is empty, and the SAR TLVs', () => {
    const payload = Buffer.alloc(300, 0x41);
    const pdu = new PDU('submit_sm', {
      destination_addr: '447700900123',
      data_coding: 0,
      short_message: Buffer.alloc(0),
      message_payload: payload,
      sar_msg_ref_num: 258,
      sar_total_segments: 2,
      sar_segment_seqnum: 1,
    });
    expect(parseSubmitSm(bodyOf(pdu))).toMatchObject({ userData: payload, userMessageReference: null, sar: { reference: 258, total: 2, sequence: 1 } });
  });

  it('refuses a truncated body', () => {
    const body = bodyOf(new PDU('submit_sm', { destination_addr: '447700900123', short_message: Buffer.from('hello') }));
    expect(() => parseSubmitSm(body.subarray(0, body.length - 2))).toThrow(/truncated/);
  });
});

describe('parseBind', () => {
  it('reads system_id, password and system_type', () => {
    const pdu = new PDU('bind_transceiver', { system_id: 'esme', password: 'secret', system_type: 'SMPP' });
    expect(parseBind(bodyOf(pdu))).toEqual({ systemId: 'esme', password: 'secret', systemType: 'SMPP' });
  });
});

describe('deliverReceiptBody', () => {
  it('is a deliver_sm the smpp package reads as a receipt with its TLVs', () => {
    const body = deliverReceiptBody({
      source: '447700900123',
      sourceTon: 1,
      destination: 'Acme',
      destinationTon: 5,
      text: Buffer.from('id:abc stat:DELIVRD', 'latin1'),
      receiptedMessageId: 'abc',
      messageState: 2,
    });
    const pdu = new PDU(encodePdu(CommandId.deliver_sm, 0, 9, body));
    expect(pdu).toMatchObject({
      command: 'deliver_sm',
      sequence_number: 9,
      source_addr_ton: 1,
      source_addr_npi: 1,
      source_addr: '447700900123',
      dest_addr_ton: 5,
      destination_addr: 'Acme',
      esm_class: 4,
      short_message: { message: 'id:abc stat:DELIVRD' },
      receipted_message_id: 'abc',
      message_state: 2,
    });
  });
});
