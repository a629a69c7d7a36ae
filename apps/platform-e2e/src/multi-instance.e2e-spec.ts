import { parseMoney } from '@mp/billing-domain';
import { admin } from '@mp/testing';
import { Client } from 'pg';
import { ApiClient, createCompany, type ApiAnswer, type Company } from './support/api-client';
import { startFleet, type Fleet } from './support/app-fleet';
import { FINAL_STATES, ledgerTotals, sleep, wrongCopies } from './support/dispatcher-fault';

/** The OTP sends a company may make in a rolling minute unless an operator set another limit. */
const OTP_LIMIT_PER_MINUTE = 20;
const OTP_SENDS = 30;
/** Sends asked for, concurrently over both gateways, by a company whose balance covers fewer. */
const OVERDRAFT_SENDS = 80;
const OVERDRAFT_BALANCE = '0.5';
const IDEMPOTENCY_KEYS = 10;
const CAMPAIGN = 2_000;
const CAMPAIGN_TEXT = 'Two of everything';
const SETTLE_TIMEOUT_MS = 240_000;
/** Each dispatcher's CAMPAIGN_PACE_WHILE_OTHERS_FLOW: campaign parts a second while single sends flow. */
const PACE = 100;
const DISPATCHERS = 2;

const otpNumber = (i: number) => `+33631${String(i).padStart(6, '0')}`;
const overdraftNumber = (i: number) => `+33632${String(i).padStart(6, '0')}`;
const idempotentNumber = (i: number) => `+33633${String(i).padStart(6, '0')}`;
const campaignNumber = (i: number) => `+33634${String(i).padStart(6, '0')}`;

/** Every request of `requests` started at once, alternating between the gateways. */
function onBothGateways<T>(fleet: Fleet, company: Company, count: number, request: (api: ApiClient, i: number) => Promise<T>): Promise<T[]> {
  const [a, b] = fleet.gatewayUrls();
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      request(
        new ApiClient(
          () => (i % 2 === 0 ? a : b),
          () => company,
        ),
        i,
      ),
    ),
  );
}

const statuses = (answers: ApiAnswer[]) => answers.reduce<Record<number, number>>((n, a) => ({ ...n, [a.status]: (n[a.status] ?? 0) + 1 }), {});

/**
 * Two gateways, two sms-dispatchers and two of every other worker on one PostgreSQL and one
 * Redis keep every rule one of each keeps: the OTP rate limit, balances, idempotency, and exactly
 * one submit_sm per part. (The campaign pace is per dispatcher: with two, a campaign's pace is
 * their sum, as docs/architecture.md says; decision 0044.)
 */
