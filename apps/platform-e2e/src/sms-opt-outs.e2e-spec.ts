import { admin, startStack, type RunningStack } from '@mp/testing';
import { ApiClient, createCompany, type Company } from './support/api-client';

type Data = { data: Record<string, unknown> };
const OPTED_OUT = 'Recipient has opted out';

/** /sms/opt-outs through the real gateway, and the suppression every send path honours: refused or listed as failed, never charged. */
describe('Opt-outs over HTTP', () => {
  let stack: RunningStack;
  let acme: Company;
  let other: Company;
  let nextNumber = 750_000_001;
  const newNumber = () => `+33${nextNumber++}`;

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => acme,
  );
  const balanceOf = async (company: Company) => (await api.as(company).get<{ data: { balance: number } }>('/balance')).body.data.balance;
  const optOut = (phone: string, number?: string) => api.post<Data>('/sms/opt-outs', { phone, ...(number ? { number } : {}) });

  beforeAll(async () => {
    await admin(['db:migrate']);
    acme = await createCompany('Acme Opt-outs', '10');
    other = await createCompany('Other Opt-outs', '10');
    stack = await startStack({ apps: ['gateway'] });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses the next send to a number added through the API with 403, charging nothing; DELETE lifts it', async () => {
    const to = newNumber();
    const added = await optOut(to);
    expect(added.status).toBe(200);
    expect(added.body.data).toEqual({ received: 1, added: 1, already_listed: 0, failed_numbers: [] });
    const before = await balanceOf(acme);
    const refused = await api.post('/sms/send', { to, message: 'Hello' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: OPTED_OUT });
    expect(await balanceOf(acme)).toBe(before);

    const lifted = await api.delete<Data>(`/sms/opt-outs/${encodeURIComponent(to)}`);
    expect(lifted.status).toBe(200);
    expect(lifted.body.data).toEqual({ phone: to, number: null, removed: 1 });
    const sent = await api.post<Data>('/sms/send', { to, message: 'Hello' });
    expect(sent.status).toBe(200);
    expect(await balanceOf(acme)).toBeCloseTo(before - (sent.body.data['cost'] as number), 4);
    expect((await api.delete(`/sms/opt-outs/${encodeURIComponent(to)}`)).status).toBe(404);
  });

  it('applies an entry for one number to sends from that number only', async () => {
    const to = newNumber();
    await optOut(to, '+447400900123');
    expect((await api.post('/sms/send', { to, message: 'Hi', from: '+447400900123' })).status).toBe(403);
    expect((await api.post('/sms/send', { to, message: 'Hi', from: 'Acme' })).status).toBe(200);
    const scoped = await api.delete<Data>(`/sms/opt-outs/${encodeURIComponent(to)}?number=${encodeURIComponent('+447400900123')}`);
    expect(scoped.body.data).toEqual({ phone: to, number: '+447400900123', removed: 1 });
    expect((await api.post('/sms/send', { to, message: 'Hi', from: '+447400900123' })).status).toBe(200);
  });

  it('lists an opted-out recipient of a multi-recipient send as failed, charging one less', async () => {
    const [a, b, c] = [newNumber(), newNumber(), newNumber()];
    await optOut(b);
    const before = await balanceOf(acme);
    const sent = await api.post<Data>('/sms/send', { to: `${a},${b},${c}`, message: 'Hello all' });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ total_recipients: 3, successful: 2, failed: 1 });
    expect(sent.body.data['messages']).toEqual(expect.arrayContaining([{ message_id: null, to: b, status: 'failed', cost: 0, error: OPTED_OUT }]));
    const perMessage = (sent.body.data['messages'] as { cost: number }[])[0].cost;
    expect(sent.body.data['total_cost']).toBeCloseTo(2 * perMessage, 4);
    expect(await balanceOf(acme)).toBeCloseTo(before - 2 * perMessage, 4);
  });

  it('lists an opted-out recipient of a campaign as failed, charging one recipient less', async () => {
    const [a, b, c] = [newNumber(), newNumber(), newNumber()];
    await optOut(b);
    const before = await balanceOf(acme);
    const accepted = await api.post<Data>('/sms/send-bulk', { recipients: [a, b, c], message: 'Campaign', from: 'Shop' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ total_recipients: 3, successful: 2, failed: 1, failed_numbers: [{ number: b, error: OPTED_OUT }] });
    const single = await api.post<Data>('/sms/estimate', { to: a, message: 'Campaign' });
    const perRecipient = single.body.data['total_cost'];
    expect(accepted.body.data['total_cost']).toBeCloseTo(2 * (perRecipient as number), 4);
    expect(await balanceOf(acme)).toBeCloseTo(before - (accepted.body.data['total_cost'] as number), 4);
  });

  it('refuses an OTP to an opted-out number, and sends it once the company exempts OTPs', async () => {
    const to = newNumber();
    await optOut(to);
    const before = await balanceOf(acme);
    const refused = await api.post('/otp/send', { appid: acme.appid, phone: to });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: OPTED_OUT });
    expect(await balanceOf(acme)).toBe(before);
    await admin(['company:otp-opt-outs', '--company', acme.company_id, '--ignore', 'true']);
    try {
      const sent = await api.post('/otp/send', { appid: acme.appid, phone: to });
      expect(sent.status).toBe(200);
    } finally {
      await admin(['company:otp-opt-outs', '--company', acme.company_id, '--ignore', 'false']);
    }
  });

  it('imports many entries with their source and time, listing bad ones; pages them with a cursor', async () => {
    const phones = [newNumber(), newNumber(), newNumber()];
    const at = '2026-01-15T09:30:00.000Z';
    const imported = await api.post<Data>('/sms/opt-outs', {
      opt_outs: [
        ...phones.map((phone) => ({ phone, source: 'import', created_at: at })),
        { phone: phones[0], source: 'import', created_at: at },
        { phone: 'not-a-number' },
      ],
    });
    expect(imported.status).toBe(200);
    expect(imported.body.data).toEqual({
      received: 5,
      added: 3,
      already_listed: 1,
      failed_numbers: [{ number: 'not-a-number', error: 'Invalid phone number format' }],
    });
    const twoPages = async () => {
      const first = await api.get<Data>('/sms/opt-outs?source=import&limit=2');
      expect(first.status).toBe(200);
      const second = await api.get<Data>(`/sms/opt-outs?source=import&limit=2&cursor=${first.body.data['next_cursor'] as string}`);
      expect(second.status).toBe(200);
      return [...(first.body.data['items'] as { phone: string }[]), ...(second.body.data['items'] as { phone: string }[])];
    };
    const items = await twoPages();
    expect(items.map((item) => item.phone).sort()).toEqual([...phones].sort());
    expect(items[0]).toEqual({ phone: expect.any(String), number: null, source: 'import', created_at: at });
    expect((await api.get('/sms/opt-outs?cursor=bogus')).status).toBe(400);
    expect((await api.post('/sms/opt-outs', { opt_outs: [] })).status).toBe(400);
  });

  it("keeps a company's opt-outs to itself: another cannot read or lift them, and its sends are not suppressed", async () => {
    const to = newNumber();
    await optOut(to);
    const theirs = await api.as(other).get<Data>(`/sms/opt-outs?phone=${encodeURIComponent(to)}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual({ items: [], next_cursor: null });
    expect((await api.as(other).delete(`/sms/opt-outs/${encodeURIComponent(to)}`)).status).toBe(404);
    expect((await api.as(other).post('/sms/send', { to, message: 'Hi' })).status).toBe(200);
    const ours = await api.get<Data>(`/sms/opt-outs?phone=${encodeURIComponent(to)}`);
    expect(ours.body.data['items']).toEqual([{ phone: to, number: null, source: 'api', created_at: expect.any(String) }]);
  });
});
