import { concatenationReference } from '@mp/messaging';
import { encodeSmsParts, splitSms, type EncodedPart, type SmsSplit } from '@mp/messaging-domain';

/**
 * The bytes of a message's parts. A campaign's messages share one text, so the split of the last
 * text is kept, and so are its parts when there is one: a single part carries no concatenation
 * reference, so it is the same for every message of that text.
 */
export class PartEncoder {
  private last: { text: string; split: SmsSplit; single: readonly EncodedPart[] | null } | undefined;

  encode(text: string, messageId: string): readonly EncodedPart[] {
    if (this.last?.text !== text) {
      const split = splitSms(text);
      this.last = { text, split, single: split.parts.length === 1 ? encodeSmsParts(split, 0) : null };
    }
    return this.last.single ?? encodeSmsParts(this.last.split, concatenationReference(messageId));
  }
}
