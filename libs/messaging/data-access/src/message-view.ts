import { moneyToJson, parseMoney } from '@mp/billing-domain';
import type { DataSource } from 'typeorm';

export interface MessagePartView {
  index: number;
  status: string;
  submitted_at: string | null;
  completed_at: string | null;
  error_code: string | null;
}

/** What GET /sms/{message_id} shows: the message, its current state and its timestamps. */
export interface MessageView {
  message_id: string;
  to: string;
  from: string;
  message: string;
  route: string;
  encoding: string;
  parts: number;
  cost: number;
  refunded: number;
  status: string;
  reference: string | null;
  error_code: string | null;
  error_reason: string | null;
  scheduled_time: string | null;
  created_at: string;
  sent_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  part_details: MessagePartView[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** Company-scoped: another company's message id reads as not found. */
export async function findMessageView(db: DataSource, companyId: string, messageId: string): Promise<MessageView | null> {
  if (!UUID.test(messageId)) return null;
  const rows: Record<string, unknown>[] = await db.query(`SELECT * FROM messages WHERE id = $1 AND company_id = $2 AND otp_id IS NULL`, [messageId, companyId]);
  const row = rows[0];
  if (!row) return null;
  const parts: { part_index: number; status: string; submitted_at: Date | null; completed_at: Date | null; error_code: string | null }[] = await db.query(
    `SELECT part_index, status, submitted_at, completed_at, error_code FROM message_parts WHERE message_id = $1 ORDER BY part_index`,
    [messageId],
  );
  return {
    message_id: String(row['id']),
    to: String(row['recipient']),
    from: String(row['sender']),
    message: String(row['body']),
    route: String(row['route']),
    encoding: String(row['encoding']),
    parts: Number(row['parts']),
    cost: moneyToJson(parseMoney(String(row['cost']))),
    refunded: moneyToJson(parseMoney(String(row['refunded']))),
    status: String(row['status']),
    reference: (row['reference'] as string | null) ?? null,
    error_code: (row['error_code'] as string | null) ?? null,
    error_reason: (row['error_reason'] as string | null) ?? null,
    scheduled_time: iso(row['scheduled_at'] as Date | null),
    created_at: iso(row['created_at'] as Date) ?? '',
    sent_at: iso(row['sent_at'] as Date | null),
    completed_at: iso(row['completed_at'] as Date | null),
    cancelled_at: iso(row['cancelled_at'] as Date | null),
    part_details: parts.map((part) => ({
      index: part.part_index,
      status: part.status,
      submitted_at: iso(part.submitted_at),
      completed_at: iso(part.completed_at),
      error_code: part.error_code,
    })),
  };
}

/** GET /sms/{message_id}'s reads (findMessageView), for injection. */
export class MessageViews {
  constructor(private readonly db: DataSource) {}

  find(companyId: string, messageId: string): Promise<MessageView | null> {
    return findMessageView(this.db, companyId, messageId);
  }
}
