import { decodeText } from './data-coding';
import type { Concatenation } from './udh';

/** What "the phone" shows: the inspection API's view of a message. */
export interface InboxMessage {
  /** The message_id the simulator gave the first part. */
  message_id: string;
  from: string;
  to: string;
  /** The whole text, parts joined. */
  text: string;
  parts: number;
  /** When the last part arrived (ISO 8601). */
  received_at: string;
}

export interface ReceivedPart {
  messageId: string;
  from: string;
  to: string;
  dataCoding: number;
  /** The user data without its header. */
  payload: Buffer;
  /** The payload's text on its own (a message of one part shows this). */
  text: string;
  concatenation: Concatenation | null;
  /** False when the simulator decided this part does not reach the handset. */
  delivered: boolean;
  receivedAt: Date;
}

export interface CompletedMessage {
  message: InboxMessage;
  /** Whether every part reached the handset (else the handset never shows the message). */
  delivered: boolean;
}

interface Pending {
  parts: (ReceivedPart | undefined)[];
  received: number;
  firstAt: number;
}

/** How long the parts of an incomplete message are kept. */
export const DEFAULT_PENDING_TTL_MS = 60 * 60 * 1000;

/**
 * Joins the parts of concatenated messages, keyed by (source, destination, reference, count):
 * a message is complete when every part has arrived; a single part is complete at once. The
 * octets of all parts are joined before decoding, so a character split across parts still shows.
 */
export class Reassembler {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly ttlMs = DEFAULT_PENDING_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  add(part: ReceivedPart): CompletedMessage | null {
    this.prune();
    const concatenation = part.concatenation;
    if (!concatenation || concatenation.total === 1) return complete([part]);
    const key = [part.from, part.to, concatenation.referenceBits, concatenation.reference, concatenation.total].join('\u0000');
    let entry = this.pending.get(key);
    if (!entry) {
      entry = { parts: new Array<ReceivedPart | undefined>(concatenation.total), received: 0, firstAt: this.now() };
      this.pending.set(key, entry);
    }
    const index = concatenation.sequence - 1;
    if (!entry.parts[index]) entry.received += 1;
    entry.parts[index] = part;
    if (entry.received < concatenation.total) return null;
    this.pending.delete(key);
    return complete(entry.parts as ReceivedPart[]);
  }

  /** Parts of messages still waiting for others. */
  get pendingParts(): number {
    let count = 0;
    for (const entry of this.pending.values()) count += entry.received;
    return count;
  }

  clear(): void {
    this.pending.clear();
  }

  private prune(): void {
    const oldest = this.now() - this.ttlMs;
    for (const [key, entry] of this.pending) if (entry.firstAt < oldest) this.pending.delete(key);
  }
}

function complete(parts: ReceivedPart[]): CompletedMessage {
  const [first] = parts;
  const last = parts.reduce((latest, part) => (part.receivedAt > latest.receivedAt ? part : latest), first);
  // Octets are joined before decoding: a character may be split across parts.
  const text = parts.length === 1 ? first.text : decodeText(first.dataCoding, Buffer.concat(parts.map((part) => part.payload)));
  return {
    message: {
      message_id: first.messageId,
      from: first.from,
      to: first.to,
      text,
      parts: parts.length,
      received_at: last.receivedAt.toISOString(),
    },
    delivered: parts.every((part) => part.delivered),
  };
}
