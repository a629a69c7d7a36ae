import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A company's suppression list (issue 30, item 4): a number that said STOP (or was added through
 * the API, an import or the console) gets nothing more from the company's number it stopped
 * (`number`), or from any of its numbers (`number` NULL: STOPALL, or an entry for the company).
 * One entry per company, phone and number-or-all; the unique index also serves the send paths'
 * lookup by (company, phone). `companies.otp_ignores_opt_outs` lets a company send OTPs to
 * numbers on it: its own compliance choice.
 */
export class OptOuts1764800004000 implements MigrationInterface {
  name = 'OptOuts1764800004000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE opt_outs (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        company_id uuid NOT NULL REFERENCES companies (id),
        phone text NOT NULL,
        number text,
        source text NOT NULL CHECK (source IN ('keyword', 'api', 'import', 'console', 'admin')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE UNIQUE INDEX opt_outs_company_phone_number ON opt_outs (company_id, phone, (coalesce(number, '')))`);
    // A constant default: a change of the catalogue only, no row of companies is rewritten.
    await db.query(`ALTER TABLE companies ADD COLUMN otp_ignores_opt_outs boolean NOT NULL DEFAULT false`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE companies DROP COLUMN otp_ignores_opt_outs`);
    await db.query(`DROP TABLE opt_outs`);
  }
}
