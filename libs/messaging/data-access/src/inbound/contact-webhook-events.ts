import { classifyKeyword } from '@mp/messaging-domain';
import type { DataSource } from 'typeorm';
import { canonicalNumber } from '../opt-outs/opt-out-store';

export type ContactEventType = 'contact.opted_out' | 'contact.opted_in';

/** The `data` of contact.opted_out / contact.opted_in. */
export interface ContactEventData {
  /** The contact (E.164). */
  phone: string;
  /** The company's number the entry is for; null when it covers every number (STOPALL). */
  number: string | null;
  /** The text the contact sent, as it came. */
  keyword: string;
  inbound_message_id: string;
}

export interface ContactWebhookEvent {
  companyId: string;
  inboundMessageId: string;
  url: string | null;
  eventType: ContactEventType;
  payload: { type: ContactEventType; timestamp: string; data: ContactEventData };
}

/** The contact events of inbound keywords (KeywordResponder), made when the job is handled. */
export class ContactWebhookEvents {
  constructor(private readonly db: DataSource) {}

  /** Null when the message does not exist or belongs to no company. */
  async event(job: { inboundMessageId: string; type: ContactEventType; occurredAt: string }): Promise<ContactWebhookEvent | null> {
    const [row]: { company_id: string | null; sender: string; recipient: string; text: string; inbound_webhook_url: string | null }[] = await this.db.query(
      `SELECT i.company_id, i.sender, i.recipient, i.text, c.inbound_webhook_url FROM inbound_messages i JOIN companies c ON c.id = i.company_id WHERE i.id = $1`,
      [job.inboundMessageId],
    );
    if (!row || row.company_id === null) return null;
    // STOPALL is a standard keyword, so the operator's own keywords need not be known to tell the scope.
    const everyNumber = job.type === 'contact.opted_out' && classifyKeyword(row.text) === 'opt_out_all';
    return {
      companyId: row.company_id,
      inboundMessageId: job.inboundMessageId,
      url: row.inbound_webhook_url,
      eventType: job.type,
      payload: {
        type: job.type,
        timestamp: new Date(job.occurredAt).toISOString(),
        data: {
          phone: canonicalNumber(row.sender),
          number: everyNumber ? null : canonicalNumber(row.recipient),
          keyword: row.text.trim(),
          inbound_message_id: job.inboundMessageId,
        },
      },
    };
  }
}
