/** A message as GET /messages shows it: what the handset received. */
export interface InboxMessage {
  message_id: string;
  /** E.164 with '+'. */
  to: string;
  /** The text the handset shows. */
  text: string;
  /** The template's name. */
  template: string;
  language: string;
  /** ISO 8601. */
  received_at: string;
}

/** The handsets' messages, oldest first. */
export class Inbox {
  private items: InboxMessage[] = [];

  add(message: InboxMessage): void {
    this.items.push(message);
  }

  /** Oldest first; only those to one E.164 number when `to` is given. */
  messages(to?: string): InboxMessage[] {
    return to === undefined ? [...this.items] : this.items.filter((message) => message.to === to);
  }

  clear(): void {
    this.items = [];
  }
}

/**
 * A number from a query string as E.164 with '+': digits with or without '+' (or 00, or the space
 * an unescaped '+' decodes to); null when it is not 1 to 15 digits.
 */
export function toE164(value: string): string | null {
  const digits = value.trim().replace(/^(\+|00)/, '');
  return /^[0-9]{1,15}$/.test(digits) ? `+${digits}` : null;
}
