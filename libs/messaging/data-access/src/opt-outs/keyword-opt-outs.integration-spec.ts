import { accountsRepositories, AccountsService, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { applyInboundKeyword, type InboundKeyword } from './keyword-opt-outs';
import { OptOutStore } from './opt-out-store';

describe('applyInboundKeyword (PostgreSQL)', () => {
  let db: DataSource;
  let store: OptOutStore;
  let companyId: string;
  const NUMBER = '+447400900123';
  const apply = (phone: string, text: string, extra?: string[]) =>
    db.transaction((manager) => applyInboundKeyword(manager, { companyId, phone, number: NUMBER, text, extraOptOutKeywords: extra } as InboundKeyword));
  const entries = async (phone: string) => (await store.list(companyId, { phone, limit: 10 })).items.map((item) => [item.number, item.source]);

  beforeAll(async () => {
    db = await openTestDataSource('keyword-opt-outs-test', ACCOUNTS_ENTITIES);
    companyId = (await new AccountsService(db, accountsRepositories(db), 'keyword-pepper-'.padEnd(40, 'x')).createCompany({ name: 'Kw', balance: '1' }))
      .company_id;
    store = new OptOutStore(db);
  });
  afterAll(() => db.destroy());

  it('STOP adds the contact for the number it wrote to, once; the next send from that number is suppressed', async () => {
    expect(await apply('+447700900201', ' Stop. ')).toEqual({ intent: 'opt_out', changed: true });
    expect(await apply('+447700900201', 'STOP')).toEqual({ intent: 'opt_out', changed: false });
    expect(await entries('+447700900201')).toEqual([[NUMBER, 'keyword']]);
    expect(await store.suppressedAmong(companyId, NUMBER, ['+447700900201'])).toEqual(new Set(['+447700900201']));
    expect(await store.suppressedAmong(companyId, 'Acme', ['+447700900201'])).toEqual(new Set());
  });

  it('STOPALL adds the contact for every number; START lifts both that and the entry for the number', async () => {
    await apply('+447700900202', 'stop');
    expect(await apply('+447700900202', 'STOPALL')).toEqual({ intent: 'opt_out_all', changed: true });
    expect(await store.suppressedAmong(companyId, 'Acme', ['+447700900202'])).toEqual(new Set(['+447700900202']));
    expect(await apply('+447700900202', 'start')).toEqual({ intent: 'opt_in', changed: true });
    expect(await entries('+447700900202')).toEqual([]);
    expect(await apply('+447700900202', 'YES')).toEqual({ intent: 'opt_in', changed: false });
  });

  it("HELP changes nothing; other texts are not keywords; the operator's extra keyword opts out", async () => {
    expect(await apply('+447700900203', 'help')).toEqual({ intent: 'help', changed: false });
    expect(await apply('+447700900203', 'stop it please')).toBeNull();
    expect(await entries('+447700900203')).toEqual([]);
    expect(await apply('+447700900203', 'Remove me', ['REMOVEME'])).toEqual({ intent: 'opt_out', changed: true });
  });
});
