import { Reassembler, type ReceivedPart } from './reassembly';
import type { Concatenation } from './udh';

let id = 0;
function part(text: string, concatenation: Concatenation | null, overrides: Partial<ReceivedPart> = {}): ReceivedPart {
  return {
    messageId: `m${++id}`,
    from: 'Acme',
    to: '+447700900123',
    dataCoding: 0,
    payload: Buffer.from(text, 'latin1'),
    text,
    concatenation,
    delivered: true,
    receivedAt: new Date(1_700_000_000_000 + id * 1000),
    ...overrides,
  };
}
const of3 = (sequence: number, reference = 7): Concatenation => ({ reference, referenceBits: 8, total: 3, sequence });

describe('Reassembler', () => {
  it('completes a single part at once', () => {
    const single = part('Hi', null);
    expect(new Reassembler().add(single)).toEqual({
      message: { message_id: single.messageId, from: 'Acme', to: '+447700900123', text: 'Hi', parts: 1, received_at: single.receivedAt.toISOString() },
      delivered: true,
    });
  });

  it('joins parts arriving in any order, with the first part id and the last arrival time', () => {
    const reassembler = new Reassembler();
    const third = part('three', of3(3));
    const first = part('one ', of3(1));
    const second = part('two ', of3(2));
    expect(reassembler.add(third)).toBeNull();
    expect(reassembler.add(first)).toBeNull();
    expect(reassembler.pendingParts).toBe(2);
    const done = reassembler.add(second);
    expect(done?.message).toMatchObject({ message_id: first.messageId, text: 'one two three', parts: 3, received_at: second.receivedAt.toISOString() });
    expect(reassembler.pendingParts).toBe(0);
  });

  it('joins the octets before decoding, so an escape at the end of a part still shows', () => {
    const reassembler = new Reassembler();
    const concatenation = (sequence: number): Concatenation => ({ reference: 1, referenceBits: 16, total: 2, sequence });
    reassembler.add(part('', concatenation(1), { payload: Buffer.from([0x41, 0x1b]) }));
    expect(reassembler.add(part('', concatenation(2), { payload: Buffer.from([0x65, 0x42]) }))?.message.text).toBe('A€B');
  });

  it('keeps messages with other references, senders or recipients apart', () => {
    const reassembler = new Reassembler();
    reassembler.add(part('a', of3(1, 1)));
    reassembler.add(part('b', of3(2, 2)));
    reassembler.add(part('c', of3(3, 1), { to: '+447700900999' }));
    reassembler.add(part('d', of3(3, 1), { from: 'Other' }));
    expect(reassembler.pendingParts).toBe(4);
  });

  it('counts a repeated part once', () => {
    const reassembler = new Reassembler();
    const concatenation = (sequence: number): Concatenation => ({ reference: 9, referenceBits: 8, total: 2, sequence });
    expect(reassembler.add(part('x', concatenation(1)))).toBeNull();
    expect(reassembler.add(part('x', concatenation(1)))).toBeNull();
    expect(reassembler.add(part('y', concatenation(2)))?.message.text).toBe('xy');
  });

  it('marks a message undelivered when one of its parts was', () => {
    const reassembler = new Reassembler();
    reassembler.add(part('a', of3(1)));
    reassembler.add(part('b', of3(2), { delivered: false }));
    expect(reassembler.add(part('c', of3(3)))?.delivered).toBe(false);
  });

  it('forgets incomplete messages after the TTL', () => {
    let now = 0;
    const reassembler = new Reassembler(1_000, () => now);
    reassembler.add(part('a', of3(1)));
    now = 1_001;
    reassembler.add(part('b', of3(2)));
    expect(reassembler.pendingParts).toBe(1);
  });
});
