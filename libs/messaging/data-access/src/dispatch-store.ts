import { OutboxRepository, type OutboxJob } from '@mp/persistence';
import type { MessageEventStatus } from '@mp/queue-contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { jobsForTransition, type MessageTransition } from './message-events';

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
  body: string;
  route: string;
  parts: DispatchPart[];
}

/** Receipt states that end a part, as carriers report them in `stat:`. */
const FINAL_RECEIPT_STATES: Record<string, string> = {
  DELIVRD: 'delivered',
  UNDELIV: 'undelivered',
  EXPIRED: 'expired',
  REJECTD: 'rejected',
  DELETED: 'undelivered',
  UNKNOWN: 'undelivered',
};

const MESSAGE_FINAL = ['delivered', 'undelivered', 'expired', 'rejected', 'failed', 'cancelled'];

/** What a write changed, and the outbox jobs committed with it, for the caller to relay. */
export interface DispatchResult {
  transitions: MessageTransition[];
  outbox: { ids: string[]; jobs: OutboxJob[] };
}

/**
 * The dispatcher's view of messages and parts. Every write is conditional on the state it moves
 * from, so a job that runs twice, or a receipt that arrives twice or early, changes nothing twice.
 */
export class DispatchStore {
  private readonly outbox: OutboxRepository;

  constructor(private readonly db: DataSource) {
    this.outbox = new OutboxRepository(db);
  }

  async load(messageId: string): Promise<DispatchMessage | null> {
    const rows: { id: string; status: string; sender: string; recipient: string; body: string; route: string }[] = await this.db.query(
      `SELECT id, status, sender, recipient, body, route FROM messages WHERE id = $1`,
      [messageId],
    );
    if (rows.length === 0) return null;
    const parts: { part_index: number; status: string; user_message_reference: number; carrier_message_id: string | null }[] =
      await this.db.query(
        `SELECT part_index, status, user_message_reference, carrier_message_id FROM message_parts WHERE message_id = $1 ORDER BY part_index`,
        [messageId],
      );
    return {
      ...rows[0],
      parts: parts.map((p) => ({
        index: p.part_index,
        status: p.status,
        userMessageReference: p.user_message_reference,
        carrierMessageId: p.carrier_message_id,
      })),
    };
  }

  /** A scheduled message whose time came: `queued`, unless it was cancelled first. Returns its status. */
  async release(messageId: string): Promise<string | null> {
    const rows: { status: string }[] = await this.db.query(
      `WITH released AS (
         UPDATE messages SET status = 'queued', updated_at = now() WHERE id = $1 AND status = 'scheduled' RETURNING status)
       SELECT status FROM released UNION ALL SELECT status FROM messages WHERE id = $1 LIMIT 1`,
      [messageId],
    );
    return rows[0]?.status ?? null;
  }

  /** The carrier accepted a part: record its id, mark the message sent, and apply an early receipt. */
  async recordSubmitted(messageId: string, partIndex: number, carrierMessageId: string): Promise<DispatchResult> {
    return this.withEvents(async (manager) => {
      await lockCarrierId(manager, carrierMessageId);
      await manager.query(
        `UPDATE message_parts SET status = 'submitted', carrier_message_id = $3, submitted_at = now()
         WHERE message_id = $1 AND part_index = $2 AND status = 'pending'`,
        [messageId, partIndex, carrierMessageId],
      );
      const sent: { id: string }[] = await manager.query(
        `WITH sent AS (
           UPDATE messages SET status = 'sent', sent_at = coalesce(sent_at, now()), updated_at = now()
           WHERE id = $1 AND status = 'queued' RETURNING id)
         SELECT id FROM sent`,
        [messageId],
      );
      const transitions: MessageTransition[] = sent.length > 0 ? [{ messageId, status: 'sent' }] : [];
      const early = await this.applyStoredReceipt(manager, carrierMessageId);
      return early ? [...transitions, early] : transitions;
    });
  }

  /** A part the carrier refused for good: it never reached a carrier. */
  async recordPartFailed(messageId: string, partIndex: number, errorCode: string, reason: string): Promise<DispatchResult> {
    return this.withEvents(async (manager) => {
      await manager.query(
        `UPDATE message_parts SET status = 'failed', error_code = $3, completed_at = now()
         WHERE message_id = $1 AND part_index = $2 AND status = 'pending'`,
        [messageId, partIndex, errorCode],
      );
      await manager.query(`UPDATE messages SET error_code = coalesce(error_code, $2), error_reason = coalesce(error_reason, $3) WHERE id = $1`, [
        messageId,
        errorCode,
        reason,
      ]);
      const settled = await this.settle(manager, messageId);
      return settled ? [settled] : [];
    });
  }

