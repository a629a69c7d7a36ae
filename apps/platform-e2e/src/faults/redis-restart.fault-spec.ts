import { randomUUID } from 'node:crypto';
import { parseMoney } from '@mp/billing-domain';
import type { Client } from 'pg';
import { ApiClient, type Company } from '../support/api-client';
import { wrongCopies, type SimulatorStats } from '../support/dispatcher-fault';
import { handsetCopies, moneyOf, printFigures, waitUntilSettled, type Copies, type Money, type Settled } from './support/fault-checks';
import { startFaultPlatform, type FaultPlatform } from './support/fault-platform';
import { AttemptLog, sleep, waitFor, type Accepted } from './support/load';
import { answersOf, firstSuccess, startProbe } from './support/outage-probe';

const RECIPIENTS = 3_000;
const BATCH_SIZE = 500;
const TEXT = 'Spring sale: 20% off';
const KILL_AT_ACCEPTED = 500;
/** How long Redis stays down. */
const DOWN_MS = 6_000;
const SETTLE_TIMEOUT_MS = 300_000;

const recipientAt = (i: number) => `+33614${String(i).padStart(6, '0')}`;
const probeNumberAt = (i: number) => `+33615${String(i).padStart(6, '0')}`;
const otpNumberAt = (i: number) => `+33616${String(i).padStart(6, '0')}`;

/**
 * Redis killed (SIGKILL, a crash; it runs with the append-only file, as production should) in the
 * middle of a campaign, and started again 6 s later on the same data. Meanwhile a client keeps
 * sending: plain sends (which need only PostgreSQL), sends with an Idempotency-Key and OTPs (which
 * need Redis). The apps are not restarted.
 */
