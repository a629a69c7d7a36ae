import { balancesFromJson, chargeCtes, type GroupCharge } from '@mp/billing';
import { formatMoney, type Money } from '@mp/billing-domain';
import { join, queryPrepared, sql, unnest, type Sql } from '@mp/persistence';
import { outboxRows, type OutboxJob } from '@mp/queue-runtime';
import type { DataSource, EntityManager } from 'typeorm';

export type MessageStatus = 'scheduled' | 'queued' | 'sent' | 'delivered' | 'undelivered' | 'expired' | 'rejected' | 'failed' | 'cancelled';

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
  /** Default `sms`. */
  channel?: 'sms' | 'whatsapp';
  /** The OTP this message carries the code of; its body is then sealed (AES-256-GCM). */
  otpId?: string | null;
  bodySealed?: boolean;
  /** A campaign's message: its campaign, batch and 1-based position in the batch. */
  campaignId?: string | null;
  batchId?: string | null;
  batchIndex?: number | null;
}

/** Rows per statement: bounds the size of one statement's arrays. */
const CHUNK = 5_000;

/** More inserts for insertWithJobs' statement: `name AS (INSERT …)` CTEs, joined by commas. */
export type AlsoInserted = Sql;

export class MessageRepository {
  constructor(private readonly db: DataSource) {}

  /** Inserts messages and their parts, one statement per chunk, inside the caller's transaction. */
  async insertMany(manager: EntityManager, messages: readonly NewMessage[]): Promise<void> {
    for (let start = 0; start < messages.length; start += CHUNK) {
      const chunk = messages.slice(start, start + CHUNK);
      // Prepared: a campaign inserts its messages with this one statement, batch after batch.
      await queryPrepared(manager, sql`WITH m AS (${messageRows(chunk)}) ${partRows(chunk)}`);
    }
  }

  /**
   * Inserts messages, their parts and the outbox jobs that will dispatch them in ONE statement (one
   * round trip: acceptance is latency-bound), with the caller's own inserts (`also`: more CTEs)
   * in the same statement. Returns the ids of the outbox rows inserted.
   */
  async insertWithJobs(manager: EntityManager, messages: readonly NewMessage[], jobs: readonly OutboxJob[], also?: AlsoInserted): Promise<string[]> {
    const inserted = await queryPrepared<{ id: string }>(manager, sql`WITH ${insertCtes(messages, also)} ${outboxRows(jobs)}`);
    return inserted.map((row) => String(row.id));
  }

  /**
   * insertWithJobs and, in the same statement, the charges taken (chargeCtes): one round trip, in
   * the caller's transaction or on its own in autocommit, for a group whose balances cover it.
   * Fails, writing nothing, when they do not (isUncoveredCharge). Returns the outbox ids and the
   * balances after the charges.
   */
  async insertWithJobsCharging(
    manager: EntityManager,
    messages: readonly NewMessage[],
    jobs: readonly OutboxJob[],
    charges: readonly GroupCharge[],
    also?: AlsoInserted,
  ): Promise<InsertedAndCharged> {
    const statement = insertWithJobsChargingStatement(messages, jobs, charges, also);
    const [row] = await queryPrepared<Record<string, unknown>>(manager, statement);
    return statement.read(row);
  }

  async findForCompany(companyId: string, id: string): Promise<Record<string, unknown> | null> {
    const rows: Record<string, unknown>[] = await this.db.query(`SELECT * FROM messages WHERE id = $1 AND company_id = $2`, [id, companyId]);
    return rows[0] ?? null;
  }
}

/** What insertWithJobsCharging inserted and charged: the outbox ids, and the balances after the charges. */
export interface InsertedAndCharged {
  outboxIds: string[];
  balances: Map<string, Money>;
}

/** insertWithJobsCharging's statement, for a caller that sends it itself (with a COMMIT, say), and how to read its one row. */
export function insertWithJobsChargingStatement(
  messages: readonly NewMessage[],
  jobs: readonly OutboxJob[],
  charges: readonly GroupCharge[],
  also?: AlsoInserted,
): { text: string; values: unknown[]; read: (row: Record<string, unknown> | undefined) => InsertedAndCharged } {
  const statement = sql`WITH ${insertCtes(messages, also)}, ob AS (${outboxRows(jobs)}), ${chargeCtes(charges)}
       SELECT ARRAY(SELECT id FROM ob) AS ids, (SELECT json_agg(json_build_array(company_id, balance::text)) FROM charged) AS balances`;
  return {
    text: statement.text,
    values: statement.values,
    read: (row) => ({
      outboxIds: ((row?.['ids'] as unknown[] | null) ?? []).map(String),
      balances: balancesFromJson((row?.['balances'] as [string, string][] | null) ?? null),
    }),
  };
}

/** The CTEs of insertWithJobs: the messages, their parts, and the caller's. */
function insertCtes(messages: readonly NewMessage[], also?: AlsoInserted): Sql {
  return join([sql`m AS (${messageRows(messages)})`, sql`p AS (${partRows(messages)})`, ...(also ? [also] : [])], ', ');
}

function messageRows(messages: readonly NewMessage[]): Sql {
  const column = <T>(pick: (m: NewMessage) => T, type: string): [T[], string] => [messages.map(pick), type];
  return sql`INSERT INTO messages (id, company_id, request_id, route, sender, recipient, body, encoding, parts,
            price_per_part, cost, reference, webhook_url, status, scheduled_at, channel, otp_id, body_sealed, campaign_id, batch_id, batch_index)
          SELECT * FROM ${unnest([
            column((m) => m.id, 'uuid'),
            column((m) => m.companyId, 'uuid'),
            column((m) => m.requestId, 'uuid'),
            column((m) => m.route, 'text'),
            column((m) => m.sender, 'text'),
            column((m) => m.recipient, 'text'),
            column((m) => m.body, 'text'),
            column((m) => m.encoding, 'text'),
            column((m) => m.parts, 'smallint'),
            column((m) => formatMoney(m.pricePerPart), 'numeric'),
            column((m) => formatMoney(m.cost), 'numeric'),
            column((m) => m.reference, 'text'),
            column((m) => m.webhookUrl, 'text'),
            column((m) => m.status, 'text'),
            column((m) => m.scheduledAt?.toISOString() ?? null, 'timestamptz'),
            column((m) => m.channel ?? 'sms', 'text'),
            column((m) => m.otpId ?? null, 'uuid'),
            column((m) => m.bodySealed ?? false, 'boolean'),
            column((m) => m.campaignId ?? null, 'uuid'),
            column((m) => m.batchId ?? null, 'uuid'),
            column((m) => m.batchIndex ?? null, 'integer'),
          ])}`;
}

function partRows(messages: readonly NewMessage[]): Sql {
  const ids: string[] = [];
  const indexes: number[] = [];
  const references: number[] = [];
  for (const message of messages) {
    message.partReferences.forEach((reference, i) => {
      ids.push(message.id);
      indexes.push(i + 1);
      references.push(reference);
    });
  }
  return sql`INSERT INTO message_parts (message_id, part_index, user_message_reference) SELECT * FROM ${unnest([
    [ids, 'uuid'],
    [indexes, 'smallint'],
    [references, 'integer'],
  ])}`;
}
