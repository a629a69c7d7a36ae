import { accountsRepositories, AccountsService, ApplicationRepository, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { DEFAULT_APPLICATION_SETTINGS } from '@mp/accounts-domain';
import { LedgerRepository } from '@mp/billing';
import { DEFAULT_PRICES } from '@mp/billing-domain';
import { MessageRepository } from '@mp/messaging';
import { OTP_BLOCK, openText, parseTextKey } from '@mp/otp-domain';
import { OutboxRepository } from '@mp/queue-runtime';
import type { OutboxJob } from '@mp/queue-runtime';
import { openTestDataSource } from '@mp/testing';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { OtpNotResendableError } from './otp-errors';
import { OtpLifecycle } from './otp-lifecycle';
import { findOtpRecord, listOtpRecords } from './otp-management';
import { OtpResender } from './otp-resender';
import { OtpSender, type OtpSendCommand } from './otp-sender';
import { OtpVerifier } from './otp-verifier';

/** OTPs whose message did not reach the handset, and OTPs failed on wrong codes (PostgreSQL). */
describe('OTP failures (PostgreSQL)', () => {
  let db: DataSource;
  let accounts: AccountsService;
  const keys = { hash: randomBytes(32), text: parseTextKey(randomBytes(32).toString('base64')) };
  let clock = new Date('2026-11-23T10:00:00Z');
  const now = () => clock;
  const later = (ms: number) => (clock = new Date(clock.getTime() + ms));
  let sender: OtpSender;
  let verifier: OtpVerifier;
  let resender: OtpResender;
  let lifecycle: OtpLifecycle;
  let nextNumber = 612350000;

  async function company() {
    const created = await accounts.createCompany({ name: `Failing ${nextNumber}`, balance: '1' });
    const app = await new ApplicationRepository(db).findByAppid(created.appid);
    if (!app) throw new Error('no application');
    return { companyId: created.company_id, application: { id: app.id, name: app.name, settings: { ...DEFAULT_APPLICATION_SETTINGS } } };
  }

  const command = (c: Awaited<ReturnType<typeof company>>): OtpSendCommand => ({
    ...c,
    recipient: `+33${nextNumber++}`,
    channel: 'sms',
    sender: 'OTP',
    codeLength: 6,
    code: null,
    templateText: 'Code {{otp}}',
    lang: 'en',
    customVars: {},
    expiryMinutes: null,
  });

  async function currentMessage(verificationId: string): Promise<string> {
    const [row] = await db.query(`SELECT message_id FROM otps WHERE id = $1`, [verificationId]);
    return row.message_id;
  }

  async function codeOf(verificationId: string): Promise<string> {
    const [row] = await db.query(`SELECT m.body FROM otps o JOIN messages m ON m.id = o.message_id WHERE o.id = $1`, [verificationId]);
    return /Code (\d+)/.exec(openText(keys.text, row.body))?.[1] ?? '';
  }

  /** What the dispatcher records when the carrier settles the message other than delivered. */
  async function settle(messageId: string, status: string, errorCode: string | null) {
    await db.query(`UPDATE messages SET status = $2, error_code = $3 WHERE id = $1`, [messageId, status, errorCode]);
  }

  const failedEvents = (jobs: OutboxJob[]) => jobs.map((job) => ({ jobId: job.jobId, data: job.data }));

  beforeAll(async () => {
    db = await openTestDataSource('otp-failure-test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), 'otp-pepper-'.padEnd(40, 'x'));
    sender = new OtpSender(db, new MessageRepository(db), new LedgerRepository(db), keys, { now });
    verifier = new OtpVerifier(db, new OutboxRepository(db), keys.hash, { now });
    lifecycle = new OtpLifecycle(db, new OutboxRepository(db));
    resender = new OtpResender(db, new MessageRepository(db), new LedgerRepository(db), keys, { now });
  });
  afterAll(() => db.destroy());

  it('fails a pending OTP whose message the carrier did not deliver: status, reason, log, webhook event, once', async () => {
    const c = await company();
    const sent = await sender.send(command(c), DEFAULT_PRICES);
    const messageId = await currentMessage(sent.verificationId);
    await settle(messageId, 'undelivered', '001');
    later(2_000);

    const { outbox } = await lifecycle.messageFailed(messageId, 'undelivered', clock);
    expect(failedEvents(outbox.jobs)).toEqual([
      {
        jobId: `otp-evt-${sent.verificationId}-otp.failed-${messageId}`,
        data: {
          otpId: sent.verificationId,
          type: 'otp.failed',
          occurredAt: clock.toISOString(),
          messageId,
          failure: { reason: 'undelivered', errorCode: '001' },
        },
      },
    ]);
    expect(outbox.ids).toHaveLength(1);
    expect(await findOtpRecord(db, c.companyId, sent.verificationId, clock)).toMatchObject({
      status: 'failed',
      failureReason: 'undelivered',
      errorCode: '001',
    });
    const listed = await listOtpRecords(
      db,
      c.companyId,
      { applicationId: null, recipient: null, status: 'failed', channel: null, range: { from: null, before: null } },
      { page: 1, limit: 10 },
      clock,
    );
    expect(listed.items.map((record) => [record.verificationId, record.failureReason])).toEqual([[sent.verificationId, 'undelivered']]);
    const events = await db.query(`SELECT event, detail FROM otp_events WHERE otp_id = $1 ORDER BY id`, [sent.verificationId]);
    expect(events).toEqual([
      { event: 'sent', detail: { channel: 'sms' } },
      { event: 'failed', detail: { message_id: messageId, reason: 'undelivered', error_code: '001' } },
    ]);

    expect((await lifecycle.messageFailed(messageId, 'undelivered', clock)).outbox.jobs).toEqual([]);
    expect(await verifier.verify(c.companyId, { verificationId: sent.verificationId }, await codeOf(sent.verificationId))).toEqual({
      outcome: 'failed',
      verificationId: sent.verificationId,
      reason: 'undelivered',
      errorCode: '001',
    });
  });

  it.each([
    ['rejected', 'rejected'],
    ['expired', 'expired'],
    ['failed', 'not_sent'],
  ])('fails it as well when its message ends %p (reason %p)', async (status, reason) => {
    const c = await company();
    const sent = await sender.send(command(c), DEFAULT_PRICES);
    const messageId = await currentMessage(sent.verificationId);
    await settle(messageId, status, null);
    expect((await lifecycle.messageFailed(messageId, status, clock)).outbox.jobs.map((job) => job.data)).toEqual([
      expect.objectContaining({ type: 'otp.failed', failure: { reason, errorCode: null } }),
    ]);
    expect(await findOtpRecord(db, c.companyId, sent.verificationId, clock)).toMatchObject({ status: 'failed', failureReason: reason, errorCode: null });
  });

  it('leaves alone an OTP whose message was delivered, one already expired, and one verified', async () => {
    const c = await company();
    const delivered = await sender.send(command(c), DEFAULT_PRICES);
    expect((await lifecycle.messageFailed(await currentMessage(delivered.verificationId), 'delivered', clock)).outbox.jobs).toEqual([]);

    const verified = await sender.send(command(c), DEFAULT_PRICES);
    await verifier.verify(c.companyId, { verificationId: verified.verificationId }, await codeOf(verified.verificationId));
    expect((await lifecycle.messageFailed(await currentMessage(verified.verificationId), 'undelivered', clock)).outbox.jobs).toEqual([]);

    const lapsed = await sender.send(command(c), DEFAULT_PRICES);
    expect(
      (await lifecycle.messageFailed(await currentMessage(lapsed.verificationId), 'undelivered', new Date(clock.getTime() + 11 * 60_000))).outbox.jobs,
    ).toEqual([]);
    for (const otp of [delivered, verified, lapsed]) {
      expect((await findOtpRecord(db, c.companyId, otp.verificationId, clock))?.failureReason).toBeNull();
    }
  });

  it('resends an OTP whose code never arrived under the same id: pending again, and the old message can no longer fail it', async () => {
    const c = await company();
    const sent = await sender.send(command(c), DEFAULT_PRICES);
    const first = await currentMessage(sent.verificationId);
    await settle(first, 'undelivered', '001');
    await lifecycle.messageFailed(first, 'undelivered', clock);
    later(31_000);

    const resent = await resender.resend(c.companyId, { verificationId: sent.verificationId }, DEFAULT_PRICES);
    expect(resent.verificationId).toBe(sent.verificationId);
    expect(await findOtpRecord(db, c.companyId, sent.verificationId, clock)).toMatchObject({
      status: 'pending',
      failureReason: null,
      errorCode: null,
      resends: 1,
    });
    const second = await currentMessage(sent.verificationId);
    expect(second).not.toBe(first);
    // A late report about the first message does not fail the resent OTP.
    expect((await lifecycle.messageFailed(first, 'rejected', clock)).outbox.jobs).toEqual([]);
    expect((await lifecycle.delivered(second, clock)).outbox.jobs).toHaveLength(1);
    expect(await verifier.verify(c.companyId, { verificationId: sent.verificationId }, await codeOf(sent.verificationId))).toMatchObject({
      outcome: 'verified',
    });
  });

  it('fails an OTP on its third wrong code with the reason too_many_attempts and its otp.failed event; it cannot be resent', async () => {
    const handed: OutboxJob[] = [];
    const withEvents = new OtpVerifier(db, new OutboxRepository(db), keys.hash, { now, onEvents: async (outbox) => handed.push(...outbox.jobs) });
    const c = await company();
    const sent = await sender.send(command(c), DEFAULT_PRICES);
    for (let i = 0; i < 3; i++) await withEvents.verify(c.companyId, { verificationId: sent.verificationId }, 'nope');
    expect(handed.map((job) => job.data)).toEqual([
      expect.objectContaining({ otpId: sent.verificationId, type: 'otp.failed', failure: { reason: 'too_many_attempts', errorCode: null } }),
    ]);
    expect(await findOtpRecord(db, c.companyId, sent.verificationId, clock)).toMatchObject({ status: 'failed', failureReason: 'too_many_attempts' });
    later(OTP_BLOCK.durationMs + 1_000);
    expect(await verifier.verify(c.companyId, { verificationId: sent.verificationId }, await codeOf(sent.verificationId))).toMatchObject({
      outcome: 'failed',
      reason: 'too_many_attempts',
    });
    await expect(resender.resend(c.companyId, { verificationId: sent.verificationId }, DEFAULT_PRICES)).rejects.toMatchObject({
      constructor: OtpNotResendableError,
      message: 'OTP failed after too many wrong codes; send a new one',
    });
  });
});
