import type { DataSource } from 'typeorm';
import { runMigrations } from '../data-source';
import { WebhookSecretRotation1764700002000 } from './1764700002000-webhook-secret-rotation';
import { openScratchDatabase, type ScratchDatabase } from './scratch-database';

describe('webhook secret rotation schema (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let db: DataSource;

  beforeAll(async () => {
    scratch = await openScratchDatabase('webhook_secret_rotation', { server: process.env['MP_TEST_SERVER_URL'], run: process.env['MP_TEST_RUN'] });
    db = scratch.db;
  });

  afterAll(() => scratch?.drop());

  const company = async () => (await db.query(`INSERT INTO companies (name, webhook_secret) VALUES ('Acme', 'whsec_current') RETURNING id`))[0].id as string;

  it('keeps a previous secret only with its expiry, and the companies it adds columns to when moved down and up', async () => {
    const id = await company();
    await expect(db.query(`UPDATE companies SET previous_webhook_secret = 'whsec_old' WHERE id = $1`, [id])).rejects.toThrow(
      /companies_previous_webhook_secret_check/,
    );
    await expect(db.query(`UPDATE companies SET previous_webhook_secret_expires_at = now() WHERE id = $1`, [id])).rejects.toThrow(
      /companies_previous_webhook_secret_check/,
    );
    await db.query(`UPDATE companies SET previous_webhook_secret = 'whsec_old', previous_webhook_secret_expires_at = now() WHERE id = $1`, [id]);

    await scratch.undoFrom(WebhookSecretRotation1764700002000);
    await expect(db.query(`SELECT previous_webhook_secret FROM companies`)).rejects.toThrow(/previous_webhook_secret/);
    await expect(db.query(`SELECT resend FROM webhook_attempts`)).rejects.toThrow(/resend/);
    await runMigrations(db);
    expect(await db.query(`SELECT webhook_secret, previous_webhook_secret, webhook_secret_rotated_at FROM companies WHERE id = $1`, [id])).toEqual([
      { webhook_secret: 'whsec_current', previous_webhook_secret: null, webhook_secret_rotated_at: null },
    ]);
  });

  it('marks attempts as no resend unless said, and refuses a resend attempt below 1', async () => {
    const id = await company();
    const [delivery] = await db.query(
      `INSERT INTO webhook_deliveries (company_id, event_type, url, payload) VALUES ($1, 'message.sent', 'https://x.test', '{}') RETURNING id`,
      [id],
    );
    await db.query(`INSERT INTO webhook_attempts (delivery_id, attempt, duration_ms) VALUES ($1, 1, 3)`, [delivery.id]);
    expect(await db.query(`SELECT resend FROM webhook_attempts WHERE delivery_id = $1`, [delivery.id])).toEqual([{ resend: false }]);
    await expect(db.query(`UPDATE webhook_deliveries SET resend_attempt = 0 WHERE id = $1`, [delivery.id])).rejects.toThrow(/check/);
  });
});
