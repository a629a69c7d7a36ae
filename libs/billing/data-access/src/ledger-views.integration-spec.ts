import { parseMoney } from '@mp/billing-domain';
import { InvalidCursorError } from '@mp/persistence';
import { openTestDataSource } from '@mp/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { LedgerFilterError, ledgerCsv, listLedger, NO_LEDGER_FILTER, spendByDay, type LedgerFilter, type LedgerItem } from './ledger-views';
import { LedgerRepository, type LedgerMovement } from './ledger.repository';

describe('ledger views (PostgreSQL)', () => {
  let db: DataSource;
  let ledger: LedgerRepository;
  let companyId = '';
  let otherId = '';

  const company = async () => {
    const id = randomUUID();
    // Companies are the accounts lib's to make; the billing lib depends on no other domain.
    await db.query(`INSERT INTO companies (id, name, webhook_secret) VALUES ($1, 'Ledger', 'whsec_x')`, [id]);
    await db.transaction((manager) => ledger.openBalance(manager, id));
    return id;
  };
  const move = (movement: Omit<LedgerMovement, 'amount'> & { amount: string }, at: string) =>
    db.transaction(async (manager) => {
      // Each entry's time as if it were written then (the ledger refuses UPDATE; now() is the transaction's start).
      await manager.query(`SELECT set_config('mp.now', $1, true)`, [at]);
      await ledger.apply({ ...movement, amount: parseMoney(movement.amount) }, manager);
    });
  const all = async (filter: LedgerFilter, limit = 2, company = companyId): Promise<LedgerItem[]> => {
    const items: LedgerItem[] = [];
    let cursor: string | null = null;
    do {
      const page = await listLedger(db, company, filter, { limit, cursor });
      items.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor !== null);
    return items;
  };

  beforeAll(async () => {
    db = await openTestDataSource('ledger-views-test');
    ledger = new LedgerRepository(db);
    // Entries are written with created_at = now(); to place them on chosen days, a trigger of this
    // spec's own takes the time from the transaction's setting when there is one.
    await db.query(`
      CREATE OR REPLACE FUNCTION ledger_views_spec_time() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF current_setting('mp.now', true) IS NOT NULL AND current_setting('mp.now', true) <> '' THEN
          NEW.created_at := current_setting('mp.now', true)::timestamptz;
        END IF;
        RETURN NEW;
      END $$`);
    await db.query(`DROP TRIGGER IF EXISTS ledger_views_spec_time ON ledger_entries`);
    await db.query(`CREATE TRIGGER ledger_views_spec_time BEFORE INSERT ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_views_spec_time()`);
    companyId = await company();
    otherId = await company();
    await move({ companyId, kind: 'topup', amount: '10', reference: 'topup-1', description: 'Top-up by operator' }, '2026-11-19T09:00:00Z');
    await move({ companyId, kind: 'charge', amount: '-0.0137', reference: 'req-1' }, '2026-11-20T00:00:00Z');
    await move({ companyId, kind: 'charge', amount: '-0.0274', reference: 'req-2' }, '2026-11-20T23:59:59.999Z');
    await move(
      { companyId, kind: 'refund', amount: '0.0137', reference: 'message:m-2', description: 'parts that never reached a carrier' },
      '2026-11-20T12:00:00Z',
    );
    await move({ companyId, kind: 'charge', amount: '-0.0001', reference: '=cmd|calc' }, '2026-11-22T08:00:00Z');
    await move({ companyId, kind: 'adjustment', amount: '-1', description: 'correction, "manual"' }, '2026-11-22T09:00:00Z');
    await move({ companyId: otherId, kind: 'topup', amount: '5' }, '2026-11-20T09:00:00Z');
    await move({ companyId: otherId, kind: 'charge', amount: '-5', reference: 'req-1' }, '2026-11-20T10:00:00Z');
  });
  afterAll(async () => {
    await db.query(`DROP TRIGGER IF EXISTS ledger_views_spec_time ON ledger_entries`);
    await db.destroy();
  });

  it('lists the entries newest first by the order they were written, once each across pages', async () => {
    const items = await all(NO_LEDGER_FILTER);
    expect(items.map((item) => [item.kind, item.amount, item.balance_after])).toEqual([
      ['adjustment', -1, 8.9725],
      ['charge', -0.0001, 9.9725],
      ['refund', 0.0137, 9.9726],
      ['charge', -0.0274, 9.9589],
      ['charge', -0.0137, 9.9863],
      ['topup', 10, 10],
    ]);
    for (const limit of [1, 5, 100]) expect(await all(NO_LEDGER_FILTER, limit)).toEqual(items);
    expect(items[2]).toMatchObject({ reference: 'message:m-2', description: 'parts that never reached a carrier', created_at: '2026-11-20T12:00:00.000Z' });
  });

  it('filters by kinds, dates and reference, and shows nothing of another company', async () => {
    expect((await all({ ...NO_LEDGER_FILTER, kinds: ['refund', 'topup'] })).map((item) => item.kind)).toEqual(['refund', 'topup']);
    const day = { from: new Date('2026-11-20T00:00:00Z'), before: new Date('2026-11-21T00:00:00Z') };
    expect((await all({ ...NO_LEDGER_FILTER, ...day })).map((item) => item.reference)).toEqual(['message:m-2', 'req-2', 'req-1']);
    expect((await all({ ...NO_LEDGER_FILTER, reference: 'req-1' })).map((item) => item.amount)).toEqual([-0.0137]);
    expect((await all({ ...NO_LEDGER_FILTER, reference: 'req-1' }, 2, otherId)).map((item) => item.amount)).toEqual([-5]);
    expect(await all({ ...NO_LEDGER_FILTER, reference: 'req-1', kinds: ['refund'] })).toEqual([]);
  });

  it('refuses a cursor that is not one of its pages, and a filter that cannot be run', async () => {
    await expect(listLedger(db, companyId, NO_LEDGER_FILTER, { limit: 1, cursor: 'abc' })).rejects.toThrow(InvalidCursorError);
    await expect(listLedger(db, companyId, NO_LEDGER_FILTER, { limit: 0, cursor: null })).rejects.toThrow(LedgerFilterError);
    await expect(listLedger(db, companyId, { ...NO_LEDGER_FILTER, kinds: ['gift' as never] }, { limit: 1, cursor: null })).rejects.toThrow(
      'kind must be one of topup, charge, refund, adjustment',
    );
  });

  it('sums the spend per UTC day, charges less refunds, every day of the range, exactly', async () => {
    const days = await spendByDay(db, companyId, { from: new Date('2026-11-19T00:00:00Z'), before: new Date('2026-11-23T00:00:00Z') });
    expect(days).toEqual([
      { day: '2026-11-19', charged: 0, refunded: 0, spent: 0 },
      { day: '2026-11-20', charged: 0.0411, refunded: 0.0137, spent: 0.0274 },
      { day: '2026-11-21', charged: 0, refunded: 0, spent: 0 },
      { day: '2026-11-22', charged: 0.0001, refunded: 0, spent: 0.0001 },
    ]);
    await expect(spendByDay(db, companyId, { from: new Date('2025-01-01T00:00:00Z'), before: new Date('2026-11-23T00:00:00Z') })).rejects.toThrow(
      'the range must be at most 366 days',
    );
  });

  it('exports the entries that match as CSV, in batches, amounts as exact text with 4 decimals', async () => {
    let csv = '';
    for await (const chunk of ledgerCsv(db, companyId, NO_LEDGER_FILTER)) csv += chunk;
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('id,created_at,kind,amount,balance_after,reference,description');
    expect(lines.slice(1, -1).map((line) => line.replace(/^\d+,/, ''))).toEqual([
      '2026-11-22T09:00:00.000Z,adjustment,-1.0000,8.9725,,"correction, ""manual"""',
      `2026-11-22T08:00:00.000Z,charge,-0.0001,9.9725,'=cmd|calc,`,
      '2026-11-20T12:00:00.000Z,refund,0.0137,9.9726,message:m-2,parts that never reached a carrier',
      '2026-11-20T23:59:59.999Z,charge,-0.0274,9.9589,req-2,',
      '2026-11-20T00:00:00.000Z,charge,-0.0137,9.9863,req-1,',
      '2026-11-19T09:00:00.000Z,topup,10.0000,10.0000,topup-1,Top-up by operator',
    ]);
    expect(lines.at(-1)).toBe('');
    let refunds = '';
    for await (const chunk of ledgerCsv(db, companyId, { ...NO_LEDGER_FILTER, kinds: ['refund'] })) refunds += chunk;
    expect(refunds.split('\r\n')).toHaveLength(3);
  });

  it('exports a ledger longer than one batch, every entry once, newest first', async () => {
    const big = await company();
    await move({ companyId: big, kind: 'topup', amount: '100', reference: 'big-topup' }, '2026-11-01T00:00:00Z');
    await db.transaction((manager) =>
      ledger.writeCharges(
        manager,
        Array.from({ length: 2100 }, (_, i) => ({ companyId: big, amount: 1n, balanceAfter: parseMoney('100') - BigInt(i + 1), reference: `c-${i}` })),
        new Map([[big, parseMoney('100') - 2100n]]),
      ),
    );
    const chunks: string[] = [];
    for await (const chunk of ledgerCsv(db, big, NO_LEDGER_FILTER)) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    const ids = chunks
      .join('')
      .split('\r\n')
      .slice(1, -1)
      .map((line) => Number(line.split(',')[0]));
    expect(ids).toHaveLength(2101);
    expect(new Set(ids).size).toBe(2101);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });
});
