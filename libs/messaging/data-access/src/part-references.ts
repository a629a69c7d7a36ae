import { hash } from 'node:crypto';

/**
 * References derived from the message id, so a resubmission after a crash carries the very same
 * values: the 8-bit concatenation reference of the UDH, and a 16-bit user_message_reference per
 * part, which the carrier's duplicate filter keys on (with the destination and the payload).
 */
export function concatenationReference(messageId: string): number {
  return digest(messageId)[0];
}

export function userMessageReferences(messageId: string, parts: number): number[] {
  const bytes = digest(messageId);
  const base = bytes.readUInt16BE(1);
  return Array.from({ length: parts }, (_, i) => (base + i) % 65_536);
}

// One-shot: a Hash object per message cost more than the digest itself.
function digest(messageId: string): Buffer {
  return hash('sha256', messageId, 'buffer');
}
