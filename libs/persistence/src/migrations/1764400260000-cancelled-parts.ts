import type { MigrationInterface, QueryRunner } from 'typeorm';

const PART_STATES = `'pending', 'submitted', 'delivered', 'undelivered', 'expired', 'rejected', 'failed'`;

/**
 * A part can be `cancelled`: a scheduled message that is cancelled cancels its parts with it, so
 * that `GET /sms/{id}` does not show the parts of a cancelled message as pending. The parts of
 * messages cancelled before this migration are cancelled too.
 */
export class CancelledParts1764400260000 implements MigrationInterface {
  name = 'CancelledParts1764400260000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE message_parts DROP CONSTRAINT message_parts_status_check`);
    await db.query(`ALTER TABLE message_parts ADD CONSTRAINT message_parts_status_check CHECK (status IN (${PART_STATES}, 'cancelled'))`);
    await db.query(
      `UPDATE message_parts p SET status = 'cancelled' FROM messages m WHERE m.id = p.message_id AND m.status = 'cancelled' AND p.status = 'pending'`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`UPDATE message_parts SET status = 'pending' WHERE status = 'cancelled'`);
    await db.query(`ALTER TABLE message_parts DROP CONSTRAINT message_parts_status_check`);
    await db.query(`ALTER TABLE message_parts ADD CONSTRAINT message_parts_status_check CHECK (status IN (${PART_STATES}))`);
  }
}
