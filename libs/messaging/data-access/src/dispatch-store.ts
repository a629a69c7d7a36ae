import type { Opening } from '@mp/persistence';
import { OutboxRepository, type OutboxJob } from '@mp/queue-runtime';
import type { DataSource, EntityManager } from 'typeorm';
import { loadMessages, type DispatchMessage } from './dispatch-load';
import { carrierIdLocks, lockMessages, lockMultipartMessages, multipartMessageLocks } from './dispatch-locks';
import { inKeyedRoundTrip, inKeyedTransaction } from './keyed-transaction';
import {
  applyReceiptsToParts,
  applyStoredReceipts,
  finalReceipts,
  storeEarlyReceipts,
  UNNAMED_CARRIER,
  type CarrierReceipt,
  type ReceiptKey,
} from './dispatch-receipts';
import { recordedFrom, recordSubmits, recordSubmitsOpening, recordTimedOut, type SubmittedPart } from './dispatch-submits';
import { settleMessages } from './dispatch-settle';
import { advanceExpiryCursor, findUnansweredParts } from './receipt-expiry';
import { jobsForTransitions, type MessageTransition } from './message-events';
import { NO_RECEIPT } from './receipt-errors';

export type { DispatchMessage, DispatchPart } from './dispatch-load';
export type { CarrierReceipt } from './dispatch-receipts';
export type { SubmittedPart } from './dispatch-submits';
export { finalMessageState } from './dispatch-settle';
export { NO_RECEIPT } from './receipt-errors';

/** What a write changed, and the outbox jobs committed with it, for the caller to relay. */
export interface DispatchResult {
  transitions: MessageTransition[];
  outbox: { ids: string[]; jobs: OutboxJob[] };
}

const nothing = (): DispatchResult => ({ transitions: [], outbox: { ids: [], jobs: [] } });

/**
 * The dispatcher's view of messages and parts. Every write is conditional on the state it moves
 * from, so a job that runs twice, or a receipt that arrives twice or early, changes nothing twice.
 * The batched writes do many items in one transaction with a fixed number of statements, and
 * take their locks in the order described in dispatch-locks.ts.
 */
export class DispatchStore {
  constructor(
    private readonly db: DataSource,
    private readonly outbox: OutboxRepository,
  ) {}

  async load(messageId: string): Promise<DispatchMessage | null> {
    return (await this.loadMany([messageId]))[0] ?? null;
  }

  /** The messages that exist among these ids, in the order given. */
  async loadMany(messageIds: readonly string[]): Promise<DispatchMessage[]> {
    return loadMessages(this.db, messageIds);
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
    return this.recordSubmittedMany([{ messageId, partIndex, carrierMessageId }]);
  }

  /** recordSubmitted for many parts, in one transaction. */
  async recordSubmittedMany(records: readonly SubmittedPart[]): Promise<DispatchResult> {
    if (records.length === 0) return nothing();
    const locks = [
      ...carrierIdLocks(records.map((r) => r.carrierMessageId)),
      ...multipartMessageLocks(records.filter((r) => r.multipart !== false).map((r) => r.messageId)),
    ];
    if (records.every((r) => r.webhook === false)) return this.recordWithoutEvents(records, locks);
    return this.withEvents(async (manager) => {
      const { sent, earlyReceipts } = await recordSubmits(manager, records);
      if (earlyReceipts.length === 0) return sent;
      return [...sent, ...(await settleMessages(manager, await applyStoredReceipts(manager, earlyReceipts)))];
    }, locks);
  }

  /**
   * Records that cannot make an event (no webhook) in one round trip: BEGIN, the locks, the
   * record, COMMIT. A receipt that overtook a record (rare) is applied right after, in a
   * transaction of its own: every write is conditional on the state it moves from, and were this
   * process to stop in between, applyPendingReceipts would apply it.
   */
  private async recordWithoutEvents(records: readonly SubmittedPart[], locks: readonly Opening[]): Promise<DispatchResult> {
    const results = await inKeyedRoundTrip(this.db, [...locks, recordSubmitsOpening(records)]);
    const { sent, earlyReceipts } = recordedFrom(results.at(-1)?.rows[0]);
    if (earlyReceipts.length === 0) return { transitions: sent, outbox: { ids: [], jobs: [] } };
    const applied = await this.withEvents(
      (manager) => this.applyLockedReceipts(manager, earlyReceipts),
      carrierIdLocks(earlyReceipts.map((k) => k.carrierMessageId)),
    );
    return { transitions: [...sent, ...applied.transitions], outbox: applied.outbox };
  }

  /**
   * No carrier took a part now, and these timed out on it (each may hold it): kept on the part,
   * with those recorded before, while it is pending, for the next attempt to try them last.
   */
  async recordTimedOut(messageId: string, partIndex: number, carriers: readonly string[]): Promise<void> {
    await recordTimedOut(this.db.manager, messageId, partIndex, carriers);
  }

