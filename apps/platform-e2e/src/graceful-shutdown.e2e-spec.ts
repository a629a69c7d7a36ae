import { parseMoney } from '@mp/billing-domain';
import { QueueName } from '@mp/queue-contracts';
import { admin, eventually, startWebhookReceiver, type AppExit, type AppProcess, type WebhookReceiver } from '@mp/testing';
import { Client } from 'pg';
import { startFleet, stalledJobs, type Fleet, type FleetApp } from './support/app-fleet';
import { FleetTraffic } from './support/fleet-traffic';
import { createCompany, ApiClient, type Company } from './support/api-client';
import { FINAL_STATES, finalStateReport, ledgerTotals, messagesWithTwoFinalEvents, sleep, wrongCopies } from './support/dispatcher-fault';

/** How long each app's readiness answers 503 before it stops taking work (SHUTDOWN_DRAIN_MS): long enough to be seen. */
const DRAIN_MS = 1_500;
/** The apps' SHUTDOWN_TIMEOUT_MS: past it an app exits 1 (a hang), which the test would see. */
const SHUTDOWN_TIMEOUT_MS = 45_000;
const CAMPAIGN = 3_000;
const CONCURRENCY = 8;
const OPENING_BALANCE = '1000';
const SETTLE_TIMEOUT_MS = 240_000;
/** Singles to +33 6 21 …, the campaign to +33 6 22 …: distinct numbers, one message each. */
const singleNumber = (i: number) => `+33621${String(i).padStart(6, '0')}`;
const campaignNumber = (i: number) => `+33622${String(i).padStart(6, '0')}`;
const CAMPAIGN_TEXT = 'Graceful shutdown campaign';
const WEBHOOK_EVERY = 10;

interface Stop {
  app: FleetApp;
  exit: AppExit;
  /** Readiness answered 503 (lifecycle down) while the process still ran. */
  notReadyBeforeExit: boolean;
  /** What readiness answered, in order, deduplicated: e.g. 200, 503, refused. */
  readiness: string[];
  /** The campaign's parts the carrier had when the signal was sent. */
  campaignPartsAtCarrier: number;
}

/** Polls the process's /health/ready until it exits; answers what it saw. */
async function watchReadiness(process: AppProcess): Promise<{ seen: string[]; notReady: boolean }> {
  let exited = false;
  void process.exited.then(() => (exited = true));
  const seen: string[] = [];
  let notReady = false;
  while (!exited) {
    const status = await fetch(`${process.url}/health/ready`, { signal: AbortSignal.timeout(2_000) }).then(
      async (response) => {
        const body = (await response.json().catch(() => ({}))) as { details?: { lifecycle?: { status?: string } } };
        if (response.status === 503 && body.details?.lifecycle?.status === 'down' && !exited) notReady = true;
        return String(response.status);
      },
      () => 'refused',
    );
    if (seen[seen.length - 1] !== status) seen.push(status);
    await sleep(25);
  }
  return { seen, notReady };
}

/**
 * SIGTERM each app in turn under load (single sends on two gateways, a campaign going through),
 * starting a new one each time: readiness turns false first, each exits 0 on its own, the
 * gateway answers what it took in, and afterwards every message has one final state, no part
 * reached the carrier twice, no job was left stalled, and the money adds up.
 */
