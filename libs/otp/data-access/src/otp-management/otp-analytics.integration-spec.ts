import { accountsRepositories, AccountsService, ApplicationRepository, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { DEFAULT_APPLICATION_SETTINGS } from '@mp/accounts-domain';
import { LedgerRepository } from '@mp/billing';
import { DEFAULT_PRICES } from '@mp/billing-domain';
import { MessageRepository } from '@mp/messaging';
import { openText, parseTextKey, type OtpChannel } from '@mp/otp-domain';
import { InvalidCursorError } from '@mp/persistence';
import { OutboxRepository } from '@mp/queue-runtime';
import { openTestDataSource } from '@mp/testing';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { OtpResender } from '../otp-resender';
import { OtpSender } from '../otp-sender';
import { OtpVerifier } from '../otp-verifier';
import { verificationStats } from './otp-analytics';
import { listOtpBlocks, type OtpBlockEntry } from './otp-blocks';

type App = { id: string; appid: string; name: string };

describe('verification analytics and blocks (PostgreSQL)', () => {
  let db: DataSource;
  let sender: OtpSender;
  let verifier: OtpVerifier;
  let resender: OtpResender;
  let accounts: AccountsService;
  const keys = { hash: randomBytes(32), text: parseTextKey(randomBytes(32).toString('base64')) };
  let clock = new Date();
  const at = (iso: string) => (clock = new Date(iso));
  let companyId = '';
  let app1: App;
  let app2: App;

  async function application(appid: string): Promise<App> {
    const app = await new ApplicationRepository(db).findByAppid(appid);
    if (!app) throw new Error('no application');
    return { id: app.id, appid: app.appid, name: app.name };
  }
  async function codeOf(verificationId: string): Promise<string> {
    const [row] = await db.query(`SELECT m.body FROM otps o JOIN messages m ON m.id = o.message_id WHERE o.id = $1`, [verificationId]);
    // An SMS carries the rendered text; a WhatsApp message the code alone.
    const text = openText(keys.text, row.body);
    return /Code (\d+)/.exec(text)?.[1] ?? text;
  }
  const send = async (recipient: string, options: { app?: App; channel?: OtpChannel; company?: string } = {}) =>
    (
      await sender.send(
        {
          companyId: options.company ?? companyId,
          application: { ...(options.app ?? app1), settings: { ...DEFAULT_APPLICATION_SETTINGS } },
          recipient,
          channel: options.channel ?? 'sms',
          sender: 'OTP',
          codeLength: 6,
          code: null,
          templateText: 'Code {{otp}}',
          lang: 'en',
          customVars: {},
          expiryMinutes: null,
        },
        DEFAULT_PRICES,
      )
    ).verificationId;
  const verify = async (id: string) => verifier.verify(companyId, { verificationId: id }, await codeOf(id));
  const wrong = async (id: string) => verifier.verify(companyId, { verificationId: id }, (await codeOf(id)) === '000000' ? '111111' : '000000');
  /** Sent at `sentAt`, verified `after` seconds later. */
  const verifiedAfter = async (recipient: string, sentAt: string, after: number, options: { app?: App; channel?: OtpChannel } = {}) => {
    at(sentAt);
    const id = await send(recipient, options);
    clock = new Date(clock.getTime() + after * 1000);
    await verify(id);
    return id;
  };

  beforeAll(async () => {
    db = await openTestDataSource('otp-analytics-test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), 'otp-analytics-pepper-'.padEnd(40, 'x'));
    const now = () => clock;
    sender = new OtpSender(db, new MessageRepository(db), new LedgerRepository(db), keys, { now });
    verifier = new OtpVerifier(db, new OutboxRepository(db), keys.hash, { now });
    resender = new OtpResender(db, new MessageRepository(db), new LedgerRepository(db), keys, { now });
    const created = await accounts.createCompany({ name: 'Analytics', balance: '10' });
    companyId = created.company_id;
    app1 = await application(created.appid);
    app2 = await application((await accounts.createApplication(companyId, 'Second')).appid);

    // 2026-11-20 (UTC), France by SMS: verified after 10, 20, 30 and 100 s; one never verified.
    await verifiedAfter('+33612345601', '2026-11-20T08:00:00Z', 10);
    await verifiedAfter('+33612345602', '2026-11-20T09:00:00Z', 20);
    await verifiedAfter('+33612345603', '2026-11-20T10:00:00Z', 30);
    await verifiedAfter('+33612345604', '2026-11-20T11:00:00Z', 100, { app: app2 });
    at('2026-11-20T12:00:00Z');
    await send('+33612345605');
    // The same day, Great Britain on WhatsApp, resent before it was verified: timed from its first send.
    at('2026-11-20T23:59:00Z');
    const resent = await send('+447400123456', { channel: 'whatsapp' });
    at('2026-11-20T23:59:40Z');
    await resender.resend(companyId, { verificationId: resent }, DEFAULT_PRICES);
    at('2026-11-20T23:59:50Z');
    await verify(resent);
    // 2026-11-21: a non-geographic number, and an OTP sent before countries were kept.
    await verifiedAfter('+80012345678', '2026-11-21T08:00:00Z', 5);
    const legacy = await verifiedAfter('+4915112345678', '2026-11-21T09:00:00Z', 7);
    await db.query(`UPDATE otps SET country = NULL WHERE id = $1`, [legacy]);
  });
  afterAll(() => db.destroy());

  const range = { from: new Date('2026-11-20T00:00:00Z'), before: new Date('2026-11-22T00:00:00Z') };
  const all = { ...range, applicationId: null, channel: null, country: null };

  it('keeps the country of the recipient with each OTP sent', async () => {
    const rows = await db.query(
      `SELECT recipient, country FROM otps WHERE company_id = $1 AND recipient IN ('+33612345601', '+447400123456', '+80012345678')`,
      [companyId],
    );
    expect(Object.fromEntries(rows.map((row: { recipient: string; country: string | null }) => [row.recipient, row.country]))).toEqual({
      '+33612345601': 'FR',
      '+447400123456': 'GB',
      '+80012345678': null,
    });
  });

  it('counts sent and verified OTPs with their conversion per UTC day, channel and country', async () => {
    const stats = await verificationStats(db, companyId, all);
    expect(stats.rows.map(({ timeToVerify: _, ...row }) => row)).toEqual([
      { day: '2026-11-20', channel: 'sms', country: 'FR', sent: 5, verified: 4, conversionRate: 0.8 },
      { day: '2026-11-20', channel: 'whatsapp', country: 'GB', sent: 1, verified: 1, conversionRate: 1 },
      { day: '2026-11-21', channel: 'sms', country: null, sent: 2, verified: 2, conversionRate: 1 },
    ]);
    expect(stats.days.map(({ timeToVerify: _, ...day }) => day)).toEqual([
      { day: '2026-11-20', sent: 6, verified: 5, conversionRate: 0.8333 },
      { day: '2026-11-21', sent: 2, verified: 2, conversionRate: 1 },
    ]);
    expect(stats.totals).toMatchObject({ sent: 8, verified: 7, conversionRate: 0.875 });
  });

  it('gives the median and 95th percentile of the time from send to verify (continuous percentiles)', async () => {
    const stats = await verificationStats(db, companyId, all);
    // France by SMS: 10, 20, 30, 100 s.
    expect(stats.rows[0].timeToVerify).toEqual({ verified: 4, medianSeconds: 25, p95Seconds: 89.5 });
    // The resent one counts from its first send: 50 s.
    expect(stats.rows[1].timeToVerify).toEqual({ verified: 1, medianSeconds: 50, p95Seconds: 50 });
    // The first day: 10, 20, 30, 50, 100 s.
    expect(stats.days[0].timeToVerify).toEqual({ verified: 5, medianSeconds: 30, p95Seconds: 90 });
    // Everything: 5, 7, 10, 20, 30, 50, 100 s.
    expect(stats.totals.timeToVerify).toEqual({ verified: 7, medianSeconds: 20, p95Seconds: 85 });
  });

  it('filters by application, channel, country and range', async () => {
    const second = await verificationStats(db, companyId, { ...all, applicationId: app2.id });
    expect(second.totals).toEqual({ sent: 1, verified: 1, conversionRate: 1, timeToVerify: { verified: 1, medianSeconds: 100, p95Seconds: 100 } });
    expect((await verificationStats(db, companyId, { ...all, channel: 'whatsapp' })).rows.map((row) => row.country)).toEqual(['GB']);
    expect((await verificationStats(db, companyId, { ...all, country: 'FR' })).totals.sent).toBe(5);
    const day2 = await verificationStats(db, companyId, { ...all, from: new Date('2026-11-21T00:00:00Z') });
    expect(day2.days.map((day) => [day.day, day.sent])).toEqual([['2026-11-21', 2]]);
    const around = await verificationStats(db, companyId, { ...all, from: new Date('2026-11-19T12:00:00Z'), before: new Date('2026-11-22T00:00:01Z') });
    expect(around.days.map((day) => [day.day, day.sent])).toEqual([
      ['2026-11-19', 0],
      ['2026-11-20', 6],
      ['2026-11-21', 2],
      ['2026-11-22', 0],
    ]);
  });

  it('answers zeros and no times for a range without OTPs, or for another company', async () => {
    const empty = { sent: 0, verified: 0, conversionRate: 0, timeToVerify: { verified: 0, medianSeconds: null, p95Seconds: null } };
    expect(await verificationStats(db, companyId, { ...all, from: new Date('2026-12-01T00:00:00Z'), before: new Date('2026-12-02T00:00:00Z') })).toEqual({
      rows: [],
      days: [{ day: '2026-12-01', ...empty }],
      totals: empty,
    });
    await expect(verificationStats(db, companyId, { ...all, from: new Date('2025-01-01T00:00:00Z') })).rejects.toThrow('the range must be at most 366 days');
    await expect(verificationStats(db, companyId, { ...all, before: all.from })).rejects.toThrow('from must be before to');
    const other = await accounts.createCompany({ name: 'Analytics other', balance: '1' });
    expect((await verificationStats(db, other.company_id, all)).totals).toEqual(empty);
  });

  it('lists the 3-failure blocks newest first, a page at a time, with recipient, application and end', async () => {
    at('2026-11-22T10:00:00Z');
    const first = await send('+34612345601');
    for (let i = 0; i < 3; i++) await wrong(first);
    at('2026-11-22T11:00:00Z');
    const second = await send('+34612345602', { app: app2 });
    for (let i = 0; i < 3; i++) await wrong(second);
    at('2026-11-22T11:10:00Z');
    // Two wrong codes only: no block.
    const third = await send('+34612345603');
    for (let i = 0; i < 2; i++) await wrong(third);

    const now = new Date('2026-11-22T11:20:00Z');
    const pages: OtpBlockEntry[][] = [];
    let cursor: string | null = null;
    do {
      const page = await listOtpBlocks(db, companyId, { applicationId: null, recipient: null, range: { from: null, before: null } }, { limit: 1, cursor }, now);
      pages.push(page.items);
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(pages.map((items) => items.map((b) => [b.recipient, b.appid, b.verificationId, b.active]))).toEqual([
      [['+34612345602', app2.appid, second, true]],
      [['+34612345601', app1.appid, first, false]],
    ]);
    expect(pages[0][0].blockedAt).toEqual(new Date('2026-11-22T11:00:00Z'));
    expect(pages[0][0].blockedUntil).toEqual(new Date('2026-11-22T11:30:00Z'));
    const onlyApp1 = await listOtpBlocks(
      db,
      companyId,
      { applicationId: app1.id, recipient: null, range: { from: null, before: null } },
      { limit: 10, cursor: null },
      now,
    );
    expect(onlyApp1.items.map((b) => b.recipient)).toEqual(['+34612345601']);
    await expect(
      listOtpBlocks(db, companyId, { applicationId: null, recipient: null, range: { from: null, before: null } }, { limit: 10, cursor: 'nope' }, now),
    ).rejects.toThrow(InvalidCursorError);
  });
});
