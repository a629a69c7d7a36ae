import type { DataSource } from 'typeorm';
import { runMigrations } from '../data-source';
import { DashboardPeople1764500000000 } from './1764500000000-dashboard-people';
import { openScratchDatabase, type ScratchDatabase } from './scratch-database';

describe('dashboard people (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let db: DataSource;

  beforeAll(async () => {
    scratch = await openScratchDatabase('dashboard_people', { server: process.env['MP_TEST_SERVER_URL'], run: process.env['MP_TEST_RUN'] });
    db = scratch.db;
  });

  afterAll(() => scratch?.drop());

  const company = async () => (await db.query(`INSERT INTO companies (name, webhook_secret) VALUES ('Acme', 'whsec_x') RETURNING id`))[0].id as string;
  const user = (email: string, role: string, companyId: string | null) =>
    db.query(`INSERT INTO users (email, password_hash, role, company_id) VALUES ($1, 'h', $2, $3) RETURNING id`, [email, role, companyId]);

  it('moves down and up again, keeping the keys it adds a column to', async () => {
    const acme = await company();
    await db.query(`INSERT INTO api_keys (company_id, key, secret_hash) VALUES ($1, 'mpk_x', decode(repeat('00', 32), 'hex'))`, [acme]);
    await scratch.undoFrom(DashboardPeople1764500000000);
    await expect(db.query(`SELECT 1 FROM users`)).rejects.toThrow(/users/);
    await runMigrations(db);
    expect(await db.query(`SELECT key, last_used_at FROM api_keys`)).toEqual([{ key: 'mpk_x', last_used_at: null }]);
  });

  it('has operators without a company and company users with one, one active account per email', async () => {
    const acme = await company();
    await user('op@example.com', 'operator', null);
    await expect(user('op2@example.com', 'operator', acme)).rejects.toThrow(/check/);
    await expect(user('dev@example.com', 'developer', null)).rejects.toThrow(/check/);
    await expect(user('Dev@example.com', 'developer', acme)).rejects.toThrow(/users_email_check/);
    const [{ id }] = await user('dev@example.com', 'developer', acme);
    await expect(user('dev@example.com', 'owner', acme)).rejects.toThrow(/users_email_idx/);
    await db.query(`UPDATE users SET removed_at = now() WHERE id = $1`, [id]);
    await user('dev@example.com', 'owner', acme);
  });

  it('keeps the audit log append-only', async () => {
    await db.query(`INSERT INTO audit_entries (action, details) VALUES ('key.created', '{"api_key":"mpk_x"}')`);
    await expect(db.query(`INSERT INTO audit_entries (action) VALUES ('Not An Action')`)).rejects.toThrow(/check/);
    await expect(db.query(`UPDATE audit_entries SET action = 'key.revoked'`)).rejects.toThrow(/append-only/);
    await expect(db.query(`DELETE FROM audit_entries`)).rejects.toThrow(/append-only/);
    await expect(db.query(`TRUNCATE audit_entries`)).rejects.toThrow(/append-only/);
  });
});
