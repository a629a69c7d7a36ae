import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A company's low-balance warning threshold, the one billing setting its owners change in the
 * console: the console warns while the balance is below it. Exact money like the balance
 * (numeric(20,4)); null (the default) warns never.
 */
export class LowBalanceThreshold1764700003000 implements MigrationInterface {
  name = 'LowBalanceThreshold1764700003000';

  async up(db: QueryRunner): Promise<void> {
    // Nullable without a default: a change of the catalogue only, no row is rewritten.
    await db.query(`ALTER TABLE companies ADD COLUMN low_balance_threshold numeric(20, 4) CHECK (low_balance_threshold >= 0)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE companies DROP COLUMN low_balance_threshold`);
  }
}
