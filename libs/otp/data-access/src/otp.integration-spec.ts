import { accountsRepositories, AccountsService, ApplicationRepository, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { DEFAULT_APPLICATION_SETTINGS } from '@mp/accounts-domain';
import { LedgerRepository } from '@mp/billing';
import { DEFAULT_PRICES, parseMoney } from '@mp/billing-domain';
import { MessageRepository } from '@mp/messaging';
import { OTP_BLOCK, openText, parseTextKey } from '@mp/otp-domain';
import { OutboxRepository } from '@mp/queue-runtime';
import { eventually, openTestDataSource, statementsOf } from '@mp/testing';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { OtpBlockedError, OtpNotAffordableError, OtpNotResendableError, OtpResendRefusedError } from './otp-errors';
import { OtpLifecycle } from './otp-lifecycle';
import { lockRecipient } from './otp-recipient-lock';
import { OtpResender } from './otp-resender';
import { OtpSender, type OtpSendCommand, type PendingOtp } from './otp-sender';
import { OtpVerifier } from './otp-verifier';

describe('OTP send and verify (PostgreSQL)', () => {
  let db: DataSource;
  let accounts: AccountsService;
  const keys = { hash: randomBytes(32), text: parseTextKey(randomBytes(32).toString('base64')) };
  let clock = new Date('2026-11-22T10:00:00Z');
  const now = () => clock;
  const later = (ms: number) => (clock = new Date(clock.getTime() + ms));

  let sender: OtpSender;
  let verifier: OtpVerifier;
  let resender: OtpResender;
  let lifecycle: OtpLifecycle;
  let nextNumber = 612340000;
  const newNumber = () => `+33${nextNumber++}`;

  async function company(balance = '1') {
    const created = await accounts.createCompany({ name: `Otp ${nextNumber}`, balance });
    const app = await new ApplicationRepository(db).findByAppid(created.appid);
    if (!app) throw new Error('no application');
    return { companyId: created.company_id, application: { id: app.id, name: app.name, settings: { ...DEFAULT_APPLICATION_SETTINGS } } };
  }

  const command = (c: Awaited<ReturnType<typeof company>>, overrides: Partial<OtpSendCommand> = {}): OtpSendCommand => ({
    ...c,
    recipient: newNumber(),
    channel: 'sms',
    sender: 'OTP',
    codeLength: 6,
    code: null,
    templateText: 'Code {{otp}} for {{app_name}}, valid {{expiry_minutes}} min',
    lang: 'en',
    customVars: {},
    expiryMinutes: null,
    ...overrides,
  });

  /** The statements sent, without those that prepare a statement on a connection for the first time. */
  const withoutPrepares = (statements: string[]) => statements.filter((text) => !text.startsWith('PREPARE '));

  /** The delivery job committed for an OTP's current message. */
  async function jobOf(verificationId: string): Promise<{ queue: string; job_name: string; job_id: string }> {
    const [job] = await db.query(
      `SELECT b.queue, b.job_name, b.job_id FROM outbox b JOIN otps o ON b.job_id IN ('otp-' || o.message_id, 'otp-wa-' || o.message_id) WHERE o.id = $1`,
      [verificationId],
    );
    return job;
  }

  /** The code as the handset will show it: opened from the sealed message text. */
  async function codeOf(verificationId: string): Promise<string> {
    const [row] = await db.query(`SELECT m.body FROM otps o JOIN messages m ON m.id = o.message_id WHERE o.id = $1`, [verificationId]);
    return /Code (\d+)/.exec(openText(keys.text, row.body))?.[1] ?? '';
  }

  beforeAll(async () => {
    db = await openTestDataSource('otp-test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), 'otp-pepper-'.padEnd(40, 'x'));
    sender = new OtpSender(db, new MessageRepository(db), new LedgerRepository(db), keys, { now });
    verifier = new OtpVerifier(db, new OutboxRepository(db), keys.hash, { now });
    lifecycle = new OtpLifecycle(db, new OutboxRepository(db));
    resender = new OtpResender(db, new MessageRepository(db), new LedgerRepository(db), keys, { now });
  });
  afterAll(() => db.destroy());

  it('charges the send, stores only the hash, seals the text, and queues it on the OTP queue', async () => {
    const c = await company();
    const sent = await sender.send(command(c, { code: '90817263' }), DEFAULT_PRICES);
    expect(sent).toMatchObject({ channel: 'sms', cost: 100n, balance: parseMoney('1') - 100n });
    expect(sent.expiresAt.getTime()).toBe(clock.getTime() + 10 * 60_000);
    const job = await jobOf(sent.verificationId);
    expect(job).toMatchObject({ queue: 'otp.dispatch', job_name: 'sms.submit' });
    const dump = JSON.stringify(await db.query(`SELECT o.*, m.body FROM otps o JOIN messages m ON m.id = o.message_id WHERE o.id = $1`, [sent.verificationId]));
    expect(dump).not.toContain('90817263');
    expect(JSON.stringify(await db.query(`SELECT * FROM outbox WHERE job_id = $1`, [job.job_id]))).not.toContain('90817263');
    expect(await codeOf(sent.verificationId)).toBe('90817263');
  });

  it('shows a send, before it commits, to beforeCommit (an Idempotency-Key records its answer then): its charge reference is the one the ledger holds after', async () => {
    const c = await company();
    const seen: PendingOtp[] = [];
    const sent = await sender.send(command(c), DEFAULT_PRICES, async (pending) => {
      seen.push(pending);
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE company_id = $1 AND kind = 'charge'`, [c.companyId]);
      expect(n).toBe(0);
    });
    const { balance, ...answer } = sent;
    expect(seen).toEqual([{ ...answer, chargeReference: `otp:${sent.verificationId}` }]);
    const [charge] = await db.query(`SELECT balance_after::text AS balance_after FROM ledger_entries WHERE company_id = $1 AND reference = $2`, [
      c.companyId,
      seen[0].chargeReference,
    ]);
    expect(parseMoney(charge.balance_after)).toBe(balance);
    const refused = new Error('lease lost');
    await expect(sender.send(command(c), DEFAULT_PRICES, () => Promise.reject(refused))).rejects.toBe(refused);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE company_id = $1 AND kind = 'charge'`, [c.companyId]);
    expect(n).toBe(1);
  });

  it('over WhatsApp: one message priced at the whatsapp rate, the code alone sealed, and an otp.whatsapp job', async () => {
    const c = await company();
    const sent = await sender.send(command(c, { channel: 'whatsapp', code: '5544' }), DEFAULT_PRICES);
    expect(await jobOf(sent.verificationId)).toMatchObject({ queue: 'otp.deliver', job_name: 'otp.whatsapp' });
    const [row] = await db.query(
      `SELECT m.body, m.body_sealed, m.channel, m.route, m.parts FROM otps o JOIN messages m ON m.id = o.message_id WHERE o.id = $1`,
      [sent.verificationId],
    );
    expect(row).toMatchObject({ body_sealed: true, channel: 'whatsapp', route: 'whatsapp', parts: 1 });
    expect(openText(keys.text, row.body)).toBe('5544');
  });

  it('verifies the right code once; of many concurrent correct verifications exactly one succeeds', async () => {
    const c = await company();
    const sent = await sender.send(command(c), DEFAULT_PRICES);
    const code = await codeOf(sent.verificationId);
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => verifier.verify(c.companyId, { verificationId: sent.verificationId }, code)));
    expect(outcomes.filter((o) => o.outcome === 'verified')).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome === 'already_verified')).toHaveLength(9);
  });

  it('finds the newest pending OTP of a recipient by application and number', async () => {
    const c = await company();
    const first = await sender.send(command(c), DEFAULT_PRICES);
    later(1_000);
    const second = await sender.send(command(c, { recipient: first.recipient }), DEFAULT_PRICES);
    const outcome = await verifier.verify(c.companyId, { applicationId: c.application.id, recipient: first.recipient }, await codeOf(second.verificationId));
    expect(outcome).toMatchObject({ outcome: 'verified', verificationId: second.verificationId });
  });

  it('answers expired after the validity, on the injected clock', async () => {
    const c = await company();
    const sent = await sender.send(command(c, { expiryMinutes: 1 }), DEFAULT_PRICES);
    const code = await codeOf(sent.verificationId);
    later(61_000);
    expect(await verifier.verify(c.companyId, { verificationId: sent.verificationId }, code)).toEqual({
      outcome: 'expired',
      verificationId: sent.verificationId,
    });
    const [row] = await db.query(`SELECT status FROM otps WHERE id = $1`, [sent.verificationId]);
    expect(row.status).toBe('expired');
  });

  it('blocks a recipient after 3 wrong codes: the right code and new sends are refused until the block ends', async () => {
    const c = await company();
    const sent = await sender.send(command(c), DEFAULT_PRICES);
    const code = await codeOf(sent.verificationId);
    const wrong = code === '000000' ? '111111' : '000000';
    const remaining = [];
    for (let i = 0; i < 3; i++) remaining.push(await verifier.verify(c.companyId, { verificationId: sent.verificationId }, wrong));
    expect(remaining.map((r) => (r.outcome === 'invalid_code' ? r.attemptsRemaining : r.outcome))).toEqual([2, 1, 0]);
    const blocked = await verifier.verify(c.companyId, { verificationId: sent.verificationId }, code);
    expect(blocked).toEqual({ outcome: 'blocked', retryAfterSeconds: OTP_BLOCK.durationMs / 1000 });
    await expect(sender.send(command(c, { recipient: sent.recipient }), DEFAULT_PRICES)).rejects.toBeInstanceOf(OtpBlockedError);
    later(OTP_BLOCK.durationMs + 1_000);
    const fresh = await sender.send(command(c, { recipient: sent.recipient }), DEFAULT_PRICES);
    expect(await verifier.verify(c.companyId, { verificationId: fresh.verificationId }, await codeOf(fresh.verificationId))).toMatchObject({
      outcome: 'verified',
    });
  });

  it("keeps one company's wrong codes from blocking another company's user of the same number", async () => {
    const [a, b] = [await company(), await company()];
    const recipient = newNumber();
    const sentA = await sender.send(command(a, { recipient }), DEFAULT_PRICES);
    for (let i = 0; i < 3; i++) await verifier.verify(a.companyId, { verificationId: sentA.verificationId }, 'x');
    const sentB = await sender.send(command(b, { recipient }), DEFAULT_PRICES);
    expect(await verifier.verify(b.companyId, { verificationId: sentB.verificationId }, await codeOf(sentB.verificationId))).toMatchObject({
      outcome: 'verified',
    });
    expect(await verifier.verify(b.companyId, { verificationId: sentA.verificationId }, '123456')).toEqual({ outcome: 'not_found' });
  });

  it('writes a send in one round trip: BEGIN, the recipient lock, the check for recent wrong codes, the inserts with the charge, COMMIT', async () => {
    const c = await company();
    expect(withoutPrepares(await statementsOf(() => sender.send(command(c), DEFAULT_PRICES)))).toEqual([
      // Statements each connection keeps prepared: the lock, the check, the inserts with the charge.
      expect.stringMatching(
        /^BEGIN; SET LOCAL plan_cache_mode = force_generic_plan; EXECUTE mp_open_\w+\(ARRAY\['otp:[^']+'\]::text\[\]\); EXECUTE mp_open_\w+\(ARRAY\[[^;]*\); EXECUTE mp_open_\w+\('\{[\s\S]*\); COMMIT$/,
      ),
    ]);
    expect(await new LedgerRepository(db).findBalance(c.companyId)).toBe(parseMoney('1') - 100n);
  });

  it('writes a send to a recipient with a recent wrong code in two round trips, reading the wrong codes; one wrong code does not block', async () => {
    const c = await company();
    const first = await sender.send(command(c), DEFAULT_PRICES);
    expect(await verifier.verify(c.companyId, { verificationId: first.verificationId }, 'nope')).toMatchObject({ outcome: 'invalid_code' });
    let sent: Awaited<ReturnType<typeof sender.send>> | undefined;
    const statements = await statementsOf(async () => {
      sent = await sender.send(command(c, { recipient: first.recipient }), DEFAULT_PRICES);
    });
    expect(withoutPrepares(statements)).toEqual([
      expect.stringMatching(/^BEGIN; SET LOCAL plan_cache_mode = force_generic_plan; [\s\S]*; COMMIT$/),
      'ROLLBACK',
      expect.stringMatching(
        /^BEGIN; SET LOCAL plan_cache_mode = force_generic_plan; EXECUTE mp_open_\w+\(ARRAY\['otp:[^']+'\]::text\[\]\); EXECUTE mp_open_\w+\(ARRAY\[[^;]*\)$/,
      ),
      expect.stringMatching(/^EXECUTE mp_open_\w+\('\{[\s\S]*\); COMMIT$/),
    ]);
    expect(sent?.recipient).toBe(first.recipient);
    expect(await new LedgerRepository(db).findBalance(c.companyId)).toBe(parseMoney('1') - 200n);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM otps WHERE company_id = $1 AND recipient = $2`, [c.companyId, first.recipient]);
    expect(n).toBe(2);
  });

  it('reads the wrong codes after the recipient lock: one committed while the send waited for it blocks the send', async () => {
    const c = await company();
    const sent = await sender.send(command(c), DEFAULT_PRICES);
    for (let i = 0; i < 2; i++) await verifier.verify(c.companyId, { verificationId: sent.verificationId }, 'nope');
    const verifying = db.createQueryRunner();
    await verifying.connect();
    await verifying.startTransaction();
    try {
      await lockRecipient(verifying.manager, c.application.id, sent.recipient);
      const sending = sender.send(command(c, { recipient: sent.recipient }), DEFAULT_PRICES).then(
        () => 'sent',
        (error: Error) => error.constructor.name,
      );
      await eventually(
        async () =>
          (
            await db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event = 'advisory' AND query LIKE 'BEGIN; SET LOCAL plan_cache_mode%'`)
          )[0].n,
        (n: number) => n > 0,
        10_000,
      );
      await verifying.query(
        `INSERT INTO otp_attempts (otp_id, company_id, application_id, recipient, outcome, created_at) VALUES ($1, $2, $3, $4, 'invalid_code', $5)`,
        [sent.verificationId, c.companyId, c.application.id, sent.recipient, clock],
      );
      await verifying.commitTransaction();
      expect(await sending).toBe('OtpBlockedError');
    } finally {
      await verifying.release();
    }
    expect(await new LedgerRepository(db).findBalance(c.companyId)).toBe(parseMoney('1') - 100n);
  });

  it('charges send by send with the balance locked when the group does not fit it: the first charged, the second refused', async () => {
    const c = await company('0.015');
    let settled: PromiseSettledResult<unknown>[] = [];
    const statements = await statementsOf(async () => {
      settled = await Promise.allSettled([sender.send(command(c), DEFAULT_PRICES), sender.send(command(c), DEFAULT_PRICES)]);
    });
    expect(settled.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
    expect((settled[1] as PromiseRejectedResult).reason).toBeInstanceOf(OtpNotAffordableError);
    expect(withoutPrepares(statements)).toEqual([
      expect.stringMatching(/^BEGIN; SET LOCAL plan_cache_mode = force_generic_plan; EXECUTE mp_open_[\s\S]*; COMMIT$/),
      'ROLLBACK',
      'START TRANSACTION',
      expect.stringMatching(/^SELECT pg_advisory_xact_lock/),
      expect.stringMatching(/otp_attempts[\s\S]*FOR UPDATE\) b\) AS balances$/),
      expect.stringMatching(/^WITH m AS \(INSERT INTO messages[\s\S]*INSERT INTO otps[\s\S]*RETURNING id$/),
      expect.stringMatching(/^WITH moved AS \(\s*UPDATE balances/),
      'COMMIT',
    ]);
    expect(await new LedgerRepository(db).findBalance(c.companyId)).toBe(50n);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM otps WHERE company_id = $1`, [c.companyId]);
    expect(n).toBe(1);
  });

  it('refuses a send the balance does not cover, storing and charging nothing', async () => {
    const c = await company('0.005');
    await expect(sender.send(command(c), DEFAULT_PRICES)).rejects.toMatchObject({ constructor: OtpNotAffordableError, balance: 50n, cost: 100n });
    expect(await new LedgerRepository(db).findBalance(c.companyId)).toBe(50n);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM otps WHERE company_id = $1`, [c.companyId]);
    expect(n).toBe(0);
  });

  it('answers not found for an id that is not a verification id', async () => {
    const c = await company();
    expect(await verifier.verify(c.companyId, { verificationId: 'not-a-uuid' }, '123456')).toEqual({ outcome: 'not_found' });
  });

  describe('resend', () => {
    it('sends a new code under the same id: the old code is dead, the validity restarts, it is charged again', async () => {
      const c = await company();
      const sent = await sender.send(command(c, { templateText: 'Code {{otp}} for {{shop}}', customVars: { shop: 'Acme' } }), DEFAULT_PRICES);
      const oldCode = await codeOf(sent.verificationId);
      const firstJob = await jobOf(sent.verificationId);
      later(31_000);
      const resent = await resender.resend(c.companyId, { verificationId: sent.verificationId }, DEFAULT_PRICES);
      expect(resent).toMatchObject({ verificationId: sent.verificationId, cost: 100n, balance: parseMoney('1') - 200n });
      expect(resent.expiresAt.getTime()).toBe(clock.getTime() + 10 * 60_000);
      expect((await jobOf(sent.verificationId)).job_id).not.toBe(firstJob.job_id);
      const [row] = await db.query(`SELECT m.body FROM otps o JOIN messages m ON m.id = o.message_id WHERE o.id = $1`, [sent.verificationId]);
      const newText = openText(keys.text, row.body);
      expect(newText).toMatch(/^Code \d{6} for Acme$/);
      const newCode = await codeOf(sent.verificationId);
      if (newCode !== oldCode) {
        expect(await verifier.verify(c.companyId, { verificationId: sent.verificationId }, oldCode)).toMatchObject({ outcome: 'invalid_code' });
      }
      expect(await verifier.verify(c.companyId, { verificationId: sent.verificationId }, newCode)).toMatchObject({ outcome: 'verified' });
    });

    it("finds the OTP a resend would send, with its recipient, channel and sender, by id or by its newest pending one; none of another company's", async () => {
      const c = await company();
      const sent = await sender.send(command(c, { sender: 'Shop' }), DEFAULT_PRICES);
      const expected = { id: sent.verificationId, application_id: c.application.id, recipient: sent.recipient, channel: 'sms', sender: 'Shop' };
      expect(await resender.find(c.companyId, { verificationId: sent.verificationId })).toEqual(expected);
      expect(await resender.find(c.companyId, { applicationId: c.application.id, recipient: sent.recipient })).toEqual(expected);
      const other = await company();
      expect(await resender.find(other.companyId, { verificationId: sent.verificationId })).toBeNull();
      expect(await resender.find(c.companyId, { verificationId: 'not-a-uuid' })).toBeNull();
    });

    it('refuses within 30 s of the last send with the wait, and after 5 resends for good', async () => {
      const c = await company('5');
      const sent = await sender.send(command(c), DEFAULT_PRICES);
      later(10_000);
      await expect(resender.resend(c.companyId, { verificationId: sent.verificationId }, DEFAULT_PRICES)).rejects.toMatchObject({
        constructor: OtpResendRefusedError,
        reason: 'too-soon',
        retryAfterSeconds: 20,
      });
      for (let i = 0; i < 5; i++) {
        later(30_000);
        await resender.resend(c.companyId, { applicationId: c.application.id, recipient: sent.recipient }, DEFAULT_PRICES);
      }
      later(30_000);
      await expect(resender.resend(c.companyId, { verificationId: sent.verificationId }, DEFAULT_PRICES)).rejects.toMatchObject({ reason: 'too-many' });
      expect(await new LedgerRepository(db).findBalance(c.companyId)).toBe(parseMoney('5') - 600n);
    });

    it('never resets the wrong-code count, refuses while blocked, and refuses a verified OTP', async () => {
      const c = await company();
      const sent = await sender.send(command(c), DEFAULT_PRICES);
      for (let i = 0; i < 2; i++) await verifier.verify(c.companyId, { verificationId: sent.verificationId }, 'nope');
      later(31_000);
      await resender.resend(c.companyId, { verificationId: sent.verificationId }, DEFAULT_PRICES);
      expect(await verifier.verify(c.companyId, { verificationId: sent.verificationId }, 'nope')).toMatchObject({ attemptsRemaining: 0 });
      later(31_000);
      await expect(resender.resend(c.companyId, { verificationId: sent.verificationId }, DEFAULT_PRICES)).rejects.toBeInstanceOf(OtpBlockedError);

      const other = await sender.send(command(c), DEFAULT_PRICES);
      await verifier.verify(c.companyId, { verificationId: other.verificationId }, await codeOf(other.verificationId));
      later(31_000);
      await expect(resender.resend(c.companyId, { verificationId: other.verificationId }, DEFAULT_PRICES)).rejects.toBeInstanceOf(OtpNotResendableError);
    });
  });

  describe('lifecycle events', () => {
    it('commits an otp.verified webhook event with a successful verification, handed over after commit', async () => {
      const handed: string[] = [];
      const withEvents = new OtpVerifier(db, new OutboxRepository(db), keys.hash, {
        now,
        onEvents: async (outbox) => handed.push(...outbox.jobs.map((job) => job.jobName)),
      });
      const c = await company();
      const sent = await sender.send(command(c), DEFAULT_PRICES);
      await withEvents.verify(c.companyId, { verificationId: sent.verificationId }, 'wrong');
      expect(handed).toEqual([]);
      await withEvents.verify(c.companyId, { verificationId: sent.verificationId }, await codeOf(sent.verificationId));
      expect(handed).toEqual(['otp.event']);
      const [job] = await db.query(`SELECT data FROM outbox WHERE job_id LIKE $1`, [`otp-evt-${sent.verificationId}-otp.verified-%`]);
      expect(job.data).toMatchObject({ otpId: sent.verificationId, type: 'otp.verified' });
    });

    it('logs a delivery once however often it is reported, and expires due OTPs with their event', async () => {
      const c = await company();
      const sent = await sender.send(command(c, { expiryMinutes: 2 }), DEFAULT_PRICES);
      const [{ message_id: messageId }] = await db.query(`SELECT message_id FROM otps WHERE id = $1`, [sent.verificationId]);
      expect((await lifecycle.delivered(messageId, clock)).outbox.jobs).toHaveLength(1);
      expect((await lifecycle.delivered(messageId, clock)).outbox.jobs).toHaveLength(0);
      later(2 * 60_000);
      const swept = await lifecycle.expireDue(clock);
      expect(swept.expired).toBeGreaterThanOrEqual(1);
      expect(swept.outbox.jobs.map((job) => (job.data as { otpId: string }).otpId)).toContain(sent.verificationId);
      const events = await db.query(`SELECT event FROM otp_events WHERE otp_id = $1 ORDER BY id`, [sent.verificationId]);
      expect(events.map((e: { event: string }) => e.event)).toEqual(['sent', 'delivered', 'expired']);
      expect((await lifecycle.expireDue(clock)).outbox.jobs.map((job) => (job.data as { otpId: string }).otpId)).not.toContain(sent.verificationId);
    });
  });

  it('writes sends that arrive together in one transaction: blocked and unaffordable ones refused alone, the rest charged in order', async () => {
    const c = await company('0.025');
    const blockedNumber = newNumber();
    const first = await sender.send(command(c, { recipient: blockedNumber }), DEFAULT_PRICES);
    for (let i = 0; i < 3; i++) await verifier.verify(c.companyId, { verificationId: first.verificationId }, 'nope');
    const outcomes = await Promise.allSettled([
      sender.send(command(c), DEFAULT_PRICES),
      sender.send(command(c, { recipient: blockedNumber }), DEFAULT_PRICES),
      sender.send(command(c), DEFAULT_PRICES),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(OtpBlockedError);
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ constructor: OtpNotAffordableError, balance: 50n, cost: 100n });
    expect(await new LedgerRepository(db).findBalance(c.companyId)).toBe(50n);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM otps WHERE company_id = $1`, [c.companyId]);
    expect(n).toBe(2);
  });
});
