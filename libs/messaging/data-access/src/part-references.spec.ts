import { concatenationReference, userMessageReferences } from './part-references';

// These values go to the carrier: a resubmission must carry the very ones the first submit did,
// in this process or any later version of it (the carrier's duplicate filter keys on them).
describe('part references', () => {
  const messageId = '0190f5e2-7c1a-7b3c-9d2e-4f5a6b7c8d9e';

  it("derives the concatenation reference from the first octet of the id's SHA-256", () => {
    expect(concatenationReference(messageId)).toBe(47);
  });

  it('numbers the parts from the next two octets', () => {
    expect(userMessageReferences(messageId, 1)).toEqual([53153]);
    expect(userMessageReferences(messageId, 3)).toEqual([53153, 53154, 53155]);
  });
});
