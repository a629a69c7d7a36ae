import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createIndexConcurrently, dropIndexConcurrently } from './concurrent-index';

/** The indexes this migration builds: [name, table and columns]. */
export const CONSOLE_INDEXES: readonly [name: string, definition: string][] = [
  // The message log, newest first, and its searches by number (exact or prefix: text_pattern_ops
  // compares bytes whatever the database's collation) and by reference. OTP messages are not in
  // the log (their texts are sealed; the verifications page shows them), so their inserts skip
  // all three.
  ['messages_log_idx', 'messages (company_id, created_at DESC, id DESC) WHERE otp_id IS NULL'],
  ['messages_log_recipient_idx', 'messages (company_id, recipient text_pattern_ops, created_at DESC, id DESC) WHERE otp_id IS NULL'],
  ['messages_log_reference_idx', 'messages (company_id, reference, created_at DESC, id DESC) WHERE otp_id IS NULL AND reference IS NOT NULL'],
  // The 3-failure blocks of a company, newest first: a few rows among all its OTP events, written
  // only with a block.
  ['otp_events_blocked_idx', "otp_events (company_id, created_at DESC, id DESC) WHERE event = 'blocked'"],
  // The ledger over a date range (its list, the spend by day) without reading every entry of the
  // company; kind and amount in the index, so the spend by day reads the index alone.
  ['ledger_entries_company_created_idx', 'ledger_entries (company_id, created_at) INCLUDE (kind, amount)'],
];

/**
 * The console's reads (docs/decisions/0036-console-indexes.md). Built CONCURRENTLY, so the
 * messages and the ledger keep taking writes while they are built: that cannot run inside a
 * transaction, so this migration runs outside one (`transaction = false`) and each step can be
 * run again. None of them names a column that submits or receipts update (0016).
 *
 * `messages_company_created_idx` goes: nothing read it, every message insert wrote it, and
 * `messages_log_idx` serves what it could have served.
 */
export class ConsoleIndexes1764600001000 implements MigrationInterface {
  name = 'ConsoleIndexes1764600001000';
  transaction = false;

  async up(db: QueryRunner): Promise<void> {
    for (const [name, definition] of CONSOLE_INDEXES) await createIndexConcurrently(db, name, definition);
    await dropIndexConcurrently(db, 'messages_company_created_idx');
  }

  /** Reverting runs in a transaction (TypeORM's undo always does): plain CREATE and DROP. */
  async down(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX IF NOT EXISTS messages_company_created_idx ON messages (company_id, created_at DESC)`);
    for (const [name] of [...CONSOLE_INDEXES].reverse()) await db.query(`DROP INDEX IF EXISTS ${name}`);
  }
}
