import { moneyToJson, parseMoney } from '@mp/billing-domain';
import { decodeCursorOrThrow, join, keysetPage, sql, type KeysetPage, type Sql } from '@mp/persistence';
import type { DataSource } from 'typeorm';
import type { MessageStatus } from '../message.repository';
import { isUuid, MESSAGE_LOG_MAX_LIMIT, messageLogFilterError, type MessageLogFilter } from './message-log-filter';

/** One row of the message log. Money as exact JSON numbers (4 decimals at most), times ISO 8601. */
export interface MessageLogItem {
  message_id: string;
  to: string;
  from: string;
  status: MessageStatus;
  parts: number;
  cost: number;
  refunded: number;
  reference: string | null;
  campaign_id: string | null;
  error_code: string | null;
  created_at: string;
  scheduled_time: string | null;
  /** When its first part was accepted by a carrier. */
  sent_at: string | null;
  /** When it became `delivered` (null in any other state). */
  delivered_at: string | null;
  /** When it took its final state, whichever. */
  completed_at: string | null;
}

export interface MessageLogPage {
  /** Newest first: by creation time, then id. */
  limit: number;
  /** null: the first page. */
  cursor: string | null;
}

/** A row of the messages query, for the lists that map it (the log's items, the API's). */
export interface LogRow {
  id: string;
  route: string;
  otp_id: string | null;
  /** null for an OTP's message: its text is sealed. */
  body: string | null;
  recipient: string;
  sender: string;
  status: MessageStatus;
  parts: number;
  cost: string;
  refunded: string;
  reference: string | null;
  campaign_id: string | null;
  error_code: string | null;
  created_at: Date;
  /** created_at in microseconds since the epoch, exact (a Date keeps milliseconds only). */
  created_us: string;
  scheduled_at: Date | null;
  sent_at: Date | null;
  completed_at: Date | null;
}

/** A cursor of the log: the creation time in microseconds since the epoch, and the id. */
const CURSOR_SHAPE = [/[0-9]{1,17}/, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/];

export const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

export class MessageLogFilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MessageLogFilterError';
  }
}

/**
 * The company's messages that match, newest first, a page at a time: each page reads `limit`
 * rows after the cursor's (keyset pagination, never OFFSET), so a page costs the same however
 * deep it is, and rows that arrive meanwhile never shift a page. OTP messages are not listed
 * (their texts are sealed; the verifications show them). Throws InvalidCursorError for a cursor
 * that is not one of this list's, MessageLogFilterError for a filter that cannot be run.
 *
 * Indexes (migration 1764600001000): newest first `messages_log_idx`, by number
 * `messages_log_recipient_idx` (text_pattern_ops: a prefix is a byte range whatever the
 * collation), by reference `messages_log_reference_idx`; a campaign's messages are looked for
 * within its lifetime. Status is no index's column (0016): a rare status is found by reading
 * the company's messages newest first until a page is full.
 */
export function listMessageLog(db: DataSource, companyId: string, filter: MessageLogFilter, page: MessageLogPage): Promise<KeysetPage<MessageLogItem>> {
  return queryMessageLog(db, companyId, { ...filter, sender: null, includeOtps: false }, page, logItem);
}

/**
 * listMessageLog's query, each row mapped by `item`. `filter.includeOtps` lists OTP messages too
 * (their bodies read as null); `filter.sender` narrows to one sender, exactly (no index has it:
 * read like a status).
 */
