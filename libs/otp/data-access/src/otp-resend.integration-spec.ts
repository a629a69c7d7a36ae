import { ACCOUNTS_ENTITIES } from '@mp/accounts';
import { LedgerRepository } from '@mp/billing';
import { DEFAULT_PRICES, parseMoney } from '@mp/billing-domain';
import { openText } from '@mp/otp-domain';
import { openTestDataSource } from '@mp/testing';
import { OtpBlockedError, OtpNotResendableError, OtpResendRefusedError } from './otp-errors';
import { OtpTestbed } from './otp-testbed';

describe('OTP resend (PostgreSQL)', () => {
  let t: OtpTestbed;

  beforeAll(async () => {
    t = new OtpTestbed(await openTestDataSource('otp-resend-test', ACCOUNTS_ENTITIES), 612370000);
  });
  afterAll(() => t.db.destroy());

  it('sends a new code under the same id: the old code is dead, the validity restarts, it is charged again', async () => {
    const { db, sender, verifier, resender, company, command, codeOf, jobOf, later, keys, now } = t;
    const c = await company();
    const sent = await sender.send(command(c, { templateText: 'Code {{otp}} for {{shop}}', customVars: { shop: 'Acme' } }), DEFAULT_PRICES);
    const oldCode = await codeOf(sent.verificationId);
    const firstJob = await jobOf(sent.verificationId);
    later(31_000);
    const resent = await resender.resend(c.companyId, { verificationId: sent.verificationId }, DEFAULT_PRICES);
    expect(resent).toMatchObject({ verificationId: sent.verificationId, cost: 100n, balance: parseMoney('1') - 200n });
    expect(resent.expiresAt.getTime()).toBe(now().getTime() + 10 * 60_000);
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
    const { sender, resender, company, command } = t;
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
    const { db, sender, resender, company, command, later } = t;
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
    const { sender, verifier, resender, company, command, codeOf, later } = t;
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
