import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which carrier took each part (issue 31; docs/decisions/0057-carrier-routing-in-the-dispatcher.md):
 * `carrier` its name (carriers.name; the margins report groups by it), `carrier_cost` what its
 * route said it charges per part (null: the route has no cost), `timed_out_carriers` the carriers
 * a submit timed out on before it was taken (each may still deliver the part: a second receipt,
 * a second carrier charge). Null on parts submitted before this migration and on parts not yet
 * submitted. No index: nothing looks parts up by them, and unindexed columns keep the part's
 * updates HOT.
 *
 * `carrier_receipts` is keyed by (carrier_message_id, carrier): two carriers may give the same id,
 * and a receipt is matched to the part the carrier it came from took. The rows stored before are
 * the default carrier's. The key starts with the id, so a lookup by id alone still uses it.
 */
export class PartCarriers1764800008000 implements MigrationInterface {
  name = 'PartCarriers1764800008000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE message_parts ADD COLUMN carrier text, ADD COLUMN carrier_cost numeric(12,4), ADD COLUMN timed_out_carriers text[]`);
    await db.query(`ALTER TABLE carrier_receipts ADD COLUMN carrier text NOT NULL DEFAULT 'default'`);
    await db.query(`ALTER TABLE carrier_receipts DROP CONSTRAINT carrier_receipts_pkey, ADD PRIMARY KEY (carrier_message_id, carrier)`);
  }

  async down(db: QueryRunner): Promise<void> {
    // Receipts of other carriers whose id the default carrier's also has cannot keep the old key.
    await db.query(`DELETE FROM carrier_receipts r WHERE r.carrier <> 'default' AND EXISTS (
      SELECT 1 FROM carrier_receipts d WHERE d.carrier_message_id = r.carrier_message_id AND d.carrier <> r.carrier AND (d.carrier = 'default' OR d.carrier < r.carrier))`);
    await db.query(`ALTER TABLE carrier_receipts DROP CONSTRAINT carrier_receipts_pkey, ADD PRIMARY KEY (carrier_message_id)`);
    await db.query(`ALTER TABLE carrier_receipts DROP COLUMN carrier`);
    await db.query(`ALTER TABLE message_parts DROP COLUMN timed_out_carriers, DROP COLUMN carrier_cost, DROP COLUMN carrier`);
  }
}
