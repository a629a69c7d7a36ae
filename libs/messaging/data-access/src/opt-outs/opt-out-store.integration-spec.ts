import { accountsRepositories, AccountsService, ACCOUNTS_ENTITIES, AuditLogRepository, OtpOptOutSetting } from '@mp/accounts';
import { InvalidCursorError } from '@mp/persistence';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { canonicalNumber, OptOutStore } from './opt-out-store';
import { SuppressionCheck } from './suppression-check';

describe('OptOutStore (PostgreSQL)', () => {
  let db: DataSource;
  let store: OptOutStore;
  let acme: string;
  let other: string;

  beforeAll(async () => {
    db = await openTestDataSource('opt-outs-test', ACCOUNTS_ENTITIES);
    const accounts = new AccountsService(db, accountsRepositories(db), 'optout-pepper-'.padEnd(40, 'x'));
    acme = (await accounts.createCompany({ name: 'Acme', balance: '1' })).company_id;
    other = (await accounts.createCompany({ name: 'Other', balance: '1' })).company_id;
    store = new OptOutStore(db);
  });

  afterAll(() => db.destroy());

  it('adds entries once per company, phone and number-or-all, keeping the first', async () => {
    const at = new Date('2026-01-02T03:04:05Z');
    expect(await store.add(acme, [{ phone: '+447700900001', number: '+447400900123', source: 'import', createdAt: at }])).toEqual({ added: 1 });
    const again = await store.add(acme, [
      { phone: '+447700900001', number: '+447400900123', source: 'api' },
      { phone: '+447700900001', number: null, source: 'keyword' },
      { phone: '+447700900001', number: null, source: 'api' },
    ]);
    expect(again).toEqual({ added: 1 });
    const page = await store.list(acme, { phone: '+447700900001', limit: 10 });
    expect(page.items).toEqual([
      { phone: '+447700900001', number: null, source: 'keyword', created_at: expect.any(String) },
      { phone: '+447700900001', number: '+447400900123', source: 'import', created_at: at.toISOString() },
    ]);
  });

  it('suppresses a phone for the number it stopped and for every number with a company-wide entry', async () => {
    await store.add(acme, [
      { phone: '+447700900002', number: '+447400900123', source: 'keyword' },
      { phone: '+447700900003', number: null, source: 'api' },
    ]);
    const phones = ['+447700900002', '+447700900003', '+447700900004'];
    expect(await store.suppressedAmong(acme, '+447400900123', phones)).toEqual(new Set(['+447700900002', '+447700900003']));
    expect(await store.suppressedAmong(acme, 'Acme', phones)).toEqual(new Set(['+447700900003']));
    expect(await store.suppressedAmong(other, '+447400900123', phones)).toEqual(new Set());
    const test = await store.suppressionOf(acme);
    expect([test('+447700900002', '+447400900123'), test('+447700900002', 'Acme'), test('+447700900003', 'Acme'), test('+447700900004', 'Acme')]).toEqual([
      true,
      false,
      true,
      false,
    ]);
  });

  it('answers concurrent checks of several companies from grouped queries', async () => {
    await store.add(other, [{ phone: '+447700900005', number: null, source: 'api' }]);
    const check = new SuppressionCheck(store);
    const [a, b, c] = await Promise.all([
      check.suppressed(acme, 'Acme', ['+447700900003', '+447700900005']),
      check.suppressed(other, 'Acme', ['+447700900003', '+447700900005']),
      check.suppressed(acme, 'Acme', []),
    ]);
    expect([...a]).toEqual(['+447700900003']);
    expect([...b]).toEqual(['+447700900005']);
    expect(c.size).toBe(0);
  });

  it('removes one scope, or every entry of the phone', async () => {
    await store.add(acme, [
      { phone: '+447700900006', number: '+447400900123', source: 'api' },
      { phone: '+447700900006', number: '+447400900124', source: 'api' },
      { phone: '+447700900006', number: null, source: 'api' },
    ]);
    expect(await store.remove(acme, '+447700900006', '+447400900123')).toEqual({ removed: 1 });
    expect(await store.remove(acme, '+447700900006', null)).toEqual({ removed: 1 });
    expect(await store.remove(other, '+447700900006')).toEqual({ removed: 0 });
    expect(await store.remove(acme, '+447700900006')).toEqual({ removed: 1 });
    expect((await store.list(acme, { phone: '+447700900006', limit: 10 })).items).toEqual([]);
  });

  it('pages newest first with a cursor, filtered, company-scoped', async () => {
    const entries = Array.from({ length: 5 }, (_, i) => ({ phone: `+44770090010${i}`, number: null, source: 'import' as const }));
    await store.add(acme, entries);
    const first = await store.list(acme, { source: 'import', limit: 3 });
    expect(first.items).toHaveLength(3);
    const second = await store.list(acme, { source: 'import', limit: 3, cursor: first.next_cursor ?? undefined });
    const phones = [...first.items, ...second.items].map((item) => item.phone);
    expect(new Set(phones).size).toBe(phones.length);
    expect(phones).toEqual(expect.arrayContaining(entries.map((e) => e.phone)));
    expect((await store.list(other, { source: 'import', limit: 10 })).items).toEqual([]);
    await expect(store.list(acme, { limit: 3, cursor: 'bogus' })).rejects.toBeInstanceOf(InvalidCursorError);
  });

  it('pages in id order where the ids gain a digit (9, 10, 11 sorted as numbers, not texts)', async () => {
    const [{ top }]: { top: string | null }[] = await db.query(`SELECT max(id)::text AS top FROM opt_outs`);
    const boundary = 10n ** BigInt((top ?? '0').length + 1);
    await db.query(`SELECT setval(pg_get_serial_sequence('opt_outs', 'id'), $1)`, [(boundary - 2n).toString()]);
    const entries = ['+447700900201', '+447700900202', '+447700900203'].map((phone) => ({ phone, number: null, source: 'console' as const }));
    await store.add(other, entries);
    const first = await store.list(other, { source: 'console', limit: 2 });
    const second = await store.list(other, { source: 'console', limit: 2, cursor: first.next_cursor ?? undefined });
    expect([...first.items, ...second.items].map((item) => item.phone)).toEqual(['+447700900203', '+447700900202', '+447700900201']);
    expect(second.next_cursor).toBeNull();
  });

  it("stores the company's OTP exemption, false by default", async () => {
    expect(await store.otpIgnoresOptOuts(acme)).toBe(false);
    expect(await new OtpOptOutSetting(db, new AuditLogRepository(db)).set(acme, true)).toBe(true);
    expect(await store.otpIgnoresOptOuts(acme)).toBe(true);
    expect(await store.otpIgnoresOptOuts(other)).toBe(false);
  });

  it('compares a long number with or without its +, a short code and a sender id as given', async () => {
    await store.add(acme, [
      { phone: '+447700900301', number: '447400900125', source: 'api' },
      { phone: '+447700900302', number: '12345', source: 'api' },
    ]);
    expect((await store.list(acme, { phone: '+447700900301', limit: 1 })).items[0].number).toBe('+447400900125');
    expect(await store.suppressedAmong(acme, '447400900125', ['+447700900301'])).toEqual(new Set(['+447700900301']));
    expect(await store.suppressedAmong(acme, '+447400900125', ['+447700900301'])).toEqual(new Set(['+447700900301']));
    expect(await store.suppressedAmong(acme, '12345', ['+447700900302'])).toEqual(new Set(['+447700900302']));
    expect((await store.suppressionOf(acme))('+447700900301', '447400900125')).toBe(true);
    expect(await store.remove(acme, '+447700900301', '447400900125')).toEqual({ removed: 1 });
  });

  it('reads a number as carriers write it: 00 before a long number, + before a short code', () => {
    expect(canonicalNumber('00447400900125')).toBe('+447400900125');
    expect(canonicalNumber('+00447400900125')).toBe('+447400900125');
    expect(canonicalNumber(' 447400900125 ')).toBe('+447400900125');
    expect(canonicalNumber('+76543')).toBe('76543');
    expect(canonicalNumber('76543')).toBe('76543');
    expect(canonicalNumber('Acme')).toBe('Acme');
  });
});
