import pino from 'pino';
import { CommandStatus } from './pdu';
import { SimulatorState } from './state';
import { messageIdGenerator, SubmitHandler, type SubmitPolicy } from './submit-handler';
import type { SubmitSm } from './submit-sm';

const logger = pino({ level: 'silent' });

function submit(overrides: Partial<SubmitSm> = {}): SubmitSm {
  return {
    serviceType: '',
    sourceTon: 5,
    sourceNpi: 0,
    source: 'Acme',
    destinationTon: 1,
    destinationNpi: 1,
    destination: '447700900123',
    esmClass: 0,
    registeredDelivery: 1,
    dataCoding: 0,
    userData: Buffer.from('Hello', 'latin1'),
    userMessageReference: null,
    sar: null,
    ...overrides,
  };
}

function handler(policy: Partial<SubmitPolicy> = {}): { state: SimulatorState; submits: SubmitHandler } {
  const state = new SimulatorState();
  return { state, submits: new SubmitHandler(state, { failureRate: 0, rejectRate: 0, random: () => 0.5, ...policy }, logger) };
}

describe('SubmitHandler', () => {
  it('accepts a part, shows it to the phone with + on the number, and asks for a DELIVRD receipt', () => {
    const { state, submits } = handler();
    const result = submits.handle('esme', submit());
    expect(result).toMatchObject({
      status: 0,
      messageId: expect.any(String),
      receipt: { stat: 'DELIVRD', text: 'Hello', handset: '447700900123', sender: 'Acme', senderTon: 5 },
    });
    expect(state.messages('+447700900123')).toEqual([expect.objectContaining({ message_id: result.messageId, from: 'Acme', text: 'Hello', parts: 1 })]);
    expect(state.stats).toMatchObject({ accepted: 1, rejected: 0 });
  });

  it('sends no receipt unless registered_delivery asks for one', () => {
    const { submits } = handler({ failureRate: 1 });
    expect(submits.handle('esme', submit({ registeredDelivery: 0 })).receipt).toBeNull();
    expect(submits.handle('esme', submit({ registeredDelivery: 2 })).receipt).toMatchObject({ stat: 'UNDELIV' });
    expect(submits.handle('esme', submit({ registeredDelivery: 3 })).receipt).toBeNull();
  });

  it('answers a repeat with the same user_message_reference with the original id, delivering nothing', () => {
    const { state, submits } = handler();
    const first = submits.handle('esme', submit({ userMessageReference: 7 }));
    const again = submits.handle('esme', submit({ userMessageReference: 7, destination: '+447700900123' }));
    expect(again).toEqual({ status: 0, messageId: first.messageId, receipt: null });
    expect(submits.handle('esme', submit({ userMessageReference: 8 })).messageId).not.toBe(first.messageId);
    expect(submits.handle('esme', submit()).messageId).not.toBe(first.messageId); // no reference: no filter
    expect(state.stats).toMatchObject({ accepted: 3, duplicates_dropped: 1 });
    expect(state.messages()).toHaveLength(3);
  });

  it('keeps the duplicate filter when the messages are cleared', () => {
    const { state, submits } = handler();
    const first = submits.handle('esme', submit({ userMessageReference: 7 }));
    submits.clear();
    expect(state.messages()).toEqual([]);
    expect(submits.handle('esme', submit({ userMessageReference: 7 })).messageId).toBe(first.messageId);
  });

  it('rejects at the reject rate, and fails delivery at the failure rate', () => {
    const rejecting = handler({ rejectRate: 1 });
    expect(rejecting.submits.handle('esme', submit())).toEqual({ status: CommandStatus.ESME_RSUBMITFAIL, receipt: null });
    expect(rejecting.state.stats.rejected).toBe(1);
    const failing = handler({ failureRate: 1 });
    expect(failing.submits.handle('esme', submit()).receipt).toMatchObject({ stat: 'UNDELIV' });
    expect(failing.state.messages()).toEqual([]);
  });

  it('refuses a bad destination, data_coding or UDH', () => {
    const { state, submits } = handler();
    expect(submits.handle('esme', submit({ destination: 'nobody' })).status).toBe(CommandStatus.ESME_RINVDSTADR);
    expect(submits.handle('esme', submit({ dataCoding: 4 })).status).toBe(CommandStatus.ESME_RINVDCS);
    expect(submits.handle('esme', submit({ esmClass: 0x40, userData: Buffer.from([9, 0]) })).status).toBe(CommandStatus.ESME_RINVMSGLEN);
    expect(state.stats.rejected).toBe(3);
  });

  it('joins parts numbered by the SAR TLVs', () => {
    const { state, submits } = handler();
    submits.handle('esme', submit({ userData: Buffer.from('Hel'), sar: { reference: 3, total: 2, sequence: 1 } }));
    expect(state.messages()).toEqual([]);
    submits.handle('esme', submit({ userData: Buffer.from('lo'), sar: { reference: 3, total: 2, sequence: 2 } }));
    expect(state.messages()).toEqual([expect.objectContaining({ text: 'Hello', parts: 2 })]);
  });
});

describe('messageIdGenerator', () => {
  it('gives distinct 16-hex-digit ids, distinct across generators (restarts)', () => {
    const a = messageIdGenerator();
    const b = messageIdGenerator();
    const ids = [a(), a(), b(), b()];
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
  });
});
