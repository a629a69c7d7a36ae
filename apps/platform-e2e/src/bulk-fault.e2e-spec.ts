import { parseMoney } from '@mp/billing-domain';
import { admin } from '@mp/testing';
import { Client } from 'pg';
import {
  dispatcherWarnings,
  FINAL_STATES,
  finalStateReport,
  killDispatcherMidway,
  ledgerTotals,
  messagesWithTwoFinalEvents,
  recordedParts,
  sleep,
  startFaultStack,
  wrongCopies,
  type FaultStack,
  type KillSnapshot,
} from './support/dispatcher-fault';
import { ApiClient, createCompany, type Company } from './support/api-client';

type Summary = Record<'queued' | 'processing' | 'sent' | 'delivered' | 'failed' | 'cancelled', number>;
interface Campaign {
  campaign_id: string;
  status: string;
  total_recipients: number;
  successful: number;
  failed: number;
  total_cost: number;
  refunded: number;
  batches: number;
  summary: Summary;
  batch_details: { position: number; recipients: number; status: string }[];
}

const RECIPIENTS = 10_000;
const BATCH_SIZE = 1_000;
const TEXT = 'Winter sale: 20% off until Sunday';
/** In the middle: a few batches done, some under way, some not started. */
const KILL_AT_ACCEPTED = 3_500;
/** The most parts the dispatcher may have sent without their response recorded (SUBMIT_MAX_UNRECORDED). */
const MAX_UNRECORDED = 200;
/** Covers the campaign (10,000 × the +33 price, 0.0100 by default) with a margin. */
const OPENING_BALANCE = '150';
/** The killed worker's batch jobs are retried once their lock expires (30 s) and a stall check runs (every 30 s). */
const SETTLE_TIMEOUT_MS = 180_000;
const KILL_TIMEOUT_MS = 120_000;

/** 10,000 distinct French mobile numbers: +33 6 20 00 00 00 … +33 6 20 00 99 99. */
const numberAt = (i: number): string => `+33620${String(i).padStart(6, '0')}`;

/**
 * The bulk fault test: SIGKILL the sms-dispatcher in the middle of a 10,000-recipient campaign,
 * start another, and every handset shows one copy, every message ends in one final state, the
 * campaign's summary adds up, and the money is exact. The dispatcher runs outside the dev-stack,
 * which would stop everything when one app dies.
 */
