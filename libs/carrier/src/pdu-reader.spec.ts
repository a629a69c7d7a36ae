import { PassThrough } from 'node:stream';
import { PDU, Session } from 'smpp';
import { readPdusByChunk } from './pdu-reader';

/** A session over an in-memory stream: what the test writes into `wire` is what the session reads. */
function sessionOnWire(): { session: Session; wire: PassThrough; seen: PDU[] } {
  const wire = new PassThrough();
  const session = new Session({ socket: wire });
  readPdusByChunk(session);
  const seen: PDU[] = [];
  session.on('pdu', (pdu: PDU) => seen.push(pdu));
  return { session, wire, seen };
}

const bytes = (command: string, fields: Record<string, unknown>): Buffer => new PDU(command, fields).toBuffer();
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('readPdusByChunk', () => {
  it('reads PDUs split across chunks and several in one chunk, in order', async () => {
    const { wire, seen } = sessionOnWire();
    const first = bytes('submit_sm_resp', { sequence_number: 1, message_id: 'a1' });
    const second = bytes('deliver_sm', { sequence_number: 2, esm_class: 4, data_coding: 0, short_message: 'id:a1 stat:DELIVRD err:000' });
    const third = bytes('enquire_link', { sequence_number: 3 });
    const all = Buffer.concat([first, second, third]);
    wire.write(all.subarray(0, 2));
    await tick();
    wire.write(all.subarray(2, first.length + 5));
    await tick();
    expect(seen.map((pdu) => pdu.sequence_number)).toEqual([1]);
    wire.write(all.subarray(first.length + 5));
    await tick();
    expect(seen.map((pdu) => [pdu.command, pdu.sequence_number])).toEqual([
      ['submit_sm_resp', 1],
      ['deliver_sm', 2],
      ['enquire_link', 3],
    ]);
    expect(seen[1]).toMatchObject({ short_message: { message: 'id:a1 stat:DELIVRD err:000' } });
  });

  it('emits each command and calls the response callback of its request once', async () => {
    const { session, wire } = sessionOnWire();
    const answered: PDU[] = [];
    const receipts: PDU[] = [];
    session.on('deliver_sm', (pdu: PDU) => receipts.push(pdu));
    // The request goes out on the same in-memory wire and comes back as a request: only its response answers it.
    session.send(new PDU('enquire_link', {}), (response) => answered.push(response));
    await tick();
    wire.write(bytes('enquire_link_resp', { sequence_number: 1 }));
    wire.write(bytes('enquire_link_resp', { sequence_number: 1 }));
    wire.write(bytes('deliver_sm', { sequence_number: 9, esm_class: 4, data_coding: 0, short_message: 'x' }));
    await tick();
    expect(answered.map((pdu) => pdu.command)).toEqual(['enquire_link_resp']);
    expect(receipts.map((pdu) => pdu.sequence_number)).toEqual([9]);
  });

  it('reads nothing while paused and what waited once resumed', async () => {
    const { session, wire, seen } = sessionOnWire();
    session.pause();
    wire.write(Buffer.concat([bytes('enquire_link', { sequence_number: 1 }), bytes('enquire_link', { sequence_number: 2 })]));
    await tick();
    expect(seen).toHaveLength(0);
    session.resume();
    await tick();
    expect(seen.map((pdu) => pdu.sequence_number)).toEqual([1, 2]);
  });

  it('reports a PDU longer than the package allows, or shorter than a header, and reads no further', async () => {
    for (const length of [PDU.maxLength + 1, 8]) {
      const { session, wire, seen } = sessionOnWire();
      const errors: Error[] = [];
      session.on('error', (error: Error) => errors.push(error));
      const header = Buffer.alloc(16);
      header.writeUInt32BE(length, 0);
      wire.write(Buffer.concat([header, bytes('enquire_link', { sequence_number: 2 })]));
      await tick();
      expect(errors.map((error) => error.message)).toEqual([expect.stringMatching(/PDU length was too (large|small)/)]);
      expect(seen).toHaveLength(0);
    }
  });
});
