import { parseMoney } from '@mp/billing-domain';
import { eventually, startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '@mp/testing';
import type { Client } from 'pg';
import { ApiClient, type Company } from '../support/api-client';
import type { SimulatorStats } from '../support/dispatcher-fault';
import { handsetCopies, moneyOf, printFigures, twoFinalEvents, waitUntilSettled, type Copies, type Money, type Settled } from './support/fault-checks';
import { startFaultPlatform, type FaultPlatform } from './support/fault-platform';
import { AttemptLog, sendSms, sleep, waitFor, type Accepted } from './support/load';
import { tallyWebhooks, type WebhookTally } from './support/webhook-events';

const MESSAGES = 400;
const DROP_AT_ACCEPTED = 100;
/** How long the SMSC refuses binds after dropping them. */
const REFUSE_MS = 8_000;
/** How long the customer's webhook endpoint answers 503 from the first send. */
const WEBHOOK_DOWN_MS = 15_000;
const SETTLE_TIMEOUT_MS = 240_000;

const numberAt = (i: number) => `+33617${String(i).padStart(6, '0')}`;

/**
 * The far ends fail, one platform for both: the SMSC drops every bind in the middle of single
 * sends and refuses binds for 8 s (POST /binds/drop on the simulator), while the customer's
 * webhook endpoint answers 503 for the first 15 s and then recovers. Nothing is restarted.
 */
describe('the SMSC drops its binds and refuses binds a while; the webhook endpoint fails, then recovers', () => {
  let platform: FaultPlatform;
  let receiver: WebhookReceiver;
  let company: Company;
  let db: Client;
  const log = new AttemptLog();
  let accepted: Accepted[] = [];
  let givenUp: string[] = [];
  let droppedAt = 0;
  let dropped = 0;
  let acceptedAtDrop = 0;
  let resumedAt: number | undefined;
  let webhookUpAt = 0;
  let settled: Settled;
  let copies: Copies;
  let money: Money;
  let stats: SimulatorStats;
  let webhooks: WebhookTally;
  let refusedAnswers = 0;
  /** The webhook requests answered 204. */
  const answered: ReceivedWebhook[] = [];

  const api = new ApiClient(
    () => platform.gatewayUrl,
    () => company,
  );

  async function dropBindsMidway(): Promise<void> {
    await waitFor(async () => (await platform.simulator.stats()).accepted >= DROP_AT_ACCEPTED, 120_000);
    droppedAt = Date.now();
    dropped = (await platform.simulator.dropBinds(REFUSE_MS)).dropped;
    acceptedAtDrop = (await platform.simulator.stats()).accepted;
    // The first part the carrier accepts after the outage: submitting resumed.
    await waitFor(async () => (await platform.simulator.stats()).accepted > acceptedAtDrop, 120_000);
    resumedAt = Date.now();
  }

  beforeAll(async () => {
    platform = await startFaultPlatform({ simulatorEnv: { SMSC_LATENCY_MS: '10' } });
    receiver = await startWebhookReceiver();
    const started = Date.now();
    webhookUpAt = started + WEBHOOK_DOWN_MS;
    receiver.answer = (n, response) => {
      const refuse = Date.now() < webhookUpAt;
      if (refuse) refusedAnswers += 1;
      else answered.push(receiver.received[n]);
      response.writeHead(refuse ? 503 : 204).end();
    };
    company = await platform.createCompany('Outages', '100');
    const dropping = dropBindsMidway();
    ({ accepted, givenUp } = await sendSms(api, log, {
      total: MESSAGES,
      concurrency: 4,
      numberAt,
      textAt: (i) => `Outage test ${i}`,
      webhookUrl: receiver.url,
      idempotent: true,
    }));
    await dropping;
    settled = await waitUntilSettled(platform.connect, company.company_id, accepted, SETTLE_TIMEOUT_MS);
    const ids = accepted.map((a) => a.messageId);
    await waitFor(async () => tallyWebhooks(answered, ids).withFinalEvent >= ids.length, 180_000);
    webhooks = { ...tallyWebhooks(answered, ids), requests: receiver.received.length };
    await sleep(1_000);
    db = await platform.connect();
    stats = await platform.simulator.stats();
    copies = await handsetCopies(db, accepted, await platform.simulator.handsets());
    money = await moneyOf(db, company.company_id);
    printFigures({
      fault: 'SMSC drops its binds and refuses binds for 8 s; webhook endpoint answers 503 for 15 s',
      accepted: accepted.length,
      finalStates: settled.byStatus,
      notFinal: settled.notFinal,
      handsetsOnce: copies.once,
      duplicatesAtHandsets: copies.wrong.length,
      resubmitsDroppedByCarrier: stats.duplicates_dropped,
      answers: log.tally(),
      answersDuringFault: log.tally(droppedAt, droppedAt + REFUSE_MS),
      bindsDropped: dropped,
      bindsRefused: stats.binds_refused,
      secondsToResume: ((resumedAt ?? Number.NaN) - droppedAt) / 1000,
      webhookRefusals: refusedAnswers,
      webhooks,
      money,
      carrier: stats,
    });
  }, 900_000);

  afterAll(async () => {
    if (!settled || settled.notFinal > 0) console.log(JSON.stringify(platform?.warnings()));
    await db?.end();
    await receiver?.close();
    await platform?.stop();
  });

  it('dropped the binds while parts were flowing and refused binds until the outage ended', () => {
    expect(dropped).toBeGreaterThan(0);
    expect(acceptedAtDrop).toBeLessThan(MESSAGES);
    expect(stats.binds_refused).toBeGreaterThan(0);
  });

  it('kept accepting sends (the carrier is not the API’s dependency): every answer 200', () => {
    expect(givenUp).toEqual([]);
    expect(log.tally()).toEqual({ '200': MESSAGES });
    expect({ stored: settled.stored, missing: settled.missing }).toEqual({ stored: MESSAGES, missing: 0 });
  });

  it('submitted again by itself once binds were taken, and ended every message delivered, once', async () => {
    expect(resumedAt).toBeDefined();
    expect(settled).toMatchObject({ notFinal: 0, byStatus: { delivered: MESSAGES } });
    expect(await twoFinalEvents(db, company.company_id)).toBe(0);
  });

  it('submitted nothing twice: one copy on each handset, the carrier accepted each part once', () => {
    expect(copies.wrong).toEqual([]);
    expect(copies.once).toBe(MESSAGES);
    expect(stats.accepted).toBe(MESSAGES);
  });

  it('keeps the money exact: balance = start − charges + refunds', async () => {
    expect(money).toMatchObject({ exact: true, matchesMessages: true });
    const { rows } = await db.query<{ price: string }>(`SELECT min(price_per_part)::text AS price FROM messages WHERE company_id = $1`, [company.company_id]);
    expect(parseMoney(money.charges)).toBe(BigInt(MESSAGES) * parseMoney(rows[0].price));
    expect(parseMoney(money.refunds)).toBe(0n);
  });

  it('delivered every message’s final webhook once the endpoint recovered, after refusals, never two final states', async () => {
    expect(refusedAnswers).toBeGreaterThan(0);
    expect(webhooks.withFinalEvent).toBe(MESSAGES);
    expect(webhooks.twoFinalStates).toEqual([]);
    // Every delivery the notifier recorded ends delivered: none dead-lettered by the outage. A
    // non-final event's delivery (message.sent) may still be waiting for its retry's backoff.
    const statuses = async () => {
      const { rows } = await db.query<{ status: string; n: string }>(`SELECT status, count(*) AS n FROM webhook_deliveries GROUP BY status`);
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    };
    expect(await eventually(statuses, (counts) => counts['pending'] === undefined, 60_000)).toEqual({ delivered: expect.any(Number) });
  });
});
