import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the reconciliation sweepers look for, found without scanning: parts still waiting for a
 * receipt, oldest first, and webhook deliveries whose next attempt is due.
 */
export class ReconciliationIndexes1763900000000 implements MigrationInterface {
  name = 'ReconciliationIndexes1763900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX message_parts_awaiting_receipt_idx ON message_parts (submitted_at) WHERE status = 'submitted'`);
    await db.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX webhook_deliveries_due_idx`);
    await db.query(`DROP INDEX message_parts_awaiting_receipt_idx`);
  }
}
