import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delivery receipts as they arrive from carriers. A receipt can overtake the submit_sm_resp of
 * its part (or the recording of it); keeping every receipt lets the part pick it up when its
 * carrier id is recorded, instead of losing it.
 */
export class CarrierReceipts1763800001000 implements MigrationInterface {
  name = 'CarrierReceipts1763800001000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE carrier_receipts (
        carrier_message_id text PRIMARY KEY,
        stat text NOT NULL,
        err text,
        done_at timestamptz,
        received_at timestamptz NOT NULL DEFAULT now(),
        applied_at timestamptz
      )`);
    await db.query(`CREATE INDEX carrier_receipts_unapplied_idx ON carrier_receipts (received_at) WHERE applied_at IS NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE carrier_receipts`);
  }
}