describe('a Redis restart during a campaign', () => {
  let platform: FaultPlatform;
  let company: Company;
  let otpCompany: Company;
  let db: Client;
  const log = new AttemptLog();
  const recipients = Array.from({ length: RECIPIENTS }, (_, i) => recipientAt(i));
  let campaignId = '';
  const probed: Accepted[] = [];
  const otpsSent: string[] = [];
  let downAt = 0;
  let upAt = 0;
  let campaign: { status: string; summary: Record<string, number> } | undefined;
  let settled: Settled;
  let copies: Copies;
  let campaignCopies: ReturnType<typeof wrongCopies>;
  let money: Money;
  let otpMoney: Money;
  let stats: SimulatorStats;
  let handsetCount = 0;
  let otpHandsetsTwice = 0;

  const api = new ApiClient(
    () => platform.gatewayUrl,
    () => company,
  );

  function probe() {
    const sms = (i: number, key: boolean) => ({ to: probeNumberAt(2 * i + (key ? 1 : 0)), message: `Probe ${2 * i + (key ? 1 : 0)}`, from: 'Fault' });
    const accept = (key: boolean) => (body: Record<string, unknown>, i: number) => {
      const { to, message } = sms(i, key);
      probed.push({ to, text: message, messageId: String((body['data'] as { message_id: string }).message_id) });
    };
    return startProbe(
      log,
      [
        { path: '/sms/send', api, body: (i) => sms(i, false), onSuccess: accept(false) },
        {
          path: '/sms/send',
          label: '/sms/send with Idempotency-Key',
          api,
          body: (i) => sms(i, true),
          headers: () => ({ 'idempotency-key': randomUUID() }),
          onSuccess: accept(true),
        },
        {
          path: '/otp/send',
          api: api.as(otpCompany),
          body: (i) => ({ appid: otpCompany.appid, recipient: otpNumberAt(i) }),
          onSuccess: (_b, i) => otpsSent.push(otpNumberAt(i)),
        },
      ],
      300,
    );
  }

  beforeAll(async () => {
    // About 300 parts a second over the two binds: the campaign takes seconds, so Redis dies in its middle.
    platform = await startFaultPlatform({ appEnv: { SMPP_MAX_PER_SECOND: '150' } });
    company = await platform.createCompany('Redis restart', '100');
    otpCompany = await platform.createCompany('Redis restart OTP', '100');
    const answer = await api.post<{ data: { campaign_id: string } }>('/sms/send-bulk', { recipients, message: TEXT, from: 'Shop', batch_size: BATCH_SIZE });
    if (answer.status !== 200) throw new Error(`the campaign was not accepted: ${answer.status} ${JSON.stringify(answer.body)}`);
    campaignId = answer.body.data.campaign_id;
    await waitFor(async () => (await platform.simulator.stats()).accepted >= KILL_AT_ACCEPTED, 120_000);
    const probing = probe();
    await sleep(1_000);
    downAt = Date.now();
    await platform.redis.kill();
    await sleep(DOWN_MS);
    await platform.redis.start();
    upAt = Date.now();
    // Probing goes on until an OTP (which needs Redis) is sent again.
    await waitFor(async () => firstSuccess(log, '/otp/send', upAt) !== undefined, 120_000);
    await probing.stop();
    await waitFor(async () => {
      campaign = (await api.get<{ data: typeof campaign }>(`/sms/campaigns/${campaignId}`)).body.data;
      return campaign?.status === 'completed';
    }, SETTLE_TIMEOUT_MS);
    settled = await waitUntilSettled(platform.connect, company.company_id, probed, SETTLE_TIMEOUT_MS);
    await sleep(1_000);
    db = await platform.connect();
    stats = await platform.simulator.stats();
    const handsets = await platform.simulator.handsets();
    handsetCount = handsets.length;
    copies = await handsetCopies(db, probed, handsets);
    const ours = new Set(recipients);
    campaignCopies = wrongCopies(
      handsets.filter((h) => ours.has(h.to)),
      recipients.map((to) => ({ to, text: TEXT })),
    );
    otpHandsetsTwice = otpsSent.filter((to) => handsets.filter((h) => h.to === to).length > 1).length;
    money = await moneyOf(db, company.company_id);
    otpMoney = await moneyOf(db, otpCompany.company_id);
    printFigures({
      fault: 'Redis restart during a campaign',
      accepted: RECIPIENTS + probed.length,
      finalStates: settled.byStatus,
      notFinal: settled.notFinal,
      handsetsOnce: RECIPIENTS - campaignCopies.length + copies.once,
      duplicatesAtHandsets: campaignCopies.length + copies.wrong.length + otpHandsetsTwice,
      resubmitsDroppedByCarrier: stats.duplicates_dropped,
      answers: log.tally(),
      answersDuringFault: Object.fromEntries(
        ['/sms/send', '/sms/send with Idempotency-Key', '/otp/send'].map((path) => [path, answersOf(log, path, downAt + 500, upAt)]),
      ),
      secondsDown: (upAt - downAt) / 1000,
      secondsToResume: ((firstSuccess(log, '/otp/send', upAt) ?? Number.NaN) - upAt) / 1000,
      campaign: campaign?.summary,
      otps: otpsSent.length,
      money,
      otpMoney,
      carrier: stats,
    });
  }, 900_000);

  afterAll(async () => {
    if (!settled || settled.notFinal > 0) console.log(JSON.stringify(platform?.warnings()));
    await db?.end();
    await platform?.stop();
  });

  it('answered plain sends while Redis was down, 503 to what needs Redis, never a 500 or a timeout', () => {
    const during = (path: string) => answersOf(log, path, downAt + 500, upAt);
    expect(Object.keys(during('/sms/send'))).toEqual(['200']);
    expect(Object.keys(during('/sms/send with Idempotency-Key'))).toEqual(['503']);
    expect(Object.keys(during('/otp/send'))).toEqual(['503']);
    expect(Object.keys(log.tally()).filter((outcome) => !['200', '503'].includes(outcome))).toEqual([]);
  });

  it('served OTPs and keyed sends again by itself once Redis was back', () => {
    expect(firstSuccess(log, '/otp/send', upAt)).toBeDefined();
    expect(firstSuccess(log, '/sms/send with Idempotency-Key', upAt)).toBeDefined();
  });

  it('completed the campaign and every send: each message in exactly one final state, delivered', () => {
    expect(campaign).toMatchObject({ status: 'completed', summary: { delivered: RECIPIENTS } });
    expect({ notFinal: settled.notFinal, missing: settled.missing, stored: settled.stored }).toEqual({
      notFinal: 0,
      missing: 0,
      stored: RECIPIENTS + probed.length,
    });
    expect(settled.byStatus).toEqual({ delivered: RECIPIENTS + probed.length });
  });

  it('submitted nothing twice: one copy on each handset, the carrier accepted each part once', () => {
    expect(campaignCopies).toEqual([]);
    expect(copies.wrong).toEqual([]);
    expect(otpHandsetsTwice).toBe(0);
    expect(stats.accepted).toBe(handsetCount);
  });

  it('keeps the money exact: balance = start − charges + refunds', async () => {
    expect(money).toMatchObject({ exact: true, matchesMessages: true });
    const { rows } = await db.query<{ price: string }>(`SELECT min(price_per_part)::text AS price FROM messages WHERE company_id = $1`, [company.company_id]);
    expect(parseMoney(money.charges)).toBe(BigInt(RECIPIENTS + probed.length) * parseMoney(rows[0].price));
    expect(parseMoney(money.refunds)).toBe(0n);
    expect(otpMoney.exact).toBe(true);
  });
});