describe('graceful shutdown of every app under load', () => {
  let fleet: Fleet;
  let db: Client;
  let company: Company;
  let receiver: WebhookReceiver;
  let traffic: FleetTraffic;
  let campaignId: string;
  const stops: Stop[] = [];

  /**
   * SIGTERMs one app and starts another. A gateway's replacement starts first, as a rolling update
   * does, so the traffic keeps a way through; the dispatcher's after the signal, so that it is
   * surely stopped with the campaign's parts still flowing (starting one on a loaded machine can
   * take longer than the rest of the campaign). The stopping app leaves the traffic's list at the
   * signal, as Kubernetes takes a terminating pod out of its Service's endpoints: requests already
   * sent to it must still be answered.
   */
  async function sigterm(app: FleetApp, which = 0): Promise<void> {
    const target = fleet.running[app][which];
    const watching = watchReadiness(target);
    const replacementFirst = app !== 'sms-dispatcher';
    if (replacementFirst) {
      await fleet.start(app);
      await sleep(300);
    }
    const campaignPartsAtCarrier = await campaignPartsAccepted();
    const exiting = target.kill('SIGTERM');
    fleet.forget(target);
    const exit = await exiting;
    if (!replacementFirst) await fleet.start(app);
    const { seen, notReady } = await watching;
    stops.push({ app, exit, notReadyBeforeExit: notReady, readiness: seen, campaignPartsAtCarrier });
  }

  async function settledCount(): Promise<number> {
    const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM messages WHERE company_id = $1 AND status = ANY($2::text[])`, [
      company.company_id,
      FINAL_STATES,
    ]);
    return Number(rows[0].n);
  }

  async function campaignPartsAccepted(): Promise<number> {
    const prefix = campaignNumber(0).slice(0, 6);
    return (await fleet.simulator.handsets()).filter((m) => m.to.startsWith(prefix)).length;
  }

  async function waitForCampaignParts(parts: number): Promise<void> {
    const deadline = Date.now() + 120_000;
    while ((await campaignPartsAccepted()) < parts && Date.now() < deadline) await sleep(250);
  }

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Shutdown', OPENING_BALANCE);
    db = new Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
    await db.query(`SET TIME ZONE 'UTC'`);
    receiver = await startWebhookReceiver();
    fleet = await startFleet({
      name: 'graceful',
      counts: { gateway: 2 },
      env: { SHUTDOWN_DRAIN_MS: String(DRAIN_MS), SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) },
    });
    traffic = new FleetTraffic(
      () => fleet.gatewayUrls(),
      () => company,
      singleNumber,
      // A webhook for every tenth: enough for the webhook-notifier to be busy, few enough to all arrive soon.
      (i) => (i % WEBHOOK_EVERY === 0 ? { webhook_url: receiver.url } : {}),
    );
    traffic.start(CONCURRENCY);
    const api = new ApiClient(
      () => fleet.gatewayUrls()[0],
      () => company,
    );
    const campaign = await api.post('/sms/send-bulk', {
      recipients: Array.from({ length: CAMPAIGN }, (_, i) => campaignNumber(i)),
      message: CAMPAIGN_TEXT,
      from: 'Fleet',
    });
    if (campaign.status !== 200) throw new Error(`the campaign was refused: ${campaign.status} ${campaign.text}`);
    campaignId = (campaign.body['data'] as { campaign_id: string }).campaign_id;

    // The dispatcher while the campaign's parts flow, then each other worker, then a gateway.
    await waitForCampaignParts(300);
    await sigterm('sms-dispatcher');
    for (const app of ['otp', 'billing', 'webhook-notifier'] as const) await sigterm(app);
    await sigterm('gateway');
    await sleep(1_000);
    await traffic.stop();

    const expected = traffic.accepted.length + CAMPAIGN;
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    while (Date.now() < deadline && (await settledCount()) < expected) await sleep(500);
    // A part submitted twice would reach a handset after its message is final.
    await sleep(1_000);
  }, 900_000);

  afterAll(async () => {
    console.log(
      JSON.stringify({ stops, retried: traffic?.retried, accepted: traffic?.accepted.length, simulator: await fleet?.simulator.stats().catch(String) }),
    );
    await traffic?.stop();
    await fleet?.stop();
    await receiver?.close();
    await db?.end();
  }, 120_000);

  it('stopped each app on SIGTERM: readiness false while it still ran, then exit 0 by itself', () => {
    expect(stops.map((s) => s.app)).toEqual(['sms-dispatcher', 'otp', 'billing', 'webhook-notifier', 'gateway']);
    // The dispatcher went while the campaign's parts were flowing.
    expect(stops[0].campaignPartsAtCarrier).toBeGreaterThanOrEqual(300);
    expect(stops[0].campaignPartsAtCarrier).toBeLessThan(CAMPAIGN);
    expect(stops.map((s) => ({ app: s.app, exit: s.exit, notReadyBeforeExit: s.notReadyBeforeExit }))).toEqual(
      stops.map((s) => ({ app: s.app, exit: { code: 0, signal: null }, notReadyBeforeExit: true })),
    );
  });

  it('answered every request the gateways took in: no connection reset, no error', () => {
    expect(traffic.failures).toEqual([]);
    expect(traffic.accepted.length).toBeGreaterThan(0);
  });

  it('ends every accepted message in exactly one final state, delivered', async () => {
    const handsets = await fleet.simulator.handsets();
    const report = await finalStateReport(db, { column: 'company_id', id: company.company_id }, handsets);
    const messages = traffic.accepted.length + CAMPAIGN;
    expect(report).toEqual({ messages: { delivered: messages }, parts: { delivered: messages }, stuck: [] });
    expect(await messagesWithTwoFinalEvents(db, { column: 'company_id', id: company.company_id })).toEqual([]);
    const { rows } = await db.query<{ status: string }>(`SELECT status FROM campaigns WHERE id = $1`, [campaignId]);
    expect(rows[0]?.status).toBe('completed');
  });

  it('submitted no part twice: each handset shows one copy, the carrier dropped no duplicate', async () => {
    const received = await fleet.simulator.handsets();
    const sent = [...traffic.accepted, ...Array.from({ length: CAMPAIGN }, (_, i) => ({ to: campaignNumber(i), text: CAMPAIGN_TEXT }))];
    expect(wrongCopies(received, sent)).toEqual([]);
    expect(received).toHaveLength(sent.length);
    const stats = await fleet.simulator.stats();
    expect({ duplicates: stats.duplicates_dropped, submits: stats.submits }).toEqual({ duplicates: 0, submits: sent.length });
  });

  it('left no job stalled (no job waited for a lock to expire)', async () => {
    const queues = Object.values(QueueName);
    expect(await stalledJobs(String(process.env['REDIS_URL']), fleet.queuePrefix, queues)).toEqual([]);
  });

  it('keeps the money exact: balance = start − charges, one charge per message', async () => {
    const ledger = await ledgerTotals(db, company.company_id);
    const { rows } = await db.query<{ total_cost: string; n: string }>(
      `SELECT sum(cost)::text AS total_cost, count(*) AS n FROM messages WHERE company_id = $1`,
      [company.company_id],
    );
    expect(parseMoney(ledger.start)).toBe(parseMoney(OPENING_BALANCE));
    expect(parseMoney(ledger.charges)).toBe(parseMoney(rows[0].total_cost));
    expect(parseMoney(ledger.refunds)).toBe(0n);
    expect(parseMoney(ledger.balance)).toBe(parseMoney(ledger.start) - parseMoney(ledger.charges));
    expect(ledger.expected).toBe(ledger.balance);
    expect(ledger.last_balance_after).toBe(ledger.balance);
  });

  it('delivered message.sent and message.delivered of every message sent with a webhook', async () => {
    const withWebhook = traffic.accepted.filter((s) => Number(s.to.slice(-6)) % WEBHOOK_EVERY === 0);
    const events = () => {
      const seen = new Map<string, Set<string>>();
      for (const webhook of receiver.received) {
        const event = JSON.parse(webhook.body) as { type: string; data: { message_id: string } };
        seen.set(event.data.message_id, (seen.get(event.data.message_id) ?? new Set()).add(event.type));
      }
      return withWebhook.filter((s) => !(seen.get(s.messageId)?.has('message.sent') && seen.get(s.messageId)?.has('message.delivered')));
    };
    const missing = await eventually(events, (left) => left.length === 0, 120_000);
    expect(missing).toEqual([]);
    expect(withWebhook.length).toBeGreaterThan(0);
  }, 150_000);
});
