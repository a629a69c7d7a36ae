import { ACCOUNTS_ENTITIES } from '@mp/accounts';
import { LedgerRepository } from '@mp/billing';
import { DEFAULT_PRICES, parseMoney } from '@mp/billing-domain';
import { openText } from '@mp/otp-domain';
import { eventually, openTestDataSource, statementsOf } from '@mp/testing';
import { OtpBlockedError, OtpNotAffordableError } from './otp-errors';
import { lockRecipient } from './otp-recipient-lock';
import type { PendingOtp } from './otp-sender';
import { OtpTestbed } from './otp-testbed';

describe('OTP send: charge, sealing, queueing and the write path (PostgreSQL)', () => {
  let t: OtpTestbed;

  beforeAll(async () => {
    t = new OtpTestbed(await openTestDataSource('otp-sending-test', ACCOUNTS_ENTITIES), 612340000);
  });
  afterAll(() => t.db.destroy());

  /** The statements sent, without those that prepare a statement on a connection for the first time. */
  const withoutPrepares = (statements: string[]) => statements.filter((text) => !text.startsWith('PREPARE '));

  it('charges the send, stores only the hash, seals the text, and queues it on the OTP queue', async () => {
    const { db, sender, company, command, codeOf, jobOf, now } = t;
    const c = await company();
    const sent = await sender.send(command(c, { code: '90817263' }), DEFAULT_PRICES);
    expect(sent).toMatchObject({ channel: 'sms', cost: 100n, balance: parseMoney('1') - 100n });
    expect(sent.expiresAt.getTime()).toBe(now().getTime() + 10 * 60_000);
    const job = await jobOf(sent.verificationId);
    expect(job).toMatchObject({ queue: 'otp.dispatch', job_name: 'sms.submit' });
    const dump = JSON.stringify(await db.query(`SELECT o.*, m.body FROM otps o JOIN messages m ON m.id = o.message_id WHERE o.id = $1`, [sent.verificationId]));
    expect(dump).not.toContain('90817263');
    expect(JSON.stringify(await db.query(`SELECT * FROM outbox WHERE job_id = $1`, [job.job_id]))).not.toContain('90817263');
    expect(await codeOf(sent.verificationId)).toBe('90817263');
  });

  it('shows a send, before it commits, to beforeCommit (an Idempotency-Key records its answer then): its charge reference is the one the ledger holds after', async () => {
    const { db, sender, company, command } = t;
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
    const { db, sender, company, command, jobOf, keys } = t;
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

  it('writes a send in one round trip: BEGIN, the recipient lock, the check for recent wrong codes, the inserts with the charge, COMMIT', async () => {
    const { db, sender, company, command } = t;
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
    const { db, sender, verifier, company, command } = t;
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
    const { db, sender, verifier, company, command, now } = t;
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
        [sent.verificationId, c.companyId, c.application.id, sent.recipient, now()],
      );
      await verifying.commitTransaction();
      expect(await sending).toBe('OtpBlockedError');
    } finally {
      await verifying.release();
    }
    expect(await new LedgerRepository(db).findBalance(c.companyId)).toBe(parseMoney('1') - 100n);
  });

  it('charges send by send with the balance locked when the group does not fit it: the first charged, the second refused', async () => {
    const { db, sender, company, command } = t;
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
    const { db, sender, company, command } = t;
    const c = await company('0.005');
    await expect(sender.send(command(c), DEFAULT_PRICES)).rejects.toMatchObject({ constructor: OtpNotAffordableError, balance: 50n, cost: 100n });
    expect(await new LedgerRepository(db).findBalance(c.companyId)).toBe(50n);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM otps WHERE company_id = $1`, [c.companyId]);
    expect(n).toBe(0);
  });

  it('writes sends that arrive together in one transaction: blocked and unaffordable ones refused alone, the rest charged in order', async () => {
    const { db, sender, verifier, company, command, newNumber } = t;
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
