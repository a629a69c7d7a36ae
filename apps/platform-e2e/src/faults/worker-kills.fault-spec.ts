import { parseMoney } from '@mp/billing-domain';
import { startWebhookReceiver, type WebhookReceiver } from '@mp/testing';
import type { Client } from 'pg';
import { ApiClient, type Company } from '../support/api-client';
import type { Handset, SimulatorStats } from '../support/dispatcher-fault';
import { handsetCopies, moneyOf, printFigures, twoFinalEvents, waitUntilSettled, type Copies, type Money, type Settled } from './support/fault-checks';
import { APPS, startFaultPlatform, type FaultPlatform } from './support/fault-platform';
import { AttemptLog, sendSms, sleep, waitFor, type Accepted } from './support/load';
import { tallyWebhooks, type WebhookTally } from './support/webhook-events';

const MESSAGES = 600;
const OTPS = 12;
const KILL_AT_ACCEPTED = 150;
const CONCURRENCY = 8;
/** The killed workers' jobs run again once their BullMQ locks expire (30 s) and a stall check runs (every 30 s). */
const SETTLE_TIMEOUT_MS = 240_000;

const numberAt = (i: number) => `+33611${String(i).padStart(6, '0')}`;
const otpNumberAt = (i: number) => `+33612${String(i).padStart(6, '0')}`;

/**
 * SIGKILL of every app at once — gateway, sms-dispatcher, otp, billing and webhook-notifier — in
 * the middle of single sends (each with a webhook), OTP sends and refusals by the carrier (which
 * the billing app refunds); each is started again as an orchestrator would. The clients send with
 * an Idempotency-Key and try again when the gateway's connection is cut.
 */