  /** Stores a receipt, then applies it to its part if the part's carrier id is known yet. */
  async applyReceipt(receipt: { carrierMessageId: string; stat: string; err: string; doneAt: Date | null }): Promise<DispatchResult> {
    if (!FINAL_RECEIPT_STATES[receipt.stat]) return { transitions: [], outbox: { ids: [], jobs: [] } };
    return this.withEvents(async (manager) => {
      await lockCarrierId(manager, receipt.carrierMessageId);
      await manager.query(
        `INSERT INTO carrier_receipts (carrier_message_id, stat, err, done_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (carrier_message_id) DO NOTHING`,
        [receipt.carrierMessageId, receipt.stat, receipt.err, receipt.doneAt],
      );
      const settled = await this.applyStoredReceipt(manager, receipt.carrierMessageId);
      return settled ? [settled] : [];
    });
  }

  /**
   * Receipts stored but not applied a while after they arrived: the backstop for a receipt whose
   * part was recorded in a way that missed it. Applies each, returning what changed.
   */
  async applyPendingReceipts(olderThanMs = 5_000, limit = 500): Promise<DispatchResult[]> {
    const pending: { carrier_message_id: string }[] = await this.db.query(
      `SELECT carrier_message_id FROM carrier_receipts
       WHERE applied_at IS NULL AND received_at < now() - make_interval(secs => $1::double precision / 1000)
       ORDER BY received_at LIMIT $2`,
      [olderThanMs, limit],
    );
    const results: DispatchResult[] = [];
    for (const { carrier_message_id: id } of pending) {
      results.push(
        await this.withEvents(async (manager) => {
          await lockCarrierId(manager, id);
          const settled = await this.applyStoredReceipt(manager, id);
          return settled ? [settled] : [];
        }),
      );
    }
    return results;
  }

  /** Runs a write and commits the outbox jobs of the transitions it made in the same transaction. */
  private async withEvents(write: (manager: EntityManager) => Promise<MessageTransition[]>): Promise<DispatchResult> {
    return this.db.transaction(async (manager) => {
      const transitions = await write(manager);
      const jobs = transitions.flatMap((transition) => jobsForTransition(transition));
      return { transitions, outbox: { ids: await this.outbox.insertMany(manager, jobs), jobs } };
    });
  }

  private async applyStoredReceipt(manager: EntityManager, carrierMessageId: string): Promise<MessageTransition | null> {
    const receipts: { stat: string; err: string | null }[] = await manager.query(
      `SELECT stat, err FROM carrier_receipts WHERE carrier_message_id = $1 AND applied_at IS NULL`,
      [carrierMessageId],
    );
    if (receipts.length === 0) return null;
    const [{ stat, err }] = receipts;
    const updated: { message_id: string }[] = await manager.query(
      `WITH done AS (
         UPDATE message_parts SET status = $2, receipt_stat = $3, error_code = CASE WHEN $2 = 'delivered' THEN NULL ELSE $4 END,
           completed_at = now()
         WHERE carrier_message_id = $1 AND status = 'submitted' RETURNING message_id)
       SELECT message_id FROM done`,
      [carrierMessageId, FINAL_RECEIPT_STATES[stat], stat, err],
    );
    if (updated.length === 0) return null;
    await manager.query(`UPDATE carrier_receipts SET applied_at = now() WHERE carrier_message_id = $1`, [carrierMessageId]);
    return this.settle(manager, updated[0].message_id);
  }

  /** Once every part is final, the message takes one final state: delivered only if all parts were. */
  private async settle(manager: EntityManager, messageId: string): Promise<MessageTransition | null> {
    // Lock the message first: two parts' receipts settling at once then see each other's update.
    await manager.query(`SELECT 1 FROM messages WHERE id = $1 FOR UPDATE`, [messageId]);
    const parts: { status: string }[] = await manager.query(`SELECT status FROM message_parts WHERE message_id = $1`, [messageId]);
    if (parts.some((p) => p.status === 'pending' || p.status === 'submitted')) return null;
    const status = finalMessageState(parts.map((p) => p.status)) as MessageEventStatus;
    const changed: { id: string }[] = await manager.query(
      `WITH settled AS (
         UPDATE messages SET status = $2, completed_at = now(), updated_at = now()
         WHERE id = $1 AND NOT (status = ANY($3::text[])) RETURNING id)
       SELECT id FROM settled`,
      [messageId, status, MESSAGE_FINAL],
    );
    return changed.length > 0 ? { messageId, status } : null;
  }
}

/**
 * Serialises the two writers of one carrier id — the receipt and the recording of the submit
 * response — so the second always sees the first: otherwise, running at the same moment, each
 * could look for the other before it committed, and the receipt would never be applied.
 */
async function lockCarrierId(manager: EntityManager, carrierMessageId: string): Promise<void> {
  await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [carrierMessageId]);
}

/** One state for a message from its parts' final states. */
export function finalMessageState(partStates: readonly string[]): string {
  if (partStates.every((s) => s === 'delivered')) return 'delivered';
  if (partStates.every((s) => s === 'failed')) return 'failed';
  for (const state of ['rejected', 'expired', 'undelivered']) if (partStates.includes(state)) return state;
  return 'undelivered';
}