  /** A part the carrier refused for good: it never reached a carrier. */
  async recordPartFailed(messageId: string, partIndex: number, errorCode: string, reason: string): Promise<DispatchResult> {
    return this.withEvents(async (manager) => {
      // No carrier id to lock: the message row is this transaction's first lock.
      const locked = await lockMessages(manager, [messageId]);
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
      return settleMessages(manager, locked);
    });
  }

  /** Stores a receipt, then applies it to its part if the part's carrier id is known yet. */
  async applyReceipt(receipt: CarrierReceipt): Promise<DispatchResult> {
    return this.applyReceipts([receipt]);
  }

  /**
   * applyReceipt for many receipts, in one transaction: each is applied to its part at once, and
   * stored only if it overtook the recording of its part (which then applies it).
   */
  async applyReceipts(receipts: readonly CarrierReceipt[]): Promise<DispatchResult> {
    const final = finalReceipts(receipts);
    if (final.length === 0) return nothing();
    return this.withEvents(
      async (manager) => {
        const { settled, others, early } = await applyReceiptsToParts(manager, final);
        await storeEarlyReceipts(manager, early);
        const all = [...settled, ...(others.length > 0 ? await this.settleLocked(manager, others) : [])];
        return all.sort((a, b) => (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0));
      },
      carrierIdLocks(final.map((r) => r.carrierMessageId)),
    );
  }

  /**
   * Receipts stored but not applied a while after they arrived: the backstop for a receipt whose
   * part was recorded in a way that missed it. Applies them in one transaction.
   */
  async applyPendingReceipts(olderThanMs = 5_000, limit = 500): Promise<DispatchResult> {
    const pending: { carrier_message_id: string; carrier: string }[] = await this.db.query(
      // Only receipts whose part is waiting for them: one whose part is never recorded must not
      // fill every round's LIMIT and starve the others.
      `SELECT r.carrier_message_id, r.carrier FROM carrier_receipts r
       WHERE r.applied_at IS NULL AND r.received_at < now() - make_interval(secs => $1::double precision / 1000)
         AND EXISTS (SELECT 1 FROM message_parts p WHERE p.carrier_message_id = r.carrier_message_id AND p.status = 'submitted'
                     AND coalesce(p.carrier, '${UNNAMED_CARRIER}') = r.carrier)
       ORDER BY r.received_at LIMIT $2`,
      [olderThanMs, limit],
    );
    if (pending.length === 0) return nothing();
    const keys = pending.map((row) => ({ carrierMessageId: row.carrier_message_id, carrier: row.carrier }));
    return this.withEvents((manager) => this.applyLockedReceipts(manager, keys), carrierIdLocks(keys.map((k) => k.carrierMessageId)));
  }

  /**
   * Parts submitted more than `afterMs` ago that no receipt has answered (a carrier that lost or
   * never sends it): recorded as an EXPIRED receipt with err `no-receipt`, so the message takes a
   * final state instead of staying `sent` for ever. They reached a carrier, so they stay charged.
   */
  async expireUnanswered(afterMs: number, limit = 500): Promise<DispatchResult> {
    const stale = await findUnansweredParts(this.db, afterMs, limit);
    const result =
      stale.parts.length === 0
        ? nothing()
        : await this.applyReceipts(
            stale.parts.map(({ carrierMessageId, carrier }) => ({ carrierMessageId, carrier, stat: 'EXPIRED', err: NO_RECEIPT, doneAt: null })),
          );
    await advanceExpiryCursor(this.db, stale.nextCursor);
    return result;
  }

  /** With the carrier ids locked: apply their stored receipts, settle. */
  private async applyLockedReceipts(manager: EntityManager, keys: readonly ReceiptKey[]): Promise<MessageTransition[]> {
    return this.settleLocked(manager, await applyStoredReceipts(manager, keys));
  }

  /** Messages whose parts this transaction moved (under their carrier ids' locks): those now final take their state. */
  private async settleLocked(manager: EntityManager, messageIds: readonly string[]): Promise<MessageTransition[]> {
    await lockMultipartMessages(manager, messageIds);
    return settleMessages(manager, messageIds);
  }

  /**
   * Runs a write, after `locks` (sent with the BEGIN), and commits the outbox jobs of the
   * transitions it made in the same transaction.
   */
  private async withEvents(write: (manager: EntityManager) => Promise<MessageTransition[]>, locks: readonly Opening[] = []): Promise<DispatchResult> {
    return inKeyedTransaction(
      this.db,
      async (manager) => {
        const transitions = await write(manager);
        const jobs = jobsForTransitions(transitions);
        return { transitions, outbox: { ids: await this.outbox.insertMany(manager, jobs), jobs } };
      },
      locks,
    );
  }
}
