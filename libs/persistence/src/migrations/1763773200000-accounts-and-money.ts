import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Companies, applications, API keys, templates, prices, balances and the append-only ledger. */
export class AccountsAndMoney1763773200000 implements MigrationInterface {
  name = 'AccountsAndMoney1763773200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE companies (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
        otp_rate_limit integer NOT NULL DEFAULT 20 CHECK (otp_rate_limit > 0),
        webhook_secret text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE applications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        appid text NOT NULL UNIQUE,
        company_id uuid NOT NULL REFERENCES companies (id),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        settings jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (company_id, name)
      )`);
    await db.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        key text NOT NULL UNIQUE,
        secret_hash bytea NOT NULL CHECK (length(secret_hash) = 32),
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await db.query(`CREATE INDEX api_keys_company_idx ON api_keys (company_id)`);
    await db.query(`
      CREATE TABLE templates (
        id serial PRIMARY KEY,
        application_id uuid NOT NULL REFERENCES applications (id),
        lang text NOT NULL DEFAULT 'en' CHECK (lang ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$'),
        text text NOT NULL CHECK (length(text) BETWEEN 1 AND 1600),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX templates_application_lang_idx ON templates (application_id, lang)`);
    await db.query(`
      CREATE TABLE prices (
        prefix text NOT NULL CHECK (prefix ~ '^\\+[0-9]{0,15}$'),
        route text NOT NULL CHECK (route IN ('auto', 'standard', 'premium', 'whatsapp')),
        price numeric(12, 4) NOT NULL CHECK (price >= 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (prefix, route)
      )`);
    // The prices of a fresh install (decisions.md), written out: a migration does what it did
    // when it was made, whatever the code's defaults (DEFAULT_PRICES) become later.
    await db.query(
      `INSERT INTO prices (prefix, route, price) VALUES ('+', 'auto', 0.0100), ('+', 'standard', 0.0100), ('+', 'premium', 0.0150), ('+', 'whatsapp', 0.0100)`,
    );
    await db.query(`
      CREATE TABLE balances (
        company_id uuid PRIMARY KEY REFERENCES companies (id),
        balance numeric(20, 4) NOT NULL DEFAULT 0 CHECK (balance >= 0),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE ledger_entries (
        id bigserial PRIMARY KEY,
        company_id uuid NOT NULL REFERENCES companies (id),
        kind text NOT NULL CHECK (kind IN ('topup', 'charge', 'refund', 'adjustment')),
        amount numeric(20, 4) NOT NULL,
        balance_after numeric(20, 4) NOT NULL CHECK (balance_after >= 0),
        reference text,
        description text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX ledger_entries_company_idx ON ledger_entries (company_id, id DESC)`);
    await db.query(`CREATE UNIQUE INDEX ledger_entries_once_idx ON ledger_entries (company_id, kind, reference) WHERE reference IS NOT NULL`);
    await db.query(`
      CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'ledger_entries is append-only: % refused', TG_OP;
      END $$`);
    await db.query(`
      CREATE TRIGGER ledger_entries_no_change BEFORE UPDATE OR DELETE ON ledger_entries
      FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only()`);
    await db.query(`
      CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_append_only()`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of ['ledger_entries', 'balances', 'prices', 'templates', 'api_keys', 'applications', 'companies']) {
      await db.query(`DROP TABLE ${table}`);
    }
    await db.query(`DROP FUNCTION ledger_entries_append_only()`);
  }
}
