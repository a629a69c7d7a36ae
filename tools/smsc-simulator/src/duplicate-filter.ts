import { hash } from 'node:crypto';

/** How long an accepted submit_sm is remembered. */
export const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface DuplicateKeyParts {
  systemId: string;
  destination: string;
  userMessageReference: number;
  /** The user data as submitted: UDH and payload. */
  userData: Buffer;
}

/**
 * A carrier's duplicate filter: a submit_sm whose (system_id, destination, user_message_reference,
 * SHA-1 of UDH + payload) was accepted within the window gets the original message_id back and is
 * not delivered again.
 */
export class DuplicateFilter {
  /** key → accepted message_id and when; in insertion order, so the oldest come first. */
  private readonly accepted = new Map<string, { messageId: string; at: number }>();

  constructor(
    private readonly windowMs = DUPLICATE_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  static key({ systemId, destination, userMessageReference, userData }: DuplicateKeyParts): string {
    return `${systemId}\u0000${destination}\u0000${userMessageReference}\u0000${hash('sha1', userData, 'base64')}`;
  }

  /** The message_id accepted earlier under this key, if still within the window. */
  find(key: string): string | undefined {
    this.prune();
    return this.accepted.get(key)?.messageId;
  }

  remember(key: string, messageId: string): void {
    this.prune();
    this.accepted.delete(key);
    this.accepted.set(key, { messageId, at: this.now() });
  }

  get size(): number {
    return this.accepted.size;
  }

  clear(): void {
    this.accepted.clear();
  }

  private prune(): void {
    const oldest = this.now() - this.windowMs;
    for (const [key, entry] of this.accepted) {
      if (entry.at > oldest) break;
      this.accepted.delete(key);
    }
  }
}
