import { logItem, type LogRow, type MessageLogItem } from './message-log';

/**
 * One message of the public list (GET /sms): a row of the console's message log (logItem), plus
 * its text, route and OTP: the fields of GET /sms/{message_id} that a list can carry.
 */
export interface ApiMessageItem extends MessageLogItem {
  /** null for an OTP's message: its text is sealed (the code is never shown again). */
  message: string | null;
  route: string;
  otp_id: string | null;
}

export function apiMessageItem(row: LogRow): ApiMessageItem {
  return { ...logItem(row), message: row.otp_id === null ? row.body : null, route: row.route, otp_id: row.otp_id };
}
