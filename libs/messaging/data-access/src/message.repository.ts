import { balancesFromJson, chargeCtes, type GroupCharge } from '@mp/billing';
import { formatMoney, type Money } from '@mp/billing-domain';
import { queryPrepared } from '@mp/persistence';
import { outboxRows, type OutboxJob } from '@mp/queue-runtime';
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

interface Statement {
  sql: string;
  params: unknown[];
}

/** More inserts for insertWithJobs' statement: `name AS (INSERT …)` CTEs whose parameters start at `first`. */
export type AlsoInserted = (first: number) => { ctes: string[]; params: unknown[] };

export class MessageRepository {
  constructor(private readonly db: DataSource) {}

  /** Inserts messages and their parts, one statement per chunk, inside the caller's transaction. */
  async insertMany(manager: EntityManager, messages: readonly NewMessage[]): Promise<void> {
    for (let start = 0; start < messages.length; start += CHUNK) {
      const chunk = messages.slice(start, start + CHUNK);
      const rows = messageRows(chunk, 1);
      const parts = partRows(chunk, 1 + rows.params.length);
      // Prepared: a campaign inserts its messages with this one statement, batch after batch.
      await queryPrepared(manager, `WITH m AS (${rows.sql}) ${parts.sql}`, [...rows.params, ...parts.params]);
    }
  }

  /**
   * Inserts messages, their parts and the outbox jobs that will dispatch them in ONE statement (one
   * round trip: acceptance is latency-bound), with the caller's own inserts (`also`: more CTEs,
   * numbering their parameters from the one given) in the same statement. Returns the ids of the
   * outbox rows inserted.
   */
  async insertWithJobs(manager: EntityManager, messages: readonly NewMessage[], jobs: readonly OutboxJob[], also?: AlsoInserted): Promise<string[]> {
    const { ctes, params, outbox } = insertStatements(messages, jobs, also);
    const inserted = await queryPrepared<{ id: string }>(manager, `WITH ${ctes} ${outbox.sql}`, [...params, ...outbox.params]);
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
    const [row] = await queryPrepared<Record<string, unknown>>(manager, statement.text, statement.values);
    return statement.read(row);
  }

  async findForCompany(companyId: string, id: string): Promise<Record<string, unknown> | null> {
    const rows: Record<string, unknown>[] = await this.db.query(
      `SELECT * FROM messages WHERE id = $1 AND company_id = $2`,
      [id, companyId],
    );
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
  const { ctes, params, outbox } = insertStatements(messages, jobs, also);
  const charging = chargeCtes(1 + params.length + outbox.params.length, charges);
  return {
    text: `WITH ${ctes}, ob AS (${outbox.sql}), ${charging.ctes.join(', ')}
       SELECT ARRAY(SELECT id FROM ob) AS ids, (SELECT json_agg(json_build_array(company_id, balance::text)) FROM charged) AS balances`,
    values: [...params, ...outbox.params, ...charging.params],
    read: (row) => ({
      outboxIds: ((row?.['ids'] as unknown[] | null) ?? []).map(String),
      balances: balancesFromJson((row?.['balances'] as [string, string][] | null) ?? null),
    }),
  };
}

/** The CTEs of insertWithJobs (messages, parts, the caller's) and its outbox insert, numbered from $1. */
function insertStatements(messages: readonly NewMessage[], jobs: readonly OutboxJob[], also?: AlsoInserted): { ctes: string; params: unknown[]; outbox: Statement } {
  const rows = messageRows(messages, 1);
  const parts = partRows(messages, 1 + rows.params.length);
  const extra = also?.(1 + rows.params.length + parts.params.length) ?? { ctes: [], params: [] };
  const params = [...rows.params, ...parts.params, ...extra.params];
  return { ctes: [`m AS (${rows.sql})`, `p AS (${parts.sql})`, ...extra.ctes].join(', '), params, outbox: outboxRows(jobs, 1 + params.length) };
}

/** `$first, $first+1, …` cast to these types, for `unnest`. */
function unnestOf(first: number, types: readonly string[]): string {
  return `unnest(${types.map((type, i) => `$${first + i}::${type}[]`).join(', ')})`;
}

function messageRows(messages: readonly NewMessage[], first: number): Statement {
  const column = <T>(pick: (m: NewMessage) => T): T[] => messages.map(pick);
  const types = [
    ...['uuid', 'uuid', 'uuid', 'text', 'text', 'text', 'text', 'text', 'smallint', 'numeric', 'numeric', 'text', 'text', 'text', 'timestamptz'],
    ...['text', 'uuid', 'boolean', 'uuid', 'uuid', 'integer'],
  ];
  return {
    sql: `INSERT INTO messages (id, company_id, request_id, route, sender, recipient, body, encoding, parts,
            price_per_part, cost, reference, webhook_url, status, scheduled_at, channel, otp_id, body_sealed, campaign_id, batch_id, batch_index)
          SELECT * FROM ${unnestOf(first, types)}`,
    params: [
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
      column((m) => m.channel ?? 'sms'),
      column((m) => m.otpId ?? null),
      column((m) => m.bodySealed ?? false),
      column((m) => m.campaignId ?? null),
      column((m) => m.batchId ?? null),
      column((m) => m.batchIndex ?? null),
    ],
  };
}

function partRows(messages: readonly NewMessage[], first: number): Statement {
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
  return {
    sql: `INSERT INTO message_parts (message_id, part_index, user_message_reference) SELECT * FROM ${unnestOf(first, ['uuid', 'smallint', 'integer'])}`,
    params: [ids, indexes, references],
  };
}