describe('SIGKILL of every app during load', () => {
  let platform: FaultPlatform;
  let receiver: WebhookReceiver;
  let company: Company;
  let otpCompany: Company;
  let db: Client;
  const log = new AttemptLog();
  let accepted: Accepted[] = [];
  let givenUp: string[] = [];
  let inDoubt: string[] = [];
  let gatewayUpAt = 0;
  const otps: { to: string; outcome: string }[] = [];
  let killedAt = 0;
  let restartedAt = 0;
  let settled: Settled;
  let copies: Copies;
  let money: Money;
  let otpMoney: Money;
  let stats: SimulatorStats;
  let webhooks: WebhookTally;
  let handsetCount = 0;
  let handsets: Handset[] = [];

  const api = new ApiClient(
    () => platform.gatewayUrl,
    () => company,
  );

  async function sendOtps(): Promise<void> {
    const otpApi = api.as(otpCompany);
    for (let i = 0; i < OTPS; i++) {
      const to = otpNumberAt(i);
      for (;;) {
        const answer = await log.call('/otp/send', () =>
          otpApi.post('/otp/send', { appid: otpCompany.appid, recipient: to }, { signal: AbortSignal.timeout(15_000) }),
        );
        // Without a key a cut connection may or may not have committed: that number is not tried again.
        if (typeof answer === 'object' && answer.status === 503) continue;
        otps.push({ to, outcome: String(typeof answer === 'object' ? answer.status : answer) });
        break;
      }
      await sleep(400);
    }
  }

  async function killEverythingMidway(): Promise<void> {
    await waitFor(async () => (await platform.simulator.stats()).accepted >= KILL_AT_ACCEPTED, 120_000);
    killedAt = Date.now();
    await Promise.all(APPS.map((app) => platform.kill(app)));
    await sleep(2_000);
    for (const app of APPS) {
      await platform.restart(app);
      if (app === 'gateway') gatewayUpAt = Date.now();
    }
    restartedAt = Date.now();
  }

  beforeAll(async () => {
    platform = await startFaultPlatform({ simulatorEnv: { SMSC_REJECT_RATE: '0.05', SMSC_LATENCY_MS: '5' } });
    receiver = await startWebhookReceiver();
    company = await platform.createCompany('Kill', '100');
    otpCompany = await platform.createCompany('Kill OTP', '100');
    const killing = killEverythingMidway();
    const otpSends = sendOtps();
    ({ accepted, inDoubt, givenUp } = await sendSms(api, log, {
      total: MESSAGES,
      concurrency: CONCURRENCY,
      numberAt,
      textAt: (i) => `Kill test ${i}`,
      webhookUrl: receiver.url,
      idempotent: true,
    }));
    await Promise.all([killing, otpSends]);
    settled = await waitUntilSettled(platform.connect, company.company_id, accepted, SETTLE_TIMEOUT_MS);
    const ids = accepted.map((a) => a.messageId);
    await waitFor(async () => tallyWebhooks(receiver.received, ids).withFinalEvent >= ids.length, 120_000);
    webhooks = tallyWebhooks(receiver.received, ids);
    await sleep(1_000);
    db = await platform.connect();
    // A failed message's refund follows it through the outbox to the billing app, killed too: its
    // stalled job runs again once the lock expires (30–60 s), so the refunds may still be coming.
    const failed = settled.byStatus['failed'] ?? 0;
    await waitFor(async () => (await refundEntries(db, company.company_id)) >= failed, 150_000);
    stats = await platform.simulator.stats();
    handsets = await platform.simulator.handsets();
    handsetCount = handsets.length;
    copies = await handsetCopies(db, accepted, handsets);
    money = await moneyOf(db, company.company_id);
    otpMoney = await moneyOf(db, otpCompany.company_id);
    printFigures({
      fault: 'SIGKILL of every app',
      accepted: accepted.length,
      finalStates: settled.byStatus,
      notFinal: settled.notFinal,
      handsetsOnce: copies.once,
      duplicatesAtHandsets: copies.wrong.length,
      resubmitsDroppedByCarrier: stats.duplicates_dropped,
      answers: log.tally(),
      answersDuringFault: log.tally(killedAt, gatewayUpAt),
      inDoubt: inDoubt.length,
      storedOfThoseInDoubt: settled.stored - accepted.length,
      secondsToRestartAll: (restartedAt - killedAt) / 1000,
      secondsToResume: ((log.firstSuccessAfter(gatewayUpAt) ?? Number.NaN) - killedAt) / 1000,
      money,
      otps: otps.reduce<Record<string, number>>((n, o) => ({ ...n, [o.outcome]: (n[o.outcome] ?? 0) + 1 }), {}),
      otpMoney,
      webhooks,
      carrier: stats,
    });
  }, 900_000);

  afterAll(async () => {
    if (!settled || settled.notFinal > 0) console.log(JSON.stringify(platform?.warnings()));
    await db?.end();
    await receiver?.close();
    await platform?.stop();
  });

  it('accepted every send once, those the crash cut off too: a retry got the committed answer, or ran once', async () => {
    expect(givenUp).toEqual([]);
    expect(inDoubt).toEqual([]);
    expect(accepted.length).toBe(MESSAGES);
    expect(new Set(accepted.map((a) => a.messageId)).size).toBe(accepted.length);
    expect(settled.missing).toBe(0);
    expect(settled.stored).toBe(accepted.length);
    const { rows } = await db.query<{ recipient: string }>(`SELECT recipient FROM messages WHERE company_id = $1 GROUP BY recipient HAVING count(*) > 1`, [
      company.company_id,
    ]);
    expect(rows).toEqual([]);
  });

  it('never answered 500 and never hung: connection errors only while the gateway was down', () => {
    const answers = log.tally();
    expect(Object.keys(answers).filter((outcome) => !['200', '503', '409', 'network'].includes(outcome))).toEqual([]);
    expect(log.attempts.filter((a) => a.outcome === 'network' && (a.at < killedAt || a.at > gatewayUpAt + 5_000))).toEqual([]);
  });

  it('ends every message in exactly one final state: delivered, or failed when the carrier refused it', async () => {
    expect(settled.notFinal).toBe(0);
    expect(Object.keys(settled.byStatus).sort()).toEqual(expect.arrayContaining(['delivered']));
    expect(Object.keys(settled.byStatus).filter((s) => !['delivered', 'failed'].includes(s))).toEqual([]);
    expect(await twoFinalEvents(db, company.company_id)).toBe(0);
  });

  it('submitted nothing twice: one copy on each handset, the carrier accepted each part once', () => {
    expect(copies.wrong).toEqual([]);
    expect(copies.undeliveredShown).toBe(0);
    expect(copies.once).toBe(copies.delivered);
    // Every part the carrier accepted (single-part sends and OTPs) shows on one handset; a resubmission was dropped, not accepted.
    expect(stats.accepted).toBe(handsetCount);
  });

  it('keeps the money exact: balance = start − charges + refunds, each refusal refunded', async () => {
    expect(money).toMatchObject({ exact: true, matchesMessages: true });
    const { rows } = await db.query<{ price: string }>(`SELECT min(price_per_part)::text AS price FROM messages WHERE company_id = $1`, [company.company_id]);
    const price = parseMoney(rows[0].price);
    // One charge per message stored, each an accepted one.
    expect(parseMoney(money.charges)).toBe(BigInt(settled.stored) * price);
    expect(parseMoney(money.refunds)).toBe(BigInt(settled.byStatus['failed'] ?? 0) * price);
    expect(otpMoney.exact).toBe(true);
  });

  it('sent each accepted OTP once', async () => {
    const sentOk = otps.filter((o) => o.outcome === '200');
    expect(otps.filter((o) => !['200', 'network'].includes(o.outcome))).toEqual([]);
    handsets = await platform.simulator.handsets();
    const counts = sentOk.map((o) => handsets.filter((h) => h.to === o.to).length);
    // A code the carrier refused (SMSC_REJECT_RATE) never shows; none shows twice.
    expect(counts.filter((n) => n > 1)).toEqual([]);
  });

  it('delivered a final-state webhook for every message, never two different final states', () => {
    expect(webhooks.withFinalEvent).toBe(accepted.length);
    expect(webhooks.twoFinalStates).toEqual([]);
  });
});

async function refundEntries(db: Client, companyId: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ledger_entries WHERE company_id = $1 AND kind = 'refund'`, [companyId]);
  return Number(rows[0].n);
}
