import { concatenationReference } from '@mp/messaging';
import { encodeSmsParts, splitSms } from '@mp/messaging-domain';
import { PartEncoder } from './part-encoder';

describe('PartEncoder', () => {
  const idA = '0190f5e2-7c1a-7b3c-9d2e-4f5a6b7c8d9e';
  const idB = '0190f5e2-7c1a-7b3c-9d2e-4f5a6b7c8d9f';
  const long = 'x'.repeat(200);

  it("encodes as encodeSmsParts does, with each message's own concatenation reference", () => {
    const encoder = new PartEncoder();
    for (const [text, id] of [
      ['Hello', idA],
      [long, idA],
      [long, idB],
      ['Привет', idB],
      ['Hello', idB],
    ] as const) {
      expect(encoder.encode(text, id)).toEqual(encodeSmsParts(splitSms(text), concatenationReference(id)));
    }
  });

  it('reuses the parts of a single-part text for the next message with that text', () => {
    const encoder = new PartEncoder();
    const first = encoder.encode('Hello', idA);
    expect(encoder.encode('Hello', idB)).toBe(first);
    expect(encoder.encode('Bye', idB)).not.toBe(first);
  });

  it('gives messages of several parts headers of their own', () => {
    const encoder = new PartEncoder();
    const [a] = encoder.encode(long, idA);
    const [b] = encoder.encode(long, idB);
    expect(a.udh?.[3]).toBe(concatenationReference(idA));
    expect(b.udh?.[3]).toBe(concatenationReference(idB));
  });
});
