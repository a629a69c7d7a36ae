import { PDU } from 'smpp';
import { CommandStatus } from './command-status';
import { deliverSmRespPdu, submitSmPdu, type SubmitSmParameters } from './outgoing-pdus';
import { submitSmParameters } from './submit-sm';

function parameters(overrides: Partial<Parameters<typeof submitSmParameters>[0]> = {}): SubmitSmParameters {
  const result = submitSmParameters({
    source: 'Acme',
    destination: '+447700900123',
    dataCoding: 0,
    udh: null,
    payload: Buffer.from('Hello world', 'latin1'),
    userMessageReference: 4242,
    registeredDelivery: true,
    ...overrides,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.outcome));
  return result.parameters;
}

function packageBytes(command: string, fields: Record<string, unknown>): Buffer {
  return new PDU(command, fields).toBuffer();
}

describe('outgoing PDUs, byte for byte as the smpp package encodes them', () => {
  const cases: [string, SubmitSmParameters][] = [
    ['GSM text from an alphanumeric sender', parameters()],
    ['a numeric sender, no receipt asked', parameters({ source: '+447700900999', registeredDelivery: false, userMessageReference: 0 })],
    [
      'UCS-2 with a concatenation header',
      parameters({ dataCoding: 8, udh: Buffer.from([5, 0, 3, 7, 2, 1]), payload: Buffer.from('Привет', 'utf16le').swap16(), userMessageReference: 65535 }),
    ],
    ['user data too long for short_message, in message_payload', parameters({ payload: Buffer.alloc(300, 0x41) })],
    ['an empty text', parameters({ payload: Buffer.alloc(0) })],
  ];

  it.each(cases)('submit_sm: %s', (_name, fields) => {
    const encoded = submitSmPdu(fields);
    encoded.sequence_number = 123_456;
    expect(encoded.toBuffer().toString('hex')).toBe(packageBytes('submit_sm', { ...fields, sequence_number: 123_456 }).toString('hex'));
    expect(encoded.isResponse()).toBe(false);
  });

  it('deliver_sm_resp, accepted and refused', () => {
    expect(deliverSmRespPdu(77).toBuffer().toString('hex')).toBe(packageBytes('deliver_sm_resp', { sequence_number: 77 }).toString('hex'));
    const refused = deliverSmRespPdu(78, CommandStatus.ESME_RX_T_APPN);
    expect(refused.toBuffer().toString('hex')).toBe(
      packageBytes('deliver_sm_resp', { sequence_number: 78, command_status: CommandStatus.ESME_RX_T_APPN }).toString('hex'),
    );
    expect(refused.isResponse()).toBe(true);
  });

  it('reads back through the package as the same submit_sm', () => {
    const encoded = submitSmPdu(parameters({ dataCoding: 8, udh: Buffer.from([5, 0, 3, 7, 2, 1]), payload: Buffer.from([0, 0x41]) }));
    encoded.sequence_number = 9;
    const decoded = new PDU(encoded.toBuffer());
    expect(decoded).toMatchObject({
      command: 'submit_sm',
      sequence_number: 9,
      source_addr: 'Acme',
      destination_addr: '447700900123',
      data_coding: 8,
      esm_class: 0x40,
      user_message_reference: 4242,
    });
  });
});
