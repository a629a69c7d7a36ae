import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The people of the dashboard and what they change: users (a company's owners and developers,
 * and the platform's operators, who belong to no company), their sessions (only a hash of each
 * token), invitations (a one-time link, only its hash), the append-only audit log of every
 * change of keys, members, settings and balance, and when each API key was last used.
 */
export class DashboardPeople1764500000000 implements MigrationInterface {
  name = 'DashboardPeople1764500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
        password_hash text NOT NULL,
        role text NOT NULL CHECK (role IN ('owner', 'developer', 'operator')),
        company_id uuid REFERENCES companies (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        removed_at timestamptz,
        CHECK ((role = 'operator') = (company_id IS NULL))
      )`);
    // One account per mailbox among those not removed: a removed member may be invited again.
    await db.query(`CREATE UNIQUE INDEX users_email_idx ON users (email) WHERE removed_at IS NULL`);
    await db.query(`CREATE INDEX users_company_idx ON users (company_id) WHERE company_id IS NOT NULL`);
    await db.query(`
      CREATE TABLE user_sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id),
        token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX user_sessions_user_idx ON user_sessions (user_id)`);
    await db.query(`
      CREATE TABLE invitations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        email text NOT NULL CHECK (email = lower(email)),
        role text NOT NULL CHECK (role IN ('owner', 'developer')),
        token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
        invited_by uuid REFERENCES users (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        accepted_by uuid REFERENCES users (id)
      )`);
    await db.query(`CREATE INDEX invitations_company_idx ON invitations (company_id, created_at DESC)`);
    await db.query(`
      CREATE TABLE audit_entries (
        id bigserial PRIMARY KEY,
        company_id uuid REFERENCES companies (id),
        actor_id uuid REFERENCES users (id),
        action text NOT NULL CHECK (action ~ '^[a-z_]+\\.[a-z_]+$'),
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX audit_entries_company_idx ON audit_entries (company_id, id DESC)`);
    await db.query(`
      CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_entries is append-only: % refused', TG_OP;
      END $$`);
    await db.query(`
      CREATE TRIGGER audit_entries_no_change BEFORE UPDATE OR DELETE ON audit_entries
      FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only()`);
    await db.query(`
      CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
      FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only()`);
    await db.query(`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE api_keys DROP COLUMN last_used_at`);
    for (const table of ['audit_entries', 'invitations', 'user_sessions', 'users']) await db.query(`DROP TABLE ${table}`);
    await db.query(`DROP FUNCTION audit_entries_append_only()`);
  }
}