describe('a bulk campaign survives a SIGKILL of the dispatcher', () => {
  let fault: FaultStack | undefined;
  let db: Client;
  let company: Company;
  const simulator = () => (fault as FaultStack).simulator;
  const numbers = Array.from({ length: RECIPIENTS }, (_, i) => numberAt(i));
  let accepted: { status: number; body: { data?: Campaign; error?: string } };
  let kill: KillSnapshot | undefined;
  let settled: Campaign | undefined;
  const timeline: Record<string, number> = {};
  let started = 0;
  const mark = (step: string) => (timeline[step] = Date.now() - started);

  const api = new ApiClient(
    () => String(fault?.stack.gatewayUrl),
    () => company,
  );
  const campaignId = () => accepted.body.data?.campaign_id ?? '';
  async function view(): Promise<Campaign> {
    return (await api.get<{ data: Campaign }>(`/sms/campaigns/${campaignId()}`)).body.data;
  }

  async function sendCampaign(): Promise<void> {
    // A webhook address makes every state change commit its event, which the checks read back.
    accepted = await api.post<typeof accepted.body>('/sms/send-bulk', {
      recipients: numbers,
      message: TEXT,
      from: 'Shop',
      batch_size: BATCH_SIZE,
      webhook_url: 'https://hooks.example.com/sms',
    });
    if (accepted.status !== 200) throw new Error(`the campaign was not accepted: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  }

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Bulk Fault', OPENING_BALANCE);
    db = new Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
    await db.query(`SET TIME ZONE 'UTC'`);
    fault = await startFaultStack({
      name: 'bulk-fault',
      apps: ['gateway', 'billing', 'smsc-simulator'],
      // Each submit_sm answered after 5 ms: the campaign takes seconds, so the kill lands in its middle.
      stackEnv: { SMSC_LATENCY_MS: '5' },
      maxUnrecorded: MAX_UNRECORDED,
    });

    started = Date.now();
    await sendCampaign();
    mark('accepted');
    kill = await killDispatcherMidway({
      ...fault,
      killAtAccepted: KILL_AT_ACCEPTED,
      totalParts: RECIPIENTS,
      numbers: new Set(numbers),
      recordedParts: () => recordedParts(db, { column: 'campaign_id', id: campaignId() }),
      timeoutMs: KILL_TIMEOUT_MS,
    });
    mark('respawned');
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    while (Date.now() < deadline && (settled = await view()).status !== 'completed') await sleep(1_000);
    mark('settled');
    // A resubmission that got past the carrier's duplicate filter would reach a handset after its message is final.
    await sleep(1_000);
  }, 420_000);

  afterAll(async () => {
    // One line of context for whoever reads the run: timings, the kill, the carrier's counters.
    const carrier = await fault?.simulator.stats().catch(String);
    console.log(JSON.stringify({ timeline, kill, summary: settled?.summary, simulator: carrier, dispatchers: dispatcherWarnings(fault?.dispatchers ?? []) }));
    await fault?.stop();
    await db?.end();
  });

  it('accepts the 10,000 recipients in 10 batches, charged once', () => {
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ total_recipients: RECIPIENTS, successful: RECIPIENTS, failed: 0, total_cost: 100, batches: 10 });
  });

  it('killed the dispatcher in the middle of the campaign, then ran a new one', () => {
    expect(kill).toBeDefined();
    expect(fault?.dispatchers).toHaveLength(2);
    expect(kill?.acceptedAtTrigger).toBeGreaterThanOrEqual(KILL_AT_ACCEPTED);
    expect(kill?.acceptedByCarrier).toBeLessThan(RECIPIENTS);
    // What reached the carrier but was not recorded is what the new dispatcher must resubmit.
    expect(kill?.recorded).toBeLessThanOrEqual(kill?.acceptedByCarrier ?? 0);
  });

  it('ends every message in exactly one final state: delivered, with every part delivered', async () => {
    const scope = { column: 'campaign_id', id: campaignId() } as const;
    expect(await finalStateReport(db, scope, await simulator().handsets(), kill?.at)).toEqual({
      messages: { delivered: RECIPIENTS },
      parts: { delivered: RECIPIENTS },
      stuck: [],
    });
    // One message per recipient: a batch made again after the kill would have made a second.
    const { rows } = await db.query<{ messages: string; recipients: string }>(
      `SELECT count(*) AS messages, count(DISTINCT recipient) AS recipients FROM messages WHERE campaign_id = $1`,
      [campaignId()],
    );
    expect(rows[0]).toEqual({ messages: String(RECIPIENTS), recipients: String(RECIPIENTS) });
    expect(await messagesWithTwoFinalEvents(db, scope)).toEqual([]);
    const { rows: completions } = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM outbox WHERE job_name = 'campaign.event' AND data->>'campaignId' = $1 AND data->>'type' = 'campaign.completed'`,
      [campaignId()],
    );
    expect(Number(completions[0].n)).toBe(1);
  });

  it('completes the campaign with a summary that adds up and every batch dispatched', async () => {
    const campaign = await view();
    expect(campaign).toMatchObject({
      status: 'completed',
      successful: RECIPIENTS,
      refunded: 0,
      summary: { queued: 0, processing: 0, sent: 0, delivered: RECIPIENTS, failed: 0, cancelled: 0 },
    });
    expect(Object.values(campaign.summary).reduce((a, b) => a + b, 0)).toBe(campaign.successful);
    expect(campaign.batch_details.map((b) => [b.position, b.recipients, b.status])).toEqual(
      Array.from({ length: 10 }, (_, i) => [i + 1, BATCH_SIZE, 'dispatched']),
    );
  });

  it('shows exactly one copy of the text on each of the 10,000 handsets', async () => {
    const ours = new Set(numbers);
    const received = (await simulator().handsets()).filter((m) => ours.has(m.to));
    expect(
      wrongCopies(
        received,
        numbers.map((to) => ({ to, text: TEXT })),
      ),
    ).toEqual([]);
    expect(received).toHaveLength(RECIPIENTS);
  });

  it('resubmits no more parts than were unrecorded at the kill, never more than the bound', async () => {
    const after = await simulator().stats();
    const inFlight = (kill?.acceptedByCarrier ?? 0) - (kill?.recorded ?? 0);
    // Each resubmission is dropped by the carrier's duplicate filter (same reference and bytes).
    expect(after.duplicates_dropped).toBeLessThanOrEqual(MAX_UNRECORDED);
    expect(after.duplicates_dropped).toBeLessThanOrEqual(inFlight);
    expect({ accepted: after.accepted, rejected: after.rejected, throttled: after.throttled }).toEqual({ accepted: RECIPIENTS, rejected: 0, throttled: 0 });
  });

  it('keeps the money exact: one charge of the campaign cost, balance = start − charges + refunds', async () => {
    const ledger = await ledgerTotals(db, company.company_id);
    const { rows } = await db.query<{ total_cost: string; refunded: string; not_final: string }>(
      `SELECT sum(cost)::text AS total_cost, sum(refunded)::text AS refunded, count(*) FILTER (WHERE NOT (status = ANY($2::text[]))) AS not_final
       FROM messages WHERE campaign_id = $1`,
      [campaignId(), FINAL_STATES],
    );
    expect(ledger).toMatchObject({ charge_entries: '1', other_entries: '0' });
    expect(parseMoney(ledger.start)).toBe(parseMoney(OPENING_BALANCE));
    expect(parseMoney(ledger.charges)).toBe(parseMoney('100'));
    expect(parseMoney(rows[0].total_cost)).toBe(parseMoney(ledger.charges));
    // Everything was delivered: nothing to refund.
    expect({ refunds: parseMoney(ledger.refunds), refunded: parseMoney(rows[0].refunded), not_final: rows[0].not_final }).toEqual({
      refunds: 0n,
      refunded: 0n,
      not_final: '0',
    });
    expect(parseMoney(ledger.balance)).toBe(parseMoney(ledger.start) - parseMoney(ledger.charges) + parseMoney(ledger.refunds));
    expect(ledger.expected).toBe(ledger.balance);
    expect(ledger.last_balance_after).toBe(ledger.balance);
  });
});
