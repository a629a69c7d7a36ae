import { parseMoney } from '@mp/billing-domain';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import {
  ACCOUNTS_ENTITIES,
  accountsRepositories,
  AccountsService,
  AlreadyRecordedError,
  ApiKeyRepository,
  AuditLogRepository,
  CompanyRepository,
  InvalidArgumentError,
  NotFoundError,
  PriceRepository,
  PriceTable,
} from './index';

const PEPPER = 'integration-pepper-'.padEnd(40, 'x');

describe("operators' accounts: suspension, top-ups, company summaries and the price table (PostgreSQL)", () => {
  let db: DataSource;
  let accounts: AccountsService;
  let companies: CompanyRepository;
  let audit: AuditLogRepository;

  beforeAll(async () => {
    db = await openTestDataSource('test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), PEPPER);
    companies = new CompanyRepository(db);
    audit = new AuditLogRepository(db);
  });
  afterAll(() => db.destroy());

  it('suspends and restores a company, audited once per change, and its keys say so', async () => {
    const created = await accounts.createCompany({ name: 'Suspendable', balance: '5' });
    const keys = new ApiKeyRepository(db);
    expect(await keys.findActiveByKey(created.api_key)).toMatchObject({ companySuspended: false });
    const first = await accounts.setSuspended(created.company_id, true, null);
    expect(first.suspendedAt).toBeInstanceOf(Date);
    expect((await accounts.setSuspended(created.company_id, true, null)).suspendedAt).toEqual(first.suspendedAt);
    expect(await keys.findActiveByKey(created.api_key)).toMatchObject({ companySuspended: true });
    expect(await companies.findSummary(created.company_id)).toMatchObject({ suspendedAt: first.suspendedAt, balance: parseMoney('5') });
    expect(await accounts.setSuspended(created.company_id, false, null)).toEqual({ suspendedAt: null });
    expect(await keys.findActiveByKey(created.api_key)).toMatchObject({ companySuspended: false });
    const actions = (await audit.list(created.company_id, { limit: 10 })).items.map((entry) => entry.action);
    expect(actions).toEqual(['company.unsuspended', 'company.suspended', 'company.created']);
    await expect(accounts.setSuspended('00000000-0000-4000-8000-000000000000', true, null)).rejects.toThrow(NotFoundError);
  });

  it('tops up exactly, once per reference, and lists every company with its balance', async () => {
    const created = await accounts.createCompany({ name: 'Topped', balance: '0' });
    expect(await accounts.topUpBy(created.company_id, { amount: '0.0001', reference: ' inv-1 ' }, null)).toEqual({
      amount: 1n,
      balance: 1n,
      reference: 'inv-1',
    });
    await expect(accounts.topUpBy(created.company_id, { amount: '7', reference: 'inv-1' }, null)).rejects.toThrow(AlreadyRecordedError);
    await expect(accounts.topUpBy(created.company_id, { amount: '0' }, null)).rejects.toThrow(InvalidArgumentError);
    expect((await accounts.topUpBy(created.company_id, { amount: '2.5' }, null)).balance).toBe(parseMoney('2.5001'));
    const listed = await companies.listSummaries();
    expect(listed.find((company) => company.id === created.company_id)).toMatchObject({ name: 'Topped', balance: parseMoney('2.5001'), suspendedAt: null });
    const [latest] = (await audit.list(created.company_id, { limit: 1 })).items;
    expect(latest).toMatchObject({ action: 'balance.topped_up', details: { amount: 2.5, balance: 2.5001 } });
  });

  it('imports a price CSV whole or not at all, and exports what it reads back', async () => {
    const table = new PriceTable(db, new PriceRepository(db), audit);
    expect(await table.importCsv('prefix,route,price\n+88801,auto,0.02\n+88802,premium,0.5\n')).toEqual({ imported: 2 });
    const before = await table.list();
    await expect(table.importCsv('prefix,route,price\n+88801,auto,9\n+88803,fast,1\n')).rejects.toThrow('line 3: route must be one of');
    expect(await table.list()).toEqual(before);
    const csv = await table.exportCsv();
    expect(csv).toContain('+88801,auto,0.0200\r\n');
    expect(await table.importCsv(csv)).toEqual({ imported: before.length });
    expect(await table.list()).toEqual(before);
  });
});
