import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import {
  accountsRepositories,
  AccountsService,
  AuditLogRepository,
  BillingSettings,
  InvalidArgumentError,
  NotFoundError,
  parseLowBalanceThreshold,
  ACCOUNTS_ENTITIES,
} from './index';

const PEPPER = 'integration-pepper-'.padEnd(40, 'x');
const NO_COMPANY = '00000000-0000-4000-8000-000000000000';

describe('billing settings (PostgreSQL)', () => {
  let db: DataSource;
  let accounts: AccountsService;
  let settings: BillingSettings;
  let audit: AuditLogRepository;

  beforeAll(async () => {
    db = await openTestDataSource('test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), PEPPER);
    audit = new AuditLogRepository(db);
    settings = new BillingSettings(db, audit);
  });
  afterAll(() => db.destroy());

  it('has no threshold for a new company, keeps one exactly, and clears it', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Thresholds', balance: '5' });
    expect(await settings.get(company_id)).toEqual({ lowBalanceThreshold: null });

    expect(await settings.setLowBalanceThreshold(company_id, parseLowBalanceThreshold('12.3456'), null)).toEqual({ lowBalanceThreshold: 123456n });
    expect(await settings.get(company_id)).toEqual({ lowBalanceThreshold: 123456n });
    const [row] = await db.query(`SELECT low_balance_threshold::text AS threshold FROM companies WHERE id = $1`, [company_id]);
    expect(row.threshold).toBe('12.3456');

    await settings.setLowBalanceThreshold(company_id, null, null);
    expect(await settings.get(company_id)).toEqual({ lowBalanceThreshold: null });
  });

  it('writes each change to the audit log with who made it', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Audited thresholds', balance: '0' });
    await settings.setLowBalanceThreshold(company_id, parseLowBalanceThreshold('25'), null);
    await settings.setLowBalanceThreshold(company_id, null, null);
    const page = await audit.list(company_id, { limit: 10 });
    const changes = page.items.filter((entry) => entry.action === 'settings.changed').map((entry) => entry.details);
    expect(changes).toEqual([{ billing: { low_balance_threshold: null } }, { billing: { low_balance_threshold: 25 } }]);
  });

  it('answers null for no company and refuses to change one that does not exist, writing no audit entry', async () => {
    expect(await settings.get(NO_COMPANY)).toBeNull();
    await expect(settings.setLowBalanceThreshold(NO_COMPANY, 10000n, null)).rejects.toThrow(NotFoundError);
    expect(await db.query(`SELECT 1 FROM audit_entries WHERE company_id = $1`, [NO_COMPANY])).toEqual([]);
  });

  it('refuses negative, over-precise, non-text and too large thresholds', () => {
    for (const bad of ['-1', '0.00001', 10, 'ten', '', '99999999999999999', undefined, {}]) {
      expect(() => parseLowBalanceThreshold(bad)).toThrow(InvalidArgumentError);
    }
    expect(parseLowBalanceThreshold('0')).toBe(0n);
    expect(parseLowBalanceThreshold(null)).toBeNull();
  });
});
