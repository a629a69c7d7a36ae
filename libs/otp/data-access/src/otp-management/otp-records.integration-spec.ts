import { accountsRepositories, AccountsService, ApplicationRepository, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { DEFAULT_APPLICATION_SETTINGS } from '@mp/accounts-domain';
import { LedgerRepository } from '@mp/billing';
import { DEFAULT_PRICES } from '@mp/billing-domain';
import { MessageRepository } from '@mp/messaging';
import { OTP_BLOCK, openText, parseTextKey } from '@mp/otp-domain';
import { OutboxRepository } from '@mp/queue-runtime';
import { openTestDataSource } from '@mp/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { recordOtpEvent } from '../otp-journal';
import { OtpSender } from '../otp-sender';
import { OtpVerifier } from '../otp-verifier';
import { listOtpAttemptEntries } from './otp-attempt-entries';
import { listBlockedRecipients } from './otp-blocked-recipients';
import { listOtpLogEntries } from './otp-log-entries';
import { findOtpRecord, listOtpRecords, type OtpRecordFilter } from './otp-records';

type App = { id: string; appid: string; name: string };

describe('OTP management queries (PostgreSQL)', () => {
  let db: DataSource;
  let accounts: AccountsService;
  let sender: OtpSender;
  let verifier: OtpVerifier;
  const keys = { hash: randomBytes(32), text: parseTextKey(randomBytes(32).toString('base64')) };
  const t0 = new Date('2026-11-22T10:00:00Z');
  let clock = t0;
  const now = () => clock;
  const at = (minutes: number) => (clock = new Date(t0.getTime() + minutes * 60_000));
  let nextNumber = 612350000;
  const newNumber = () => `+33${nextNumber++}`;
  const everything = { from: null, before: null };
  const firstPage = { page: 1, limit: 100 };
  const noFilter = { verificationId: null, applicationId: null, recipient: null, range: everything };

  async function application(companyId: string, appid: string): Promise<App> {
    const app = await new ApplicationRepository(db).findByAppid(appid);
    if (!app || app.companyId !== companyId) throw new Error('no application');
    return { id: app.id, appid: app.appid, name: app.name };
  }

  async function company() {
    const created = await accounts.createCompany({ name: `Mgmt ${nextNumber++}`, balance: '10' });
    const second = await accounts.createApplication(created.company_id, 'Second app');
    return {
      companyId: created.company_id,
      app1: await application(created.company_id, created.appid),
      app2: await application(created.company_id, second.appid),
    };
  }

  const send = (companyId: string, app: App, recipient: string, expiryMinutes: number | null = null) =>
    sender.send(
      {
        companyId,
        application: { ...app, settings: { ...DEFAULT_APPLICATION_SETTINGS } },
        recipient,
        channel: 'sms',
        sender: 'OTP',
        codeLength: 6,
        code: null,
        templateText: 'Code {{otp}}',
        lang: 'en',
        customVars: {},
        expiryMinutes,
      },
      DEFAULT_PRICES,
    );

  async function codeOf(verificationId: string): Promise<string> {
    const [row] = await db.query(`SELECT m.body FROM otps o JOIN messages m ON m.id = o.message_id WHERE o.id = $1`, [verificationId]);
    return /Code (\d+)/.exec(openText(keys.text, row.body))?.[1] ?? '';
  }
  const wrongCode = async (verificationId: string) => ((await codeOf(verificationId)) === '000000' ? '111111' : '000000');

  let a: Awaited<ReturnType<typeof company>>;
  let b: Awaited<ReturnType<typeof company>>;
  const [r1, r2] = [newNumber(), newNumber()];
  let verified: string, expired: string, pending: string, otherCompany: string;

  beforeAll(async () => {
    db = await openTestDataSource('otp-management-test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), 'otp-pepper-'.padEnd(40, 'x'));
    sender = new OtpSender(db, new MessageRepository(db), new LedgerRepository(db), keys, { now });
    verifier = new OtpVerifier(db, new OutboxRepository(db), keys.hash, { now });
    [a, b] = [await company(), await company()];
    at(0);
    verified = (await send(a.companyId, a.app1, r1)).verificationId;
    at(1);
    await verifier.verify(a.companyId, { verificationId: verified }, await codeOf(verified));
    at(2);
    expired = (await send(a.companyId, a.app1, r2, 1)).verificationId;
    at(4);
    pending = (await send(a.companyId, a.app2, r1)).verificationId;
    at(5);
    await verifier.verify(a.companyId, { verificationId: pending }, await wrongCode(pending));
    otherCompany = (await send(b.companyId, b.app1, r1)).verificationId;
    at(6);
  });
  afterAll(() => db.destroy());

  describe('findOtpRecord', () => {
    it('answers the OTP with its fields and never its code hash, template or variables', async () => {
      const record = await findOtpRecord(db, a.companyId, verified, now());
      expect(record).toEqual({
        verificationId: verified,
        appid: a.app1.appid,
        recipient: r1,
        channel: 'sms',
        status: 'verified',
        sender: 'OTP',
        lang: 'en',
        expiresAt: new Date(t0.getTime() + 10 * 60_000),
        createdAt: t0,
        lastSentAt: t0,
        resends: 0,
        verifiedAt: new Date(t0.getTime() + 60_000),
        cost: 100n,
        failureReason: null,
        errorCode: null,
      });
      expect(Object.keys(record ?? {}).some((key) => /hash|template|vars/i.test(key))).toBe(false);
    });

    it('reads a pending OTP past its expiry as expired, though the row is not updated yet', async () => {
      expect(await findOtpRecord(db, a.companyId, expired, now())).toMatchObject({ status: 'expired' });
      expect((await db.query(`SELECT status FROM otps WHERE id = $1`, [expired]))[0].status).toBe('pending');
      expect(await findOtpRecord(db, a.companyId, expired, new Date(t0.getTime() + 2.5 * 60_000))).toMatchObject({ status: 'pending' });
    });

    it("answers null for another company's OTP, an unknown id and a non-uuid", async () => {
      expect(await findOtpRecord(db, b.companyId, verified, now())).toBeNull();
      expect(await findOtpRecord(db, a.companyId, randomUUID(), now())).toBeNull();
      expect(await findOtpRecord(db, a.companyId, "x' OR 1=1 --", now())).toBeNull();
    });
  });

  describe('listOtpRecords', () => {
    const filter: OtpRecordFilter = { applicationId: null, recipient: null, status: null, channel: null, range: everything };
    const ids = async (overrides: Partial<OtpRecordFilter>, page = firstPage) =>
      (await listOtpRecords(db, a.companyId, { ...filter, ...overrides }, page, now())).items.map((item) => item.verificationId);

    it("lists the company's OTPs newest first, and only its own", async () => {
      expect(await ids({})).toEqual([pending, expired, verified]);
      expect((await listOtpRecords(db, b.companyId, filter, firstPage, now())).items.map((item) => item.verificationId)).toEqual([otherCompany]);
    });

    it('filters by application, recipient, status (as read now), channel and creation time', async () => {
      expect(await ids({ applicationId: a.app2.id })).toEqual([pending]);
      expect(await ids({ recipient: r1 })).toEqual([pending, verified]);
      expect(await ids({ status: 'expired' })).toEqual([expired]);
      expect(await ids({ status: 'pending' })).toEqual([pending]);
      expect(await ids({ status: 'verified', recipient: r1 })).toEqual([verified]);
      expect(await ids({ channel: 'whatsapp' })).toEqual([]);
      expect(await ids({ range: { from: new Date(t0.getTime() + 2 * 60_000), before: null } })).toEqual([pending, expired]);
      expect(await ids({ range: { from: null, before: new Date(t0.getTime() + 2 * 60_000) } })).toEqual([verified]);
    });

    it('pages with the total of all matches', async () => {
      const second = await listOtpRecords(db, a.companyId, filter, { page: 2, limit: 2 }, now());
      expect(second).toMatchObject({ page: 2, limit: 2, total: 3 });
      expect(second.items.map((item) => item.verificationId)).toEqual([verified]);
      expect(await listOtpRecords(db, a.companyId, filter, { page: 5, limit: 2 }, now())).toEqual({ items: [], page: 5, limit: 2, total: 3 });
    });
  });

  describe('listOtpLogEntries', () => {
    const events = async (companyId: string, overrides: Record<string, unknown> = {}) =>
      (await listOtpLogEntries(db, companyId, { ...noFilter, event: null, ...overrides }, firstPage)).items.map((item) => [item.event, item.verificationId]);

    it('lists what happened, newest first, filtered by OTP, application, recipient, event and time', async () => {
      expect(await events(a.companyId)).toEqual([
        ['failed_attempt', pending],
        ['sent', pending],
        ['sent', expired],
        ['verified', verified],
        ['sent', verified],
      ]);
      expect(await events(a.companyId, { verificationId: verified })).toEqual([
        ['verified', verified],
        ['sent', verified],
      ]);
      expect(await events(a.companyId, { applicationId: a.app2.id })).toEqual([
        ['failed_attempt', pending],
        ['sent', pending],
      ]);
      expect(await events(a.companyId, { recipient: r2 })).toEqual([['sent', expired]]);
      expect(await events(a.companyId, { event: 'sent', range: { from: t0, before: new Date(t0.getTime() + 3 * 60_000) } })).toEqual([
        ['sent', expired],
        ['sent', verified],
      ]);
      expect(await events(b.companyId)).toEqual([['sent', otherCompany]]);
    });

    it('shows a refused send, which has no verification id, with its detail', async () => {
      const c = await company();
      await recordOtpEvent(db.manager, { otpId: null, companyId: c.companyId, applicationId: c.app1.id, recipient: r1 }, 'refused', now(), {
        reason: 'country',
      });
      const page = await listOtpLogEntries(db, c.companyId, { ...noFilter, event: 'refused' }, firstPage);
      expect(page).toEqual({
        items: [
          {
            id: expect.any(Number),
            verificationId: null,
            appid: c.app1.appid,
            recipient: r1,
            event: 'refused',
            detail: { reason: 'country' },
            createdAt: now(),
          },
        ],
        page: 1,
        limit: 100,
        total: 1,
      });
    });
  });

  describe('listOtpAttemptEntries', () => {
    const outcomes = async (companyId: string, overrides: Record<string, unknown> = {}) =>
      (await listOtpAttemptEntries(db, companyId, { ...noFilter, outcome: null, ...overrides }, firstPage)).items.map((item) => [
        item.outcome,
        item.verificationId,
      ]);

    it('lists verification attempts newest first, filtered, and only the company’s', async () => {
      expect(await outcomes(a.companyId)).toEqual([
        ['invalid_code', pending],
        ['success', verified],
      ]);
      expect(await outcomes(a.companyId, { outcome: 'success' })).toEqual([['success', verified]]);
      expect(await outcomes(a.companyId, { verificationId: pending })).toEqual([['invalid_code', pending]]);
      expect(await outcomes(a.companyId, { recipient: r2 })).toEqual([]);
      expect(await outcomes(a.companyId, { applicationId: a.app2.id, recipient: r1 })).toEqual([['invalid_code', pending]]);
      expect(await outcomes(b.companyId)).toEqual([]);
      const [first] = (await listOtpAttemptEntries(db, a.companyId, { ...noFilter, outcome: null }, { page: 1, limit: 1 })).items;
      expect(first).toEqual({
        id: expect.any(Number),
        verificationId: pending,
        appid: a.app2.appid,
        recipient: r1,
        outcome: 'invalid_code',
        createdAt: new Date(t0.getTime() + 5 * 60_000),
      });
    });
  });

  describe('listBlockedRecipients', () => {
    it('lists the recipients 3 wrong codes within 30 minutes blocked, until the block ends, per company', async () => {
      const c = await company();
      const [blocked, twice] = [newNumber(), newNumber()];
      const start = clock;
      const otp = (await send(c.companyId, c.app1, blocked)).verificationId;
      const other = (await send(c.companyId, c.app2, twice)).verificationId;
      for (let i = 0; i < 3; i++) {
        clock = new Date(clock.getTime() + 60_000);
        await verifier.verify(c.companyId, { verificationId: otp }, await wrongCode(otp));
        if (i < 2) await verifier.verify(c.companyId, { verificationId: other }, await wrongCode(other));
      }
      const until = new Date(clock.getTime() + OTP_BLOCK.durationMs);
      expect(await listBlockedRecipients(db, c.companyId, now())).toEqual([{ appid: c.app1.appid, recipient: blocked, blockedUntil: until }]);
      expect(await listBlockedRecipients(db, a.companyId, now())).toEqual([]);
      expect(await listBlockedRecipients(db, c.companyId, new Date(until.getTime() - 1))).toHaveLength(1);
      expect(await listBlockedRecipients(db, c.companyId, until)).toEqual([]);
      clock = start;
    });
  });
});
