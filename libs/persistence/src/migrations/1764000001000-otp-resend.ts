import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a resend needs to render the same text around a new code: the template text (never the
 * rendered text, which holds the code), the custom variables and the validity.
 */
export class OtpResend1764000001000 implements MigrationInterface {
  name = 'OtpResend1764000001000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE otps
        ADD COLUMN template_text text NOT NULL DEFAULT '',
        ADD COLUMN custom_vars jsonb NOT NULL DEFAULT '{}',
        ADD COLUMN expiry_minutes smallint NOT NULL DEFAULT 10 CHECK (expiry_minutes BETWEEN 1 AND 60)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE otps DROP COLUMN template_text, DROP COLUMN custom_vars, DROP COLUMN expiry_minutes`);
  }
}
