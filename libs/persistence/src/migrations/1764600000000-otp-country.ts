import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The country of an OTP's recipient (ISO 3166-1 alpha-2, from the numbering plan at send time;
 * null for a non-geographic number), so the verification analytics count by country in SQL.
 * OTPs sent before this migration have none, and count under no country: a migration runs no
 * domain code (the numbering plan is `@mp/messaging-domain`'s) to fill it in.
 */
export class OtpCountry1764600000000 implements MigrationInterface {
  name = 'OtpCountry1764600000000';

  async up(db: QueryRunner): Promise<void> {
    // Nullable without a default: a change of the catalogue only, no row is rewritten.
    await db.query(`ALTER TABLE otps ADD COLUMN country text CHECK (country ~ '^[A-Z]{2}$')`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE otps DROP COLUMN country`);
  }
}
