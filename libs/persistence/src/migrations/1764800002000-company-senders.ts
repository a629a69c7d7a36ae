import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The numbers (long codes, short codes) and alphanumeric sender ids an operator assigns to a
 * company, and the company's default status-callback address.
 *
 * A number is stored in E.164 (`+447400900123`), a sender id as given; one value belongs to one
 * company at most, compared without case (`ACME` is `Acme`). The gateway reads the whole table
 * into a cache, so no index other than the unique one is needed. `status_callback_url` receives
 * the status events of a company's messages sent without a `webhook_url`; null: none.
 */
export class CompanySenders1764800002000 implements MigrationInterface {
  name = 'CompanySenders1764800002000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE company_senders (
        value text PRIMARY KEY CHECK (length(value) BETWEEN 1 AND 16),
        kind text NOT NULL CHECK (kind IN ('long_code', 'short_code', 'alphanumeric')),
        company_id uuid NOT NULL REFERENCES companies (id),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE UNIQUE INDEX company_senders_value_ci ON company_senders (lower(value))`);
    await db.query(`CREATE INDEX company_senders_company ON company_senders (company_id)`);
    // Nullable without a default: a change of the catalogue only, no row is rewritten.
    await db.query(`ALTER TABLE companies ADD COLUMN status_callback_url text`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE companies DROP COLUMN status_callback_url`);
    await db.query(`DROP TABLE company_senders`);
  }
}
