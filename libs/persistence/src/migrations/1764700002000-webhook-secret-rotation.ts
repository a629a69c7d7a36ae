import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rotating a company's webhook signing secret, and resending a delivery from the console.
 *
 * - `companies.previous_webhook_secret` keeps signing beside the new secret until
 *   `previous_webhook_secret_expires_at` (the rotation's overlap); both are set or neither.
 *   `webhook_secret_rotated_at` says when the current secret was made by a rotation.
 * - `webhook_deliveries.resend_attempt` is the attempt number a resend asked for: that attempt is
 *   the resend's only one (a failure dead-letters the delivery again, no retry schedule).
 * - `webhook_attempts.resend` marks the attempts a resend made.
 *
 * Nullable columns and a constant default: changes of the catalogue only, no row is rewritten.
 */
export class WebhookSecretRotation1764700002000 implements MigrationInterface {
  name = 'WebhookSecretRotation1764700002000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE companies
        ADD COLUMN previous_webhook_secret text,
        ADD COLUMN previous_webhook_secret_expires_at timestamptz,
        ADD COLUMN webhook_secret_rotated_at timestamptz,
        ADD CONSTRAINT companies_previous_webhook_secret_check
          CHECK ((previous_webhook_secret IS NULL) = (previous_webhook_secret_expires_at IS NULL))`);
    await db.query(`ALTER TABLE webhook_deliveries ADD COLUMN resend_attempt integer CHECK (resend_attempt >= 1)`);
    await db.query(`ALTER TABLE webhook_attempts ADD COLUMN resend boolean NOT NULL DEFAULT false`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_attempts DROP COLUMN resend`);
    await db.query(`ALTER TABLE webhook_deliveries DROP COLUMN resend_attempt`);
    await db.query(`
      ALTER TABLE companies
        DROP CONSTRAINT companies_previous_webhook_secret_check,
        DROP COLUMN webhook_secret_rotated_at,
        DROP COLUMN previous_webhook_secret_expires_at,
        DROP COLUMN previous_webhook_secret`);
  }
}
