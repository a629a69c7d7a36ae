import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One-time passwords. The code itself is never stored: `code_hash` is an HMAC bound to the
 * verification id. Every verification attempt is kept (the block after 3 wrong codes is counted
 * from them, per application and recipient, so a resend cannot reset it), and every event an
 * operator may want to read (`/otp/logs`). The SMS that carries a code is a `messages` row whose
 * body is sealed (AES-256-GCM) and opened only just before submit_sm.
 */
export class Otps1764000000000 implements MigrationInterface {
  name = 'Otps1764000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE otps (
        id uuid PRIMARY KEY,
        company_id uuid NOT NULL REFERENCES companies (id),
        application_id uuid NOT NULL REFERENCES applications (id),
        recipient text NOT NULL CHECK (recipient ~ '^\\+[0-9]{8,15}$'),
        channel text NOT NULL CHECK (channel IN ('sms', 'whatsapp')),
        sender text NOT NULL,
        lang text NOT NULL,
        code_length smallint NOT NULL CHECK (code_length BETWEEN 4 AND 8),
        code_hash text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'expired', 'failed', 'cancelled')),
        expires_at timestamptz NOT NULL,
        resends smallint NOT NULL DEFAULT 0 CHECK (resends BETWEEN 0 AND 5),
        last_sent_at timestamptz NOT NULL DEFAULT now(),
        message_id uuid REFERENCES messages (id),
        cost numeric(20, 4) NOT NULL DEFAULT 0 CHECK (cost >= 0),
        verified_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((status = 'verified') = (verified_at IS NOT NULL))
      )`);
    await db.query(`CREATE INDEX otps_company_created_idx ON otps (company_id, created_at DESC, id DESC)`);
    await db.query(`CREATE INDEX otps_recipient_idx ON otps (application_id, recipient, created_at DESC)`);
    await db.query(`CREATE INDEX otps_pending_expiry_idx ON otps (expires_at) WHERE status = 'pending'`);
    await db.query(`
      CREATE TABLE otp_attempts (
        id bigserial PRIMARY KEY,
        otp_id uuid REFERENCES otps (id),
        company_id uuid NOT NULL REFERENCES companies (id),
        application_id uuid NOT NULL REFERENCES applications (id),
        recipient text NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('success', 'invalid_code', 'expired', 'blocked', 'already_verified')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX otp_attempts_failures_idx ON otp_attempts (application_id, recipient, created_at DESC) WHERE outcome = 'invalid_code'`);
    await db.query(`CREATE INDEX otp_attempts_company_idx ON otp_attempts (company_id, created_at DESC, id DESC)`);
    await db.query(`
      CREATE TABLE otp_events (
        id bigserial PRIMARY KEY,
        otp_id uuid REFERENCES otps (id),
        company_id uuid NOT NULL REFERENCES companies (id),
        application_id uuid REFERENCES applications (id),
        recipient text,
        event text NOT NULL CHECK (event IN ('sent', 'delivered', 'verified', 'failed_attempt', 'expired', 'resent', 'blocked', 'refused')),
        detail jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX otp_events_company_idx ON otp_events (company_id, created_at DESC, id DESC)`);
    await db.query(`ALTER TABLE messages ADD COLUMN otp_id uuid, ADD COLUMN body_sealed boolean NOT NULL DEFAULT false`);
    // A template's translations: rows whose translation_of is the template's id, one per language.
    await db.query(`ALTER TABLE templates ADD COLUMN translation_of integer REFERENCES templates (id)`);
    await db.query(`CREATE UNIQUE INDEX templates_language_idx ON templates ((coalesce(translation_of, id)), lang)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX templates_language_idx`);
    await db.query(`ALTER TABLE templates DROP COLUMN translation_of`);
    await db.query(`ALTER TABLE messages DROP COLUMN body_sealed, DROP COLUMN otp_id`);
    for (const table of ['otp_events', 'otp_attempts', 'otps']) await db.query(`DROP TABLE ${table}`);
  }
}