export async function queryMessageLog<T>(
  db: DataSource,
  companyId: string,
  filter: MessageLogFilter,
  page: MessageLogPage,
  item: (row: LogRow) => T,
): Promise<KeysetPage<T>> {
  const error = messageLogFilterError(filter);
  if (error) throw new MessageLogFilterError(error);
  if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > MESSAGE_LOG_MAX_LIMIT) {
    throw new MessageLogFilterError(`limit must be an integer from 1 to ${MESSAGE_LOG_MAX_LIMIT}`);
  }
  const after = page.cursor === null ? null : decodeCursorOrThrow(page.cursor, CURSOR_SHAPE);
  if ((filter.messageId !== null && !isUuid(filter.messageId)) || (filter.campaignId !== null && !isUuid(filter.campaignId))) {
    return { items: [], next_cursor: null };
  }
  const campaign = filter.campaignId === null ? null : await campaignLifetime(db, companyId, filter.campaignId);
  if (campaign === 'unknown') return { items: [], next_cursor: null };
  const statement = sql`SELECT m.id, m.route, m.otp_id, CASE WHEN m.otp_id IS NULL AND NOT m.body_sealed THEN m.body END AS body, m.recipient, m.sender, m.status, m.parts, m.cost::text AS cost, m.refunded::text AS refunded, m.reference,
       m.campaign_id, m.error_code, m.created_at, (extract(epoch FROM m.created_at) * 1000000)::bigint::text AS created_us,
       m.scheduled_at, m.sent_at, m.completed_at
     FROM messages m
     WHERE ${join(conditions(companyId, filter, campaign, after), ' AND ')}
     ORDER BY m.created_at DESC, m.id DESC
     LIMIT ${page.limit + 1}`;
  const rows: LogRow[] = await db.query(statement.text, statement.values);
  return keysetPage(rows, page.limit, (row) => [row.created_us, row.id], item);
}

/** When a campaign's messages can have been made: from its acceptance to its completion (exact times, as text). */
type CampaignLifetime = { since: string; until: string | null };

async function campaignLifetime(db: DataSource, companyId: string, campaignId: string): Promise<CampaignLifetime | 'unknown'> {
  const [row]: CampaignLifetime[] = await db.query(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS since,
       CASE WHEN status = 'completed' THEN to_char(completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END AS until
     FROM campaigns WHERE id = $1 AND company_id = $2`,
    [campaignId, companyId],
  );
  return row ?? 'unknown';
}

function conditions(companyId: string, filter: MessageLogFilter, campaign: CampaignLifetime | null, after: string[] | null): Sql[] {
  const where: Sql[] = [sql`m.company_id = ${companyId}`];
  if (filter.includeOtps !== true) where.push(sql`m.otp_id IS NULL`);
  if (filter.sender != null) where.push(sql`m.sender = ${filter.sender}`);
  if (filter.messageId !== null) where.push(sql`m.id = ${filter.messageId}::uuid`);
  if (filter.number?.match === 'exact') where.push(sql`m.recipient = ${filter.number.value}`);
  // Digits only after the +: every number that starts with them lies between the prefix and the
  // prefix followed by ':', the byte after '9'.
  if (filter.number?.match === 'prefix') where.push(sql`m.recipient ~>=~ ${filter.number.value} AND m.recipient ~<~ ${`${filter.number.value}:`}`);
  if (filter.reference !== null) where.push(sql`m.reference = ${filter.reference}`);
  if (filter.statuses !== null) where.push(sql`m.status = ANY(${[...filter.statuses]}::text[])`);
  if (filter.from !== null) where.push(sql`m.created_at >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.before !== null) where.push(sql`m.created_at < ${filter.before.toISOString()}::timestamptz`);
  if (filter.campaignId !== null && campaign !== null) {
    // Its messages are made after it was accepted and before it completed: bounds on the
    // company's log index, so an old campaign is not looked for among every newer message. As
    // values, not sub-selects: the planner sizes the range from them.
    where.push(sql`m.campaign_id = ${filter.campaignId}::uuid`, sql`m.created_at >= ${campaign.since}::timestamptz`);
    if (campaign.until !== null) where.push(sql`m.created_at <= ${campaign.until}::timestamptz`);
  }
  if (after !== null) {
    const [micros, id] = after;
    where.push(sql`(m.created_at, m.id) < (timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond', ${id}::uuid)`);
  }
  return where;
}

/** A row of the console's message log; the API's list (apiMessageItem) adds to it. */
export function logItem(row: LogRow): MessageLogItem {
  return {
    message_id: row.id,
    to: row.recipient,
    from: row.sender,
    status: row.status,
    parts: Number(row.parts),
    cost: moneyToJson(parseMoney(row.cost)),
    refunded: moneyToJson(parseMoney(row.refunded)),
    reference: row.reference,
    campaign_id: row.campaign_id,
    error_code: row.error_code,
    created_at: iso(row.created_at) ?? '',
    scheduled_time: iso(row.scheduled_at),
    sent_at: iso(row.sent_at),
    delivered_at: row.status === 'delivered' ? iso(row.completed_at) : null,
    completed_at: iso(row.completed_at),
  };
}
