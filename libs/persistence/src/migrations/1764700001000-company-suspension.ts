import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When an operator suspended a company (null: active). A suspended company's API keys are refused
 * by the public API and its dashboard users may read but change nothing; unsuspending clears it.
 */
export class CompanySuspension1764700001000 implements MigrationInterface {
  name = 'CompanySuspension1764700001000';

  async up(db: QueryRunner): Promise<void> {
    // Nullable without a default: a change of the catalogue only, no row is rewritten.
    await db.query(`ALTER TABLE companies ADD COLUMN suspended_at timestamptz`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE companies DROP COLUMN suspended_at`);
  }
}
