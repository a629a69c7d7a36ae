import type { DataSource } from 'typeorm';
import { inKeyedTransaction } from './keyed-transaction';

export interface DispatchPart {
  index: number;
  status: string;
  userMessageReference: number;
  carrierMessageId: string | null;
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
}

interface PartRow {
  message_id: string;
  part_index: number;
  status: string;
  user_message_reference: number;
  carrier_message_id: string | null;
}

/** The messages that exist among these ids, in the order given (each once), with their parts. */
export async function loadMessages(db: DataSource, messageIds: readonly string[]): Promise<DispatchMessage[]> {
  // Lower case, as PostgreSQL writes uuids, so ids given in upper case are found too.
  const ids = [...new Set(messageIds.map((id) => id.toLowerCase()))];
  if (ids.length === 0) return [];
  const { messages, parts } = await inKeyedTransaction(db, async (manager) => {
    const messages: MessageRow[] = await manager.query(
      `SELECT id, status, sender, recipient, body, body_sealed, route, webhook_url FROM messages WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const parts: PartRow[] = await manager.query(
      `SELECT message_id, part_index, status, user_message_reference, carrier_message_id FROM message_parts
       WHERE message_id = ANY($1::uuid[]) ORDER BY message_id, part_index`,
      [ids],
    );
    return { messages, parts };
  });
  const partsOf = new Map<string, DispatchPart[]>();
  for (const p of parts) {
    const list = partsOf.get(p.message_id) ?? [];
    list.push({ index: p.part_index, status: p.status, userMessageReference: p.user_message_reference, carrierMessageId: p.carrier_message_id });
    partsOf.set(p.message_id, list);
  }
  const byId = new Map(messages.map((m) => [m.id, m]));
  return ids.flatMap((id) => {
    const m = byId.get(id);
    if (!m) return [];
    const { webhook_url: webhookUrl, body_sealed: bodySealed, ...fields } = m;
    return [{ ...fields, bodySealed, webhookUrl, parts: partsOf.get(id) ?? [] }];
  });
}
