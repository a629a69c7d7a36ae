import { admin, startStack, type RunningStack } from '@mp/testing';
import { Client } from 'pg';
import { ApiClient, createCompany, type Company } from './support/api-client';

type Data = { data: Record<string, unknown> };
const OPTED_OUT = 'Recipient has opted out';

/**
 * The suppression list on the paths beside the sends: POST /otp/resend refuses an OTP whose
 * number opted out since it was sent, as POST /otp/send does, and POST /sms/estimate answers what
 * the send would: the number listed as failed, left out of the cost, or the same 403.
 */
describe('Opt-outs on OTP resends and SMS estimates', () => {
  let stack: RunningStack;
  let db: Client;
  let acme: Company;
  let nextNumber = 760_000_001;
  const newNumber = () => `+33${nextNumber++}`;

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => acme,
  );
  const balance = async () => (await api.get<{ data: { balance: number } }>('/balance')).body.data.balance;
  const optOut = async (phone: string, number?: string) =>
    expect((await api.post<Data>('/sms/opt-outs', { phone, ...(number ? { number } : {}) })).status).toBe(200);
  /** Past the 30 s a resend must wait, so that only the suppression list can refuse it. */
  const resendable = (verificationId: unknown) =>
    db.query(`UPDATE otps SET last_sent_at = last_sent_at - interval '31 seconds' WHERE id = $1`, [verificationId]);
  const resendsOf = async (verificationId: unknown) =>
    (await db.query<{ resends: number }>(`SELECT resends FROM otps WHERE id = $1`, [verificationId])).rows[0].resends;

  beforeAll(async () => {
    await admin(['db:migrate']);
    acme = await createCompany('Acme Opt-outs Resend', '10');
    stack = await startStack({ apps: ['gateway'] });
    db = new Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  describe('POST /otp/resend', () => {
    it('refuses an OTP whose number opted out after it was sent with 403, charging and resending nothing, by id or by number', async () => {
      const to = newNumber();
      const sent = await api.post('/otp/send', { appid: acme.appid, phone: to });
      expect(sent.status).toBe(200);
      await optOut(to);
      await resendable(sent.body['verification_id']);
      const before = await balance();
      const byId = await api.post('/otp/resend', { verification_id: sent.body['verification_id'] });
      expect(byId).toEqual({ status: 403, body: { error: OPTED_OUT } });
      const byNumber = await api.post('/otp/resend', { appid: acme.appid, phone: to });
      expect(byNumber).toEqual({ status: 403, body: { error: OPTED_OUT } });
      expect(await balance()).toBe(before);
      expect(await resendsOf(sent.body['verification_id'])).toBe(0);
    });

    it("checks the OTP's own sender: an entry for another of the company's numbers does not stop it", async () => {
      const to = newNumber();
      await optOut(to, '+447400900123');
      const fromThatNumber = await api.post('/otp/send', { appid: acme.appid, phone: to, from: '+447400900124' });
      expect(fromThatNumber.status).toBe(200);
      await resendable(fromThatNumber.body['verification_id']);
      const resent = await api.post('/otp/resend', { verification_id: fromThatNumber.body['verification_id'] });
      expect(resent.status).toBe(200);
      await optOut(to, '+447400900124');
      await resendable(fromThatNumber.body['verification_id']);
      expect(await api.post('/otp/resend', { verification_id: fromThatNumber.body['verification_id'] })).toEqual({ status: 403, body: { error: OPTED_OUT } });
    });

    it('resends it, charged, once the company exempts OTPs from its opt-outs', async () => {
      const to = newNumber();
      const sent = await api.post('/otp/send', { appid: acme.appid, phone: to });
      expect(sent.status).toBe(200);
      await optOut(to);
      await resendable(sent.body['verification_id']);
      expect((await api.post('/otp/resend', { verification_id: sent.body['verification_id'] })).status).toBe(403);
      await admin(['company:otp-opt-outs', '--company', acme.company_id, '--ignore', 'true']);
      try {
        const before = await balance();
        const resent = await api.post('/otp/resend', { verification_id: sent.body['verification_id'] });
        expect(resent.status).toBe(200);
        expect(resent.body).toMatchObject({ status: 'success', message: 'OTP resent', verification_id: sent.body['verification_id'], recipient: to });
        expect(await balance()).toBeCloseTo(before - (resent.body['cost'] as number), 4);
        expect(await resendsOf(sent.body['verification_id'])).toBe(1);
      } finally {
        await admin(['company:otp-opt-outs', '--company', acme.company_id, '--ignore', 'false']);
      }
    });
  });

  describe('POST /sms/estimate', () => {
    it('lists an opted-out recipient as failed and leaves it out of the cost, as the send then does', async () => {
      const [a, b, c] = [newNumber(), newNumber(), newNumber()];
      await optOut(b);
      const before = await balance();
      const estimate = await api.post<Data>('/sms/estimate', { to: `${a},${b},${c},12`, message: 'Hello all' });
      expect(estimate.status).toBe(200);
      expect(estimate.body.data['recipients']).toEqual([
        { to: a, parts: 1, price_per_part: expect.any(Number), cost: expect.any(Number) },
        { to: c, parts: 1, price_per_part: expect.any(Number), cost: expect.any(Number) },
      ]);
      expect(estimate.body.data['failed_numbers']).toEqual([
        { number: '12', error: 'Invalid phone number format' },
        { number: b, error: OPTED_OUT },
      ]);
      const perRecipient = (estimate.body.data['recipients'] as { cost: number }[])[0].cost;
      expect(estimate.body.data['total_cost']).toBeCloseTo(2 * perRecipient, 4);
      expect(await balance()).toBe(before);

      const sent = await api.post<Data>('/sms/send', { to: `${a},${b},${c},12`, message: 'Hello all' });
      expect(sent.status).toBe(200);
      expect(sent.body.data['total_cost']).toBe(estimate.body.data['total_cost']);
      const failed = (sent.body.data['messages'] as { to: string; status: string; error?: string }[]).filter((m) => m.status === 'failed');
      expect(failed.map(({ to, error }) => ({ number: to, error }))).toEqual(estimate.body.data['failed_numbers']);
    });

    it('answers 403 as the send does when every valid recipient opted out', async () => {
      const [a, b] = [newNumber(), newNumber()];
      await optOut(a);
      await optOut(b);
      const single = await api.post('/sms/estimate', { to: a, message: 'Hi' });
      expect(single).toEqual({ status: 403, body: { error: OPTED_OUT } });
      expect(await api.post('/sms/send', { to: a, message: 'Hi' })).toEqual(single);
      const several = await api.post('/sms/estimate', { to: `${a};${b}`, message: 'Hi' });
      expect(several).toEqual({
        status: 403,
        body: {
          error: OPTED_OUT,
          failed_numbers: [
            { number: a, error: OPTED_OUT },
            { number: b, error: OPTED_OUT },
          ],
        },
      });
      expect(await api.post('/sms/send', { to: `${a};${b}`, message: 'Hi' })).toEqual(several);
    });

    it("applies an entry for one of the company's numbers to estimates from that number only", async () => {
      const to = newNumber();
      await optOut(to, '+447400900123');
      expect((await api.post('/sms/estimate', { to, message: 'Hi', from: '+447400900123' })).status).toBe(403);
      const other = await api.post<Data>('/sms/estimate', { to, message: 'Hi', from: 'Acme' });
      expect(other.status).toBe(200);
      expect(other.body.data['failed_numbers']).toEqual([]);
      expect(other.body.data['recipients']).toEqual([expect.objectContaining({ to })]);
    });
  });
});
