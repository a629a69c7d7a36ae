import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import {
  ACCOUNTS_ENTITIES,
  type AuditEntry,
  AuditLogRepository,
  CatalogService,
  catalogRepositories,
  InvalidArgumentError,
  PeopleService,
  peopleRepositories,
  PriceRepository,
  PriceTable,
} from './index';

/** The platform's entries (no company) newer than `after` that `mine` picks (other specs may write at the same time), oldest first. */
async function platformEntriesAfter(audit: AuditLogRepository, after: string | null, mine: (entry: AuditEntry) => boolean) {
  const { items } = await audit.list(null, { limit: 50 });
  return items.filter((entry) => (after === null || BigInt(entry.id) > BigInt(after)) && mine(entry)).reverse();
}

describe('price changes in the audit log (PostgreSQL)', () => {
  let db: DataSource;
  let audit: AuditLogRepository;
  let catalog: CatalogService;
  let table: PriceTable;
  let operator: { id: string; email: string };
  const byOperatorOr = (prefix: string) => (entry: AuditEntry) => entry.actor?.id === operator.id || entry.details['prefix'] === prefix;

  const latestPlatformId = async () => (await audit.list(null, { limit: 1 })).items[0]?.id ?? null;

  beforeAll(async () => {
    db = await openTestDataSource('test', ACCOUNTS_ENTITIES);
    audit = new AuditLogRepository(db);
    catalog = new CatalogService(db, catalogRepositories(db));
    table = new PriceTable(db, new PriceRepository(db), audit);
    const email = `prices-${Date.now()}@operators.test`;
    const people = new PeopleService(db, peopleRepositories(db));
    const created = await people.createUser({ companyId: null, email, password: 'a long operator password', role: 'operator' });
    operator = { id: created.id, email };
  });
  afterAll(() => db.destroy());

  it('audits a price set, with the price before it (null for a new one) and who set it (null: the admin tool)', async () => {
    const prefix = `+8870${Date.now() % 100000}`;
    const before = await latestPlatformId();
    await catalog.setPrice({ prefix, route: 'premium', price: '0.035' }, operator.id);
    await catalog.setPrice({ prefix, route: 'premium', price: '0.04' });
    const entries = await platformEntriesAfter(audit, before, byOperatorOr(prefix));
    expect(entries.map(({ action, actor, details }) => ({ action, actor, details }))).toEqual([
      { action: 'price.set', actor: operator, details: { prefix, route: 'premium', price: '0.0350', previous_price: null } },
      { action: 'price.set', actor: null, details: { prefix, route: 'premium', price: '0.0400', previous_price: '0.0350' } },
    ]);
  });

  it('writes no price and no entry for a refused price', async () => {
    const before = await latestPlatformId();
    await expect(catalog.setPrice({ prefix: '+44', route: 'fast', price: '1' }, operator.id)).rejects.toThrow(InvalidArgumentError);
    expect(await platformEntriesAfter(audit, before, byOperatorOr('+44'))).toEqual([]);
  });

  it('audits an import once, with its count and the operator, and a refused import writes neither prices nor an entry', async () => {
    const prefix = `+8871${Date.now() % 100000}`;
    const before = await latestPlatformId();
    expect(await table.importCsv(`prefix,route,price\n${prefix},auto,0.02\n${prefix},standard,0.03\n`, operator.id)).toEqual({ imported: 2 });
    const [entry, ...more] = await platformEntriesAfter(audit, before, byOperatorOr(prefix));
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ action: 'prices.imported', actor: operator, details: { count: 2 } });

    const prices = await table.list();
    await expect(table.importCsv(`prefix,route,price\n${prefix},auto,9\n${prefix},fast,1\n`, operator.id)).rejects.toThrow('line 3');
    expect(await table.list()).toEqual(prices);
    expect(await platformEntriesAfter(audit, entry.id, byOperatorOr(prefix))).toEqual([]);
  });

  it("keeps the platform's entries apart from a company's, and filters by action", async () => {
    const { items } = await audit.list(null, { limit: 50, action: 'prices.imported' });
    expect(items.length).toBeGreaterThan(0);
    expect(new Set(items.map((item) => item.action))).toEqual(new Set(['prices.imported']));
    const companies: { company_id: string }[] = await db.query(`SELECT DISTINCT company_id FROM audit_entries WHERE action = 'price.set'`);
    expect(companies).toEqual([{ company_id: null }]);
  });
});
