import { moneyToJson, parseMoney } from '@mp/billing-domain';
import type { DataSource } from 'typeorm';
import type { MessageStatus } from '../message.repository';
import { messageHistory, type HistoryMessage, type HistoryPart, type MessageEvent } from './message-history';
import { isUuid } from './message-log-filter';

export interface MessageDetailPart {
  index: number;
  status: string;
  carrier_message_id: string | null;
  /** The `stat` of the receipt that ended it (DELIVRD, UNDELIV…); null before one, or when none came. */
  receipt_stat: string | null;
  error_code: string | null;
  submitted_at: string | null;
  completed_at: string | null;
}

/** One message as the console shows it: what GET /sms/{id} shows, its campaign, its parts and its history. */
export interface MessageDetail {
  message_id: string;
  to: string;
  from: string;
  message: string;
  route: string;
  encoding: string;
  parts: number;
  cost: number;
  refunded: number;
  status: MessageStatus;
  reference: string | null;
  campaign_id: string | null;
  error_code: string | null;
  error_reason: string | null;
  scheduled_time: string | null;
  created_at: string;
  sent_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  part_details: MessageDetailPart[];
  history: MessageEvent[];
}

type DetailRow = HistoryMessage & {
  id: string;
  recipient: string;
  sender: string;
  body: string;
  route: string;
  encoding: string;
  parts: number;
  cost: string;
  refunded: string;
  status: MessageStatus;
  reference: string | null;
  part_rows: (Omit<HistoryPart, 'submitted_at' | 'completed_at'> & { submitted_at: string | null; completed_at: string | null })[];
  refunds: { at: string; amount: string }[];
};

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);
const date = (value: string | null) => (value === null ? null : new Date(value));

/**
 * One message of the company with its parts and its history (messageHistory), read in one
 * statement; null for an unknown id, another company's message, or an OTP's (as GET /sms/{id}).
 * Its refunds are the ledger's entries for it (reference `message:<id>`, read, never written here).
 */
export async function findMessageDetail(db: DataSource, companyId: string, messageId: string): Promise<MessageDetail | null> {
  if (!isUuid(messageId)) return null;
  const [row]: DetailRow[] = await db.query(
    `SELECT m.id, m.recipient, m.sender, m.body, m.route, m.encoding, m.parts, m.cost::text AS cost, m.refunded::text AS refunded, m.status,
       m.reference, m.campaign_id, m.error_code, m.error_reason, m.scheduled_at, m.created_at, m.sent_at, m.completed_at, m.cancelled_at,
       (SELECT c.created_at FROM campaigns c WHERE c.id = m.campaign_id) AS campaign_created_at,
       (SELECT coalesce(json_agg(json_build_object('part_index', p.part_index, 'status', p.status, 'carrier_message_id', p.carrier_message_id,
           'receipt_stat', p.receipt_stat, 'error_code', p.error_code, 'submitted_at', p.submitted_at, 'completed_at', p.completed_at)
           ORDER BY p.part_index), '[]') FROM message_parts p WHERE p.message_id = m.id) AS part_rows,
       (SELECT coalesce(json_agg(json_build_object('at', l.created_at, 'amount', l.amount::text) ORDER BY l.id), '[]') FROM ledger_entries l
         WHERE l.company_id = m.company_id AND l.kind = 'refund' AND l.reference = 'message:' || m.id::text) AS refunds
     FROM messages m WHERE m.id = $1 AND m.company_id = $2 AND m.otp_id IS NULL`,
    [messageId, companyId],
  );
  if (!row) return null;
  const parts: HistoryPart[] = row.part_rows.map((part) => ({ ...part, submitted_at: date(part.submitted_at), completed_at: date(part.completed_at) }));
  const refunds = row.refunds.map((refund) => ({ at: new Date(refund.at), amount: moneyToJson(parseMoney(refund.amount)) }));
  return {
    message_id: row.id,
    to: row.recipient,
    from: row.sender,
    message: row.body,
    route: row.route,
    encoding: row.encoding,
    parts: Number(row.parts),
    cost: moneyToJson(parseMoney(row.cost)),
    refunded: moneyToJson(parseMoney(row.refunded)),
    status: row.status,
    reference: row.reference,
    campaign_id: row.campaign_id,
    error_code: row.error_code,
    error_reason: row.error_reason,
    scheduled_time: iso(row.scheduled_at),
    created_at: iso(row.created_at) ?? '',
    sent_at: iso(row.sent_at),
    completed_at: iso(row.completed_at),
    cancelled_at: iso(row.cancelled_at),
    part_details: parts.map((part) => ({
      index: part.part_index,
      status: part.status,
      carrier_message_id: part.carrier_message_id,
      receipt_stat: part.receipt_stat,
      error_code: part.error_code,
      submitted_at: iso(part.submitted_at),
      completed_at: iso(part.completed_at),
    })),
    history: messageHistory(row, parts, refunds),
  };
}
