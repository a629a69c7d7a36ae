import { ACCOUNTS_ENTITIES } from '@mp/accounts';
import { DEFAULT_PRICES } from '@mp/billing-domain';
import { OTP_BLOCK } from '@mp/otp-domain';
import { OutboxRepository } from '@mp/queue-runtime';
import { openTestDataSource } from '@mp/testing';
import { OtpBlockedError } from './otp-errors';
import { OtpTestbed } from './otp-testbed';
import { OtpVerifier } from './otp-verifier';

describe('OTP verify: codes, expiry, blocking and lifecycle events (PostgreSQL)', () => {
  let t: OtpTestbed;

  beforeAll(async () => {
    t = new OtpTestbed(await openTestDataSource('otp-verification-test', ACCOUNTS_ENTITIES), 612360000);
  });
  afterAll(() => t.db.destroy());

  it('verifies the right code once; of many concurrent correct verifications exactly one succeeds', async () => {
    const { sender, verifier, company, command, codeOf } = t;
    const c = await company();
    const sent = await sender.send(command(c), DEFAULT_PRICES);
    const code = await codeOf(sent.verificationId);
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => verifier.verify(c.companyId, { verificationId: sent.verificationId }, code)));
    expect(outcomes.filter((o) => o.outcome === 'verified')).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome === 'already_verified')).toHaveLength(9);
  });

  it('finds the newest pending OTP of a recipient by application and number', async () => {
    const { sender, verifier, company, command, codeOf, later } = t;
    const c = await company();
    const first = await sender.send(command(c), DEFAULT_PRICES);
    later(1_000);
    const second = await sender.send(command(c, { recipient: first.recipient }), DEFAULT_PRICES);
    const outcome = await verifier.verify(c.companyId, { applicationId: c.application.id, recipient: first.recipient }, await codeOf(second.verificationId));
    expect(outcome).toMatchObject({ outcome: 'verified', verificationId: second.verificationId });
  });

  it('answers expired after the validity, on the injected clock', async () => {
    const { db, sender, verifier, company, command, codeOf, later } = t;
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
    const { sender, verifier, company, command, codeOf, later } = t;
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
    const { sender, verifier, company, command, codeOf, newNumber } = t;
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

  it('answers not found for an id that is not a verification id', async () => {
    const { verifier, company } = t;
    const c = await company();
    expect(await verifier.verify(c.companyId, { verificationId: 'not-a-uuid' }, '123456')).toEqual({ outcome: 'not_found' });
  });

  describe('lifecycle events', () => {
    it('commits an otp.verified webhook event with a successful verification, handed over after commit', async () => {
      const { db, sender, company, command, codeOf, keys, now } = t;
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
      const { db, sender, lifecycle, company, command, later, now } = t;
      const c = await company();
      const sent = await sender.send(command(c, { expiryMinutes: 2 }), DEFAULT_PRICES);
      const [{ message_id: messageId }] = await db.query(`SELECT message_id FROM otps WHERE id = $1`, [sent.verificationId]);
      expect((await lifecycle.delivered(messageId, now())).outbox.jobs).toHaveLength(1);
      expect((await lifecycle.delivered(messageId, now())).outbox.jobs).toHaveLength(0);
      later(2 * 60_000);
      const swept = await lifecycle.expireDue(now());
      expect(swept.expired).toBeGreaterThanOrEqual(1);
      expect(swept.outbox.jobs.map((job) => (job.data as { otpId: string }).otpId)).toContain(sent.verificationId);
      const events = await db.query(`SELECT event FROM otp_events WHERE otp_id = $1 ORDER BY id`, [sent.verificationId]);
      expect(events.map((e: { event: string }) => e.event)).toEqual(['sent', 'delivered', 'expired']);
      expect((await lifecycle.expireDue(now())).outbox.jobs.map((job) => (job.data as { otpId: string }).otpId)).not.toContain(sent.verificationId);
    });
  });
});
