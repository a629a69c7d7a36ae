import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The foreign keys checked for every message, part and OTP written, which this migration drops. */
export const HOT_PATH_FOREIGN_KEYS: readonly [table: string, constraint: string, definition: string][] = [
  ['messages', 'messages_company_id_fkey', 'FOREIGN KEY (company_id) REFERENCES companies(id)'],
  ['message_parts', 'message_parts_message_id_fkey', 'FOREIGN KEY (message_id) REFERENCES messages(id)'],
  ['otps', 'otps_message_id_fkey', 'FOREIGN KEY (message_id) REFERENCES messages(id)'],
  ['otps', 'otps_company_id_fkey', 'FOREIGN KEY (company_id) REFERENCES companies(id)'],
  ['otps', 'otps_application_id_fkey', 'FOREIGN KEY (application_id) REFERENCES applications(id)'],
  ['otp_events', 'otp_events_otp_id_fkey', 'FOREIGN KEY (otp_id) REFERENCES otps(id)'],
  ['otp_events', 'otp_events_company_id_fkey', 'FOREIGN KEY (company_id) REFERENCES companies(id)'],
  ['otp_events', 'otp_events_application_id_fkey', 'FOREIGN KEY (application_id) REFERENCES applications(id)'],
];

/** The rows those keys pointed to: never deleted, and now refused DELETE and TRUNCATE by a trigger. */
export const NEVER_DELETED_TABLES: readonly string[] = ['companies', 'applications', 'messages', 'otps'];

/**
 * Drops the foreign keys of the rows written per message and per OTP. Each is a trigger that
 * looks up and share-locks its parent row for every row inserted, on the paths that write the most
 * rows (docs/decisions/0019-no-foreign-keys-on-per-message-tables.md; docs/bypasses.md #5).
 *
 * What they guarded still holds in two other ways. The parents are never deleted: nothing in the
 * platform deletes a company, application, message or OTP, and a statement trigger now refuses
 * it (DELETE or TRUNCATE), so no row can lose its parent. And every child is written with a
 * parent read or written by the same code path: a message with the company of the API key that
 * sent it, its parts in the same statement as the message, an OTP's rows in the same statement as
 * its message. Keys that are not on a per-message path (api keys, balances, ledger, campaigns,
 * webhooks, attempts) keep theirs.
 */
export class HotPathForeignKeys1764300000000 implements MigrationInterface {
  name = 'HotPathForeignKeys1764300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION rows_never_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'rows of % are never deleted (other tables refer to them without a foreign key): % refused', TG_TABLE_NAME, TG_OP;
      END $$`);
    for (const table of NEVER_DELETED_TABLES) {
      await db.query(`CREATE TRIGGER ${table}_never_deleted BEFORE DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION rows_never_deleted()`);
    }
    for (const [table, constraint] of HOT_PATH_FOREIGN_KEYS) await db.query(`ALTER TABLE ${table} DROP CONSTRAINT ${constraint}`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const [table, constraint, definition] of HOT_PATH_FOREIGN_KEYS) await db.query(`ALTER TABLE ${table} ADD CONSTRAINT ${constraint} ${definition}`);
    for (const table of NEVER_DELETED_TABLES) await db.query(`DROP TRIGGER ${table}_never_deleted ON ${table}`);
    await db.query(`DROP FUNCTION rows_never_deleted()`);
  }
}
