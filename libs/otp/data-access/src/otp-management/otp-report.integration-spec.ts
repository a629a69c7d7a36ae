import { accountsRepositories, AccountsService, ApplicationRepository, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { DEFAULT_APPLICATION_SETTINGS } from '@mp/accounts-domain';
import { LedgerRepository } from '@mp/billing';
import { DEFAULT_PRICES, moneyToJson, parseMoney } from '@mp/billing-domain';
import { MessageRepository } from '@mp/messaging';
import { openText, parseTextKey } from '@mp/otp-domain';
import { OutboxRepository } from '@mp/queue-runtime';
import { openTestDataSource } from '@mp/testing';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { OtpResender } from '../otp-resender';
import { OtpSender } from '../otp-sender';
import { OtpVerifier } from '../otp-verifier';
import { otpReport } from './otp-report';

type App = { id: string; appid: string; name: string };

describe('OTP usage report (PostgreSQL)', () => {
  let db: DataSource;
  let accounts: AccountsService;
  let sender: OtpSender;
  let verifier: OtpVerifier;
  let resender: OtpResender;
  const keys = { hash: randomBytes(32), text: parseTextKey(randomBytes(32).toString('base64')) };
  // A price whose sums a binary float gets wrong: 7 × 0.0333 is 0.23309999999999997 in doubles.
  const prices = DEFAULT_PRICES.map((rule) => ({ ...rule, price: parseMoney('0.0333') }));
  let clock = new Date();
  const now = () => clock;
  const set = (iso: string) => (clock = new Date(iso));
  let nextNumber = 612360000;
  const newNumber = () => `+33${nextNumber++}`;

  async function application(appid: string): Promise<App> {
    const app = await new ApplicationRepository(db).findByAppid(appid);
    if (!app) throw new Error('no application');
    return { id: app.id, appid: app.appid, name: app.name };
  }
  async function company() {
    const created = await accounts.createCompany({ name: `Report ${nextNumber++}`, balance: '10' });
    const second = await accounts.createApplication(created.company_id, 'Second app');
    return { companyId: created.company_id, app1: await application(created.appid), app2: await application(second.appid) };
  }
  async function codeOf(verificationId: string): Promise<string> {
    const [row] = await db.query(`SELECT m.body FROM otps o JOIN messages m ON m.id = o.message_id WHERE o.id = $1`, [verificationId]);
    return /Code (\d+)/.exec(openText(keys.text, row.body))?.[1] ?? '';
  }

  let c: Awaited<ReturnType<typeof company>>;
  const send = async (app: App, expiryMinutes: number | null = null) =>
    (
      await sender.send(
        {
          companyId: c.companyId,
          application: { ...app, settings: { ...DEFAULT_APPLICATION_SETTINGS } },
          recipient: newNumber(),
          channel: 'sms',
          sender: 'OTP',
          codeLength: 6,
          code: null,
          templateText: 'Code {{otp}}',
          lang: 'en',
          customVars: {},
          expiryMinutes,
        },
        prices,
      )
    ).verificationId;
  const verify = async (id: string, code?: string) => verifier.verify(c.companyId, { verificationId: id }, code ?? (await codeOf(id)));

  beforeAll(async () => {
    db = await openTestDataSource('otp-report-test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), 'otp-pepper-'.padEnd(40, 'x'));
    sender = new OtpSender(db, new MessageRepository(db), new LedgerRepository(db), keys, { now });
    verifier = new OtpVerifier(db, new OutboxRepository(db), keys.hash, { now });
    resender = new OtpResender(db, new MessageRepository(db), new LedgerRepository(db), keys, { now });
    c = await company();
    // 2026-11-20 (UTC): application 1 verifies 2 of 3 (the third expires); application 2 fails one.
    set('2026-11-20T23:30:00Z');
    await verify(await send(c.app1));
    set('2026-11-20T23:40:00Z');
    await verify(await send(c.app1));
    set('2026-11-20T23:50:00Z');
    await send(c.app1, 1);
    set('2026-11-20T23:55:00Z');
    const failed = await send(c.app2);
    for (let i = 0; i < 3; i++) await verify(failed, (await codeOf(failed)) === '000000' ? '111111' : '000000');
    // 2026-11-21: one OTP resent once (charged twice), then verified.
    set('2026-11-21T00:10:00Z');
    const resent = await send(c.app1);
    set('2026-11-21T00:11:00Z');
    await resender.resend(c.companyId, { verificationId: resent }, prices);
    await verify(resent);
    // 2026-11-22: one still pending at the time of the report.
    set('2026-11-22T09:00:00Z');
    await send(c.app1);
    set('2026-11-22T09:05:00Z');
  });
  afterAll(() => db.destroy());

  const range = { from: new Date('2026-11-20T00:00:00Z'), before: new Date('2026-11-23T00:00:00Z') };
  const row = (day: string, app: App, counts: { sent: number; verified: number; expired: number; failed: number; conversionRate: number }, cost: string) => ({
    day,
    channel: 'sms',
    appid: app.appid,
    ...counts,
    cost: parseMoney(cost),
  });

  it('counts per UTC day, channel and application, with conversion rates and exact costs', async () => {
    const report = await otpReport(db, c.companyId, { ...range, applicationId: null, channel: null }, now());
    const day1 = [
      row('2026-11-20', c.app1, { sent: 3, verified: 2, expired: 1, failed: 0, conversionRate: 0.6667 }, '0.0999'),
      row('2026-11-20', c.app2, { sent: 1, verified: 0, expired: 0, failed: 1, conversionRate: 0 }, '0.0333'),
    ].sort((x, y) => x.appid.localeCompare(y.appid, 'en'));
    expect(report.rows).toEqual([
      ...day1,
      row('2026-11-21', c.app1, { sent: 1, verified: 1, expired: 0, failed: 0, conversionRate: 1 }, '0.0666'),
      row('2026-11-22', c.app1, { sent: 1, verified: 0, expired: 0, failed: 0, conversionRate: 0 }, '0.0333'),
    ]);
    expect(report.totals).toEqual({ sent: 6, verified: 3, conversionRate: 0.5, cost: parseMoney('0.2331') });
    expect(moneyToJson(report.totals.cost)).toBe(0.2331);
  });

  it('filters by application, channel and date range', async () => {
    const onlyApp2 = await otpReport(db, c.companyId, { ...range, applicationId: c.app2.id, channel: null }, now());
    expect(onlyApp2.rows.map((r) => [r.day, r.appid, r.sent])).toEqual([['2026-11-20', c.app2.appid, 1]]);
    const whatsapp = await otpReport(db, c.companyId, { ...range, applicationId: null, channel: 'whatsapp' }, now());
    expect(whatsapp).toEqual({ rows: [], totals: { sent: 0, verified: 0, conversionRate: 0, cost: 0n } });
    const day2 = await otpReport(
      db,
      c.companyId,
      { from: new Date('2026-11-21T00:00:00Z'), before: new Date('2026-11-22T00:00:00Z'), applicationId: null, channel: null },
      now(),
    );
    expect(day2.totals).toEqual({ sent: 1, verified: 1, conversionRate: 1, cost: parseMoney('0.0666') });
  });

  it('counts a pending OTP as expired once its validity has passed', async () => {
    const later = new Date('2026-11-22T09:11:00Z');
    const report = await otpReport(db, c.companyId, { ...range, applicationId: null, channel: null }, later);
    expect(report.rows.find((r) => r.day === '2026-11-22')).toMatchObject({ sent: 1, expired: 1 });
  });

  it("shows nothing of another company's OTPs", async () => {
    const other = await company();
    expect(await otpReport(db, other.companyId, { ...range, applicationId: null, channel: null }, now())).toEqual({
      rows: [],
      totals: { sent: 0, verified: 0, conversionRate: 0, cost: 0n },
    });
  });
});
