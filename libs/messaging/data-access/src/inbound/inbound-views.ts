import { decodeCursorOrThrow, join, keysetPage, sql, type KeysetPage, type Sql } from '@mp/persistence';
import type { DataSource } from 'typeorm';

/** An inbound message as the API shows it (GET /sms/inbound, message.received). */
export interface InboundMessageView {
  id: string;
  from: string;
  to: string;
  text: string;
  parts: number;
  carrier: string;
  received_at: string;
}

export interface InboundFilter {
  from: string | null;
  to: string | null;
  /** Received at or after. */
  since: Date | null;
  /** Received before. */
  before: Date | null;
}

export const INBOUND_MAX_LIMIT = 100;

/** A filter or page the list cannot take: the API answers 400 with its message. */
export class InboundFilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InboundFilterError';
  }
}

const CURSOR_SHAPE = [/[0-9]{1,17}/, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface InboundRow {
  id: string;
  sender: string;
  recipient: string;
  text: string;
  parts: number;
  smsc: string;
  received_at: Date;
  received_us: string;
  company_id: string | null;
  inbound_webhook_url: string | null;
}

const COLUMNS = sql`i.id, i.sender, i.recipient, i.text, i.parts, i.smsc, i.received_at, i.company_id,
  (extract(epoch FROM i.received_at) * 1000000)::bigint::text AS received_us`;

export function inboundView(row: Pick<InboundRow, 'id' | 'sender' | 'recipient' | 'text' | 'parts' | 'smsc' | 'received_at'>): InboundMessageView {
  return {
    id: row.id,
    from: row.sender,
    to: row.recipient,
    text: row.text,
    parts: Number(row.parts),
    carrier: row.smsc,
    received_at: new Date(row.received_at).toISOString(),
  };
}

/**
 * The values a carrier may have written a number as (`+447400900123`, `447400900123`,
 * `00447400900123`; a short code `76543` or `+76543`): a filter matches whichever the message
 * was stored with (docs/decisions/0058-short-codes-and-unassigned-inbound.md).
 */
export function writtenForms(number: string): string[] {
  const digits = number.trim().replace(/^\+/, '');
  return [`+${digits}`, digits, `00${digits}`, `+00${digits}`];
}

/** A company's inbound messages, newest first: each company reads only its own; the operator's are those of no company. */
export class InboundViews {
  constructor(private readonly db: DataSource) {}

  async list(companyId: string, filter: InboundFilter, page: { limit: number; cursor: string | null }): Promise<KeysetPage<InboundMessageView>> {
    return this.page(sql`i.company_id = ${companyId}`, filter, page);
  }

  /** Messages to numbers assigned to no company when they came, kept for the operator (admin inbound:list --unassigned). */
  async listUnassigned(filter: InboundFilter, page: { limit: number; cursor: string | null }): Promise<KeysetPage<InboundMessageView>> {
    return this.page(sql`i.company_id IS NULL`, filter, page);
  }

  private async page(owner: Sql, filter: InboundFilter, page: { limit: number; cursor: string | null }): Promise<KeysetPage<InboundMessageView>> {
    if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > INBOUND_MAX_LIMIT) {
      throw new InboundFilterError(`limit must be an integer from 1 to ${INBOUND_MAX_LIMIT}`);
    }
    const after = page.cursor === null ? null : decodeCursorOrThrow(page.cursor, CURSOR_SHAPE);
    const where: Sql[] = [owner];
    if (filter.from !== null) where.push(sql`i.sender = ANY(${writtenForms(filter.from)}::text[])`);
    if (filter.to !== null) where.push(sql`i.recipient = ANY(${writtenForms(filter.to)}::text[])`);
    if (filter.since !== null) where.push(sql`i.received_at >= ${filter.since.toISOString()}::timestamptz`);
    if (filter.before !== null) where.push(sql`i.received_at < ${filter.before.toISOString()}::timestamptz`);
    if (after !== null) where.push(sql`(i.received_at, i.id) < (timestamptz 'epoch' + ${after[0]}::bigint * interval '1 microsecond', ${after[1]}::uuid)`);
    const statement = sql`SELECT ${COLUMNS} FROM inbound_messages i WHERE ${join(where, ' AND ')}
      ORDER BY i.received_at DESC, i.id DESC LIMIT ${page.limit + 1}`;
    const rows: InboundRow[] = await this.db.query(statement.text, statement.values);
    return keysetPage(rows, page.limit, (row) => [row.received_us, row.id], inboundView);
  }

  /** The message when it is the company's; null otherwise (another company's id reads as unknown). */
  async find(companyId: string, id: string): Promise<InboundMessageView | null> {
    if (!UUID.test(id)) return null;
    const statement = sql`SELECT ${COLUMNS} FROM inbound_messages i WHERE i.id = ${id} AND i.company_id = ${companyId}`;
    const [row]: InboundRow[] = await this.db.query(statement.text, statement.values);
    return row ? inboundView(row) : null;
  }
}

/** The body of a message.received webhook, as docs/openapi.json documents it. */
export interface InboundEventPayload {
  type: 'message.received';
  timestamp: string;
  data: InboundMessageView;
}

/** A message.received event to deliver: the company, its inbound address (null: none), the body. */
export interface InboundWebhookEvent {
  companyId: string;
  inboundMessageId: string;
  url: string | null;
  eventType: 'message.received';
  payload: InboundEventPayload;
}

/** The message.received event of a stored inbound message, made when the job is handled. */
export class InboundWebhookEvents {
  constructor(private readonly db: DataSource) {}

  /** Null when the message does not exist or belongs to no company. */
  async received(event: { inboundMessageId: string; occurredAt: string }): Promise<InboundWebhookEvent | null> {
    const statement = sql`SELECT ${COLUMNS}, c.inbound_webhook_url FROM inbound_messages i JOIN companies c ON c.id = i.company_id
      WHERE i.id = ${event.inboundMessageId}`;
    const [row]: InboundRow[] = await this.db.query(statement.text, statement.values);
    if (!row || row.company_id === null) return null;
    return {
      companyId: row.company_id,
      inboundMessageId: row.id,
      url: row.inbound_webhook_url,
      eventType: 'message.received',
      payload: { type: 'message.received', timestamp: new Date(event.occurredAt).toISOString(), data: inboundView(row) },
    };
  }
}
