import { queryPrepared } from '@mp/persistence';
import type { DataSource } from 'typeorm';

export interface DispatchPart {
  index: number;
  status: string;
  userMessageReference: number;
  carrierMessageId: string | null;
  /** Carriers an earlier attempt left after a timeout (they may hold the part); absent when none. */
  timedOutCarriers?: string[];
}

export interface DispatchMessage {
  id: string;
  status: string;
  sender: string;
  recipient: string;
  /** As stored: sealed (AES-256-GCM) when `bodySealed`, which OTP texts are. */
  body: string;
  bodySealed: boolean;
  route: string;
  webhookUrl: string | null;
  parts: DispatchPart[];
}

interface MessageRow {
  id: string;
  status: string;
  sender: string;
  recipient: string;
  body: string;
  body_sealed: boolean;
  route: string;
  webhook_url: string | null;
  /** [part_index, status, user_message_reference, carrier_message_id, timed_out_carriers] per part, in part order. */
  parts: [number, string, number, string | null, string[] | null][] | null;
}

/**
 * The messages that exist among these ids, in the order given (each once), with their parts.
 * One statement, one round trip: it runs for every OTP and every chunk of a campaign, and each
 * message's parts are read by key (a subquery per message), whatever the statistics say.
 */
export async function loadMessages(db: DataSource, messageIds: readonly string[]): Promise<DispatchMessage[]> {
  // Lower case, as PostgreSQL writes uuids, so ids given in upper case are found too.
  const ids = [...new Set(messageIds.map((id) => id.toLowerCase()))];
  if (ids.length === 0) return [];
  const rows = await queryPrepared<MessageRow>(
    db.manager,
    `SELECT m.id, m.status, m.sender, m.recipient, m.body, m.body_sealed, m.route, m.webhook_url,
       (SELECT json_agg(json_build_array(p.part_index, p.status, p.user_message_reference, p.carrier_message_id, p.timed_out_carriers) ORDER BY p.part_index)
        FROM message_parts p WHERE p.message_id = m.id) AS parts
     FROM unnest($1::uuid[]) AS k(id) JOIN messages m ON m.id = k.id`,
    [ids],
  );
  const byId = new Map<string, MessageRow>();
  for (const row of rows) byId.set(row.id, row);
  const messages: DispatchMessage[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (row) messages.push(dispatchMessageOf(row));
  }
  return messages;
}

/**
 * Field by field, not `{ ...rest }` of the row through flatMap: made that way, most of these
 * short-lived objects survived scavenges and were promoted, and the dispatcher's full
 * collections, which stop it, came that much sooner
 * (docs/decisions/0033-dispatcher-old-generation-growth.md).
 */
function dispatchMessageOf(row: MessageRow): DispatchMessage {
  const parts: DispatchPart[] = [];
  for (const [index, status, userMessageReference, carrierMessageId, timedOutCarriers] of row.parts ?? []) {
    // The key only when set, so the usual part (no timeout) stays as small as before.
    if (timedOutCarriers) parts.push({ index, status, userMessageReference, carrierMessageId, timedOutCarriers });
    else parts.push({ index, status, userMessageReference, carrierMessageId });
  }
  return {
    id: row.id,
    status: row.status,
    sender: row.sender,
    recipient: row.recipient,
    body: row.body,
    bodySealed: row.body_sealed,
    route: row.route,
    webhookUrl: row.webhook_url,
    parts,
  };
}
