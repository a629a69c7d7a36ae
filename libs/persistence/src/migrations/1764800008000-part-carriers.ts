import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which carrier took each part (issue 31; docs/decisions/0057-carrier-routing-in-the-dispatcher.md):
 * `carrier` its name (carriers.name; the margins report groups by it), `carrier_cost` what its
 * route said it charges per part (null: the route has no cost), `timed_out_carriers` the carriers
 * a submit timed out on before it was taken (each may still deliver the part: a second receipt,
 * a second carrier charge). Null on parts submitted before this migration and on parts not yet
 * submitted. No index: nothing looks parts up by them, and unindexed columns keep the part's
 * updates HOT.
 */
export class PartCarriers1764800008000 implements MigrationInterface {
  name = 'PartCarriers1764800008000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE message_parts ADD COLUMN carrier text, ADD COLUMN carrier_cost numeric(12,4), ADD COLUMN timed_out_carriers text[]`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE message_parts DROP COLUMN timed_out_carriers, DROP COLUMN carrier_cost, DROP COLUMN carrier`);
  }
}
