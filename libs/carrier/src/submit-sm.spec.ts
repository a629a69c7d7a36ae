import { PDU } from 'smpp';
import { CommandStatus } from './command-status';
import { submitSmPdu, type SubmitSmParameters } from './outgoing-pdus';
import { type OutgoingPart, submitSmParameters } from './submit-sm';

const part: OutgoingPart = {
  source: 'Acme',
  destination: '+447700900123',
  dataCoding: 0,
  udh: null,
  payload: Buffer.from('Hello', 'latin1'),
  userMessageReference: 513,
  registeredDelivery: true,
};

function parameters(overrides: Partial<OutgoingPart>): SubmitSmParameters {
  const built = submitSmParameters({ ...part, ...overrides });
  if (!built.ok) throw new Error(JSON.stringify(built.outcome));
  return built.parameters;
}

describe('submitSmParameters', () => {
  it('sets addresses, registered_delivery, data_coding and user_message_reference', () => {
    expect(parameters({})).toEqual({
      source_addr_ton: 5,
      source_addr_npi: 0,
      source_addr: 'Acme',
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: '447700900123',
      esm_class: 0,
      registered_delivery: 1,
      data_coding: 0,
      short_message: Buffer.from('Hello', 'latin1'),
      user_message_reference: 513,
    });
    expect(parameters({ source: '+15550001111', registeredDelivery: false })).toMatchObject({
      source_addr_ton: 1,
      source_addr_npi: 1,
      source_addr: '15550001111',
      registered_delivery: 0,
    });
  });

  it('puts the UDH before the payload and sets the UDHI bit', () => {
    const udh = Buffer.from([0x05, 0x00, 0x03, 0x01, 0x02, 0x01]);
    expect(parameters({ udh, dataCoding: 8, payload: Buffer.from([0x04, 0x1f]) })).toMatchObject({
      esm_class: 0x40,
      data_coding: 8,
      short_message: Buffer.from([0x05, 0x00, 0x03, 0x01, 0x02, 0x01, 0x04, 0x1f]),
    });
  });

  it('uses message_payload above 254 octets', () => {
    const payload = Buffer.alloc(255, 0x41);
    expect(parameters({ payload: Buffer.alloc(254, 0x41) }).message_payload).toBeUndefined();
    expect(parameters({ payload })).toMatchObject({ short_message: Buffer.alloc(0), message_payload: payload });
  });

  it('encodes to the octets sent, which the smpp package reads back', () => {
    const pdu = submitSmPdu(parameters({ udh: Buffer.from([0x05, 0x00, 0x03, 0x01, 0x02, 0x01]) }));
    const decoded = new PDU(pdu.toBuffer());
    expect(decoded).toMatchObject({ esm_class: 0x40, destination_addr: '447700900123', user_message_reference: 513, registered_delivery: 1 });
    expect(pdu.toBuffer().includes(Buffer.from([0x05, 0x00, 0x03, 0x01, 0x02, 0x01, 0x48, 0x65, 0x6c, 0x6c, 0x6f]))).toBe(true);
  });

  it('fails, permanently and without sending, a part no SMSC could accept', () => {
    const failure = (overrides: Partial<OutgoingPart>): unknown => {
      const built = submitSmParameters({ ...part, ...overrides });
      return built.ok ? undefined : built.outcome;
    };
    expect(failure({ destination: '447700900123' })).toMatchObject({ ok: false, permanent: true, commandStatus: CommandStatus.ESME_RINVDSTADR });
    expect(failure({ source: 'Far too long sender' })).toMatchObject({ permanent: true, commandStatus: CommandStatus.ESME_RINVSRCADR });
    expect(failure({ userMessageReference: 70_000 })).toMatchObject({ permanent: true, commandStatus: CommandStatus.ESME_RINVTLVVAL });
    expect(failure({ payload: Buffer.alloc(70_000) })).toMatchObject({ permanent: true, commandStatus: CommandStatus.ESME_RINVMSGLEN });
  });
});
