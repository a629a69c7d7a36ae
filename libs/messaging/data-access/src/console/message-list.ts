import { moneyToJson, parseMoney } from '@mp/billing-domain';
import type { MessageStatus } from '../message.repository';
import { iso, type LogRow } from './message-log';

/**
 * One message of the public list (GET /sms): the fields of GET /sms/{message_id} that a list can
 * carry, plus its campaign and OTP. Money as exact JSON numbers (4 decimals at most), times ISO 8601.
 */
export interface ApiMessageItem {
  message_id: string;
  to: string;
  from: string;
  /** null for an OTP's message: its text is sealed (the code is never shown again). */
  message: string | null;
  route: string;
  status: MessageStatus;
  parts: number;
  cost: number;
  refunded: number;
  reference: string | null;
  campaign_id: string | null;
  otp_id: string | null;
  error_code: string | null;
  scheduled_time: string | null;
  created_at: string;
  sent_at: string | null;
  delivered_at: string | null;
  completed_at: string | null;
}

export function apiMessageItem(row: LogRow): ApiMessageItem {
  return {
    message_id: row.id,
    to: row.recipient,
    from: row.sender,
    message: row.otp_id === null ? row.body : null,
    route: row.route,
    status: row.status,
    parts: Number(row.parts),
    cost: moneyToJson(parseMoney(row.cost)),
    refunded: moneyToJson(parseMoney(row.refunded)),
    reference: row.reference,
    campaign_id: row.campaign_id,
    otp_id: row.otp_id,
    error_code: row.error_code,
    scheduled_time: iso(row.scheduled_at),
    created_at: iso(row.created_at) ?? '',
    sent_at: iso(row.sent_at),
    delivered_at: row.status === 'delivered' ? iso(row.completed_at) : null,
    completed_at: iso(row.completed_at),
  };
}
