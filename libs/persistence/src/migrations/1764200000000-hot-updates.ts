import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lets PostgreSQL update a message and its parts in place (HOT updates) when a part is submitted
 * and when its receipt comes: no index may name a column those updates change (status,
 * completed_at, receipt_stat), and pages keep room for the new row versions (fillfactor 50).
 * Each such update used to add an entry to every index of its table
 * (docs/decisions/0016-in-place-updates.md).
 *
 * What the dropped indexes served is found another way: a campaign's messages by campaign_id
 * alone (its completion check is spaced out, see campaign-completion.ts), parts awaiting a
 * receipt by submitted_at from a cursor (sweep_cursors), and scheduled messages were only ever
 * looked up by id.
 */
export class HotUpdates1764200000000 implements MigrationInterface {
  name = 'HotUpdates1764200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX messages_campaign_status_idx`);
    await db.query(`DROP INDEX messages_scheduled_idx`);
    await db.query(`DROP INDEX message_parts_awaiting_receipt_idx`);
    await db.query(`CREATE INDEX messages_campaign_idx ON messages (campaign_id) WHERE campaign_id IS NOT NULL`);
    await db.query(`CREATE INDEX message_parts_submitted_idx ON message_parts (submitted_at) WHERE submitted_at IS NOT NULL`);
    await db.query(`ALTER TABLE messages SET (fillfactor = 50)`);
    await db.query(`ALTER TABLE message_parts SET (fillfactor = 50)`);
    await db.query(`ALTER TABLE campaigns ADD COLUMN completion_check_at timestamptz`);
    await db.query(`
      CREATE TABLE sweep_cursors (
        name text PRIMARY KEY,
        through timestamptz NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE sweep_cursors`);
    await db.query(`ALTER TABLE campaigns DROP COLUMN completion_check_at`);
    await db.query(`ALTER TABLE message_parts RESET (fillfactor)`);
    await db.query(`ALTER TABLE messages RESET (fillfactor)`);
    await db.query(`DROP INDEX message_parts_submitted_idx`);
    await db.query(`DROP INDEX messages_campaign_idx`);
    await db.query(`CREATE INDEX message_parts_awaiting_receipt_idx ON message_parts (submitted_at) WHERE status = 'submitted'`);
    await db.query(`CREATE INDEX messages_scheduled_idx ON messages (scheduled_at) WHERE status = 'scheduled'`);
    await db.query(`CREATE INDEX messages_campaign_status_idx ON messages (campaign_id, status) WHERE campaign_id IS NOT NULL`);
  }
}
