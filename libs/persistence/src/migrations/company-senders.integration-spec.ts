import type { DataSource } from 'typeorm';
import { runMigrations } from '../data-source';
import { CompanySenders1764800002000 } from './1764800002000-company-senders';
import { openScratchDatabase, type ScratchDatabase } from './scratch-database';

describe('company senders schema (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let db: DataSource;

  beforeAll(async () => {
    scratch = await openScratchDatabase('company_senders', { server: process.env['MP_TEST_SERVER_URL'], run: process.env['MP_TEST_RUN'] });
    db = scratch.db;
  });

  afterAll(() => scratch?.drop());

  const company = async () => (await db.query(`INSERT INTO companies (name, webhook_secret) VALUES ('Acme', 'whsec_x') RETURNING id`))[0].id as string;
  const assign = (value: string, kind: string, companyId: string) =>
    db.query(`INSERT INTO company_senders (value, kind, company_id) VALUES ($1, $2, $3)`, [value, kind, companyId]);

  it('holds one company per sender, without case, of a known kind, for a company that exists', async () => {
    const [first, second] = [await company(), await company()];
    await assign('Acme', 'alphanumeric', first);
    await expect(assign('ACME', 'alphanumeric', second)).rejects.toThrow(/company_senders_value_ci/);
    await expect(assign('+447400900123', 'toll_free', first)).rejects.toThrow(/check/);
    await expect(assign('+447400900124', 'long_code', '00000000-0000-4000-8000-000000000000')).rejects.toThrow(/foreign key/);
    expect(await db.query(`SELECT status_callback_url FROM companies WHERE id = $1`, [first])).toEqual([{ status_callback_url: null }]);
  });

  it('removes the table and the column when moved down, and puts them back up', async () => {
    const id = await company();
    await scratch.undoFrom(CompanySenders1764800002000);
    await expect(db.query(`SELECT 1 FROM company_senders`)).rejects.toThrow(/company_senders/);
    await expect(db.query(`SELECT status_callback_url FROM companies`)).rejects.toThrow(/status_callback_url/);
    await runMigrations(db);
    expect(await db.query(`SELECT status_callback_url FROM companies WHERE id = $1`, [id])).toEqual([{ status_callback_url: null }]);
    expect(await db.query(`SELECT count(*)::int AS n FROM company_senders`)).toEqual([{ n: 0 }]);
  });
});