describe('two of every app against one PostgreSQL and one Redis', () => {
  let fleet: Fleet;
  let db: Client;

  beforeAll(async () => {
    await admin(['db:migrate']);
    db = new Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
    fleet = await startFleet({
      name: 'multi',
      counts: { gateway: 2, 'sms-dispatcher': DISPATCHERS, otp: 2, billing: 2, 'webhook-notifier': 2 },
      env: { CAMPAIGN_PACE_WHILE_OTHERS_FLOW: String(PACE) },
    });
  }, 600_000);

  afterAll(async () => {
    console.log(JSON.stringify({ simulator: await fleet?.simulator.stats().catch(String) }));
    await fleet?.stop();
    await db?.end();
  }, 120_000);

  it('runs two of each app', () => {
    expect(Object.fromEntries(Object.entries(fleet.running).map(([app, processes]) => [app, processes.length]))).toEqual({
      gateway: 2,
      'sms-dispatcher': 2,
      otp: 2,
      billing: 2,
      'webhook-notifier': 2,
    });
  });

  it("holds a company's OTP limit per minute across both gateways", async () => {
    const company = await createCompany('Fleet OTP', '5');
    const answers = await onBothGateways(fleet, company, OTP_SENDS, (api, i) => api.post('/otp/send', { appid: company.appid, recipient: otpNumber(i) }));
    expect(statuses(answers)).toEqual({ 200: OTP_LIMIT_PER_MINUTE, 429: OTP_SENDS - OTP_LIMIT_PER_MINUTE });
  });

  it('never overdraws a balance sent from on both gateways at once: balance = start − charges, exactly', async () => {
    const company = await createCompany('Fleet balance', OVERDRAFT_BALANCE);
    const answers = await onBothGateways(fleet, company, OVERDRAFT_SENDS, (api, i) =>
      api.post<{ data: { cost: number } }>('/sms/send', { to: overdraftNumber(i), message: 'Overdraft?', from: 'Fleet' }),
    );
    const accepted = answers.filter((a) => a.status === 200);
    expect(accepted.length).toBeGreaterThan(0);
    const price = parseMoney(String(accepted[0].body.data.cost));
    const affordable = Number(parseMoney(OVERDRAFT_BALANCE) / price);
    expect(statuses(answers as ApiAnswer[])).toEqual({ 200: affordable, 402: OVERDRAFT_SENDS - affordable });
    const ledger = await ledgerTotals(db, company.company_id);
    expect(ledger.charge_entries).toBe(String(affordable));
    expect(parseMoney(ledger.charges)).toBe(BigInt(affordable) * price);
    expect(parseMoney(ledger.balance)).toBe(parseMoney(OVERDRAFT_BALANCE) - BigInt(affordable) * price);
    expect(parseMoney(ledger.balance) >= 0n).toBe(true);
    expect(ledger.last_balance_after).toBe(ledger.balance);
  });

  it('charges once for one Idempotency-Key sent to both gateways at the same moment', async () => {
    const company = await createCompany('Fleet idempotency', '5');
    const [a, b] = fleet.gatewayUrls().map(
      (url) =>
        new ApiClient(
          () => url,
          () => company,
        ),
    );
    const outcomes: string[] = [];
    for (let i = 0; i < IDEMPOTENCY_KEYS; i++) {
      const body = { to: idempotentNumber(i), message: `Once ${i}`, from: 'Fleet' };
      const headers = { 'idempotency-key': `fleet-order-${i}` };
      const [first, second] = await Promise.all([a.post('/sms/send', body, { headers }), b.post('/sms/send', body, { headers })]);
      const ids = [first, second].filter((x) => x.status === 200).map((x) => (x.body['data'] as { message_id: string }).message_id);
      // Both 200 with one message (one of them a replay), or one 200 and a 409 (the other still in progress).
      const sorted = [first.status, second.status].sort().join('+');
      outcomes.push(sorted === '200+200' && ids[0] === ids[1] ? 'one message' : sorted === '200+409' ? 'one message, one 409' : `${sorted} ${ids.join(',')}`);
    }
    expect(outcomes.filter((o) => !o.startsWith('one message'))).toEqual([]);
    const ledger = await ledgerTotals(db, company.company_id);
    expect(ledger.charge_entries).toBe(String(IDEMPOTENCY_KEYS));
    const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM messages WHERE company_id = $1`, [company.company_id]);
    expect(Number(rows[0].n)).toBe(IDEMPOTENCY_KEYS);
  });

  it('submits each part of a campaign exactly once across both dispatchers', async () => {
    const company = await createCompany('Fleet campaign', '100');
    const before = await fleet.simulator.stats();
    const gateways = fleet.gatewayUrls();
    const api = new ApiClient(
      () => gateways[0],
      () => company,
    );
    const campaign = await api.post('/sms/send-bulk', {
      recipients: Array.from({ length: CAMPAIGN }, (_, i) => campaignNumber(i)),
      message: CAMPAIGN_TEXT,
      from: 'Fleet',
    });
    expect(campaign.status).toBe(200);
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    const final = async () =>
      Number(
        (
          await db.query<{ n: string }>(`SELECT count(*) AS n FROM messages WHERE company_id = $1 AND status = ANY($2::text[])`, [
            company.company_id,
            FINAL_STATES,
          ])
        ).rows[0].n,
      );
    while (Date.now() < deadline && (await final()) < CAMPAIGN) await sleep(500);
    await sleep(1_000);
    const { rows } = await db.query<{ status: string; n: string }>(`SELECT status, count(*) AS n FROM messages WHERE company_id = $1 GROUP BY status`, [
      company.company_id,
    ]);
    expect(Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]))).toEqual({ delivered: CAMPAIGN });
    const ours = new Set(Array.from({ length: CAMPAIGN }, (_, i) => campaignNumber(i)));
    const received = (await fleet.simulator.handsets()).filter((m) => ours.has(m.to));
    const sent = Array.from({ length: CAMPAIGN }, (_, i) => ({ to: campaignNumber(i), text: CAMPAIGN_TEXT }));
    expect(wrongCopies(received, sent)).toEqual([]);
    const after = await fleet.simulator.stats();
    expect({ submits: after.submits - before.submits, duplicates: after.duplicates_dropped - before.duplicates_dropped }).toEqual({
      submits: CAMPAIGN,
      duplicates: 0,
    });
    // Both dispatchers bound (two binds each by default), and the campaign came in several batches for them to share.
    const { rows: batches } = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM campaign_batches b JOIN campaigns c ON c.id = b.campaign_id WHERE c.company_id = $1`,
      [company.company_id],
    );
    expect(Number(batches[0].n)).toBeGreaterThan(1);
    expect(after.binds).toBeGreaterThanOrEqual(4);
  });
});
