import { formatMoney, type Money } from '@mp/billing-domain';
import type { DataSource, EntityManager } from 'typeorm';

export type MessageStatus =
  | 'scheduled'
  | 'queued'
  | 'sent'
  | 'delivered'
  | 'undelivered'
  | 'expired'
  | 'rejected'
  | 'failed'
  | 'cancelled';

export interface NewMessage {
  id: string;
  companyId: string;
  requestId: string;
  route: string;
  sender: string;
  recipient: string;
  body: string;
  encoding: 'GSM-7' | 'UCS-2';
  parts: number;
  pricePerPart: Money;
  cost: Money;
  reference: string | null;
  webhookUrl: string | null;
  status: 'scheduled' | 'queued';
  scheduledAt: Date | null;
  /** One stable 16-bit reference per part, so a carrier drops a resubmission. */
  partReferences: number[];
}

/** Rows per INSERT: bounds the size of one statement's arrays. */
const CHUNK = 5_000;

export class MessageRepository {
  constructor(private readonly db: DataSource) {}

  /** Inserts messages and their parts with multi-row INSERTs, inside the caller's transaction. */
  async insertMany(manager: EntityManager, messages: readonly NewMessage[]): Promise<void> {
    for (let start = 0; start < messages.length; start += CHUNK) {
      const chunk = messages.slice(start, start + CHUNK);
      await this.insertMessages(manager, chunk);
      await this.insertParts(manager, chunk);
    }
  }

  async findForCompany(companyId: string, id: string): Promise<Record<string, unknown> | null> {
    const rows: Record<string, unknown>[] = await this.db.query(
      `SELECT * FROM messages WHERE id = $1 AND company_id = $2`,
      [id, companyId],
    );
    return rows[0] ?? null;
  }

  private async insertMessages(manager: EntityManager, chunk: readonly NewMessage[]): Promise<void> {
    const column = <T>(pick: (m: NewMessage) => T): T[] => chunk.map(pick);
    await manager.query(
      `INSERT INTO messages (id, company_id, request_id, route, sender, recipient, body, encoding, parts,
         price_per_part, cost, reference, webhook_url, status, scheduled_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
         $9::smallint[], $10::numeric[], $11::numeric[], $12::text[], $13::text[], $14::text[], $15::timestamptz[])`,
      [
        column((m) => m.id),
        column((m) => m.companyId),
        column((m) => m.requestId),
        column((m) => m.route),
        column((m) => m.sender),
        column((m) => m.recipient),
        column((m) => m.body),
        column((m) => m.encoding),
        column((m) => m.parts),
        column((m) => formatMoney(m.pricePerPart)),
        column((m) => formatMoney(m.cost)),
        column((m) => m.reference),
        column((m) => m.webhookUrl),
        column((m) => m.status),
        column((m) => m.scheduledAt?.toISOString() ?? null),
      ],
    );
  }

  private async insertParts(manager: EntityManager, chunk: readonly NewMessage[]): Promise<void> {
    const ids: string[] = [];
    const indexes: number[] = [];
    const references: number[] = [];
    for (const message of chunk) {
      message.partReferences.forEach((reference, i) => {
        ids.push(message.id);
        indexes.push(i + 1);
        references.push(reference);
      });
    }
    await manager.query(
      `INSERT INTO message_parts (message_id, part_index, user_message_reference)
       SELECT * FROM unnest($1::uuid[], $2::smallint[], $3::integer[])`,
      [ids, indexes, references],
    );
  }
}
