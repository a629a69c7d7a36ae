import { parseMoney } from '@mp/billing-domain';
import { parsePhoneNumber } from '@mp/messaging-domain';
import { admin } from '@mp/testing';
import { Client } from 'pg';
import {
  dispatcherWarnings,
  FINAL_STATES as FINAL,
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

interface Sent {
  to: string;
  text: string;
  messageId: string;
  cost: number;
}

const MESSAGES = 1000;
const CONCURRENCY = 20;
const KILL_AT_ACCEPTED = 300;
/** The most parts the dispatcher may have sent without their response recorded (SUBMIT_MAX_UNRECORDED). */
const MAX_UNRECORDED = 100;
/** Covers every send exactly (1000 × the +33 price, 0.0100 by default) plus a margin. */
const OPENING_BALANCE = '12';
/** Stalled BullMQ jobs of the killed worker are retried once their lock expires (30 s) and a stall check runs (every 30 s). */
const SETTLE_TIMEOUT_MS = 150_000;
/** How long the first dispatcher may take to get 300 parts to the carrier. */
const KILL_TIMEOUT_MS = 120_000;

/** 1000 distinct French mobile numbers: +33 6 10 00 00 00 … +33 6 10 00 09 99. */
const numberAt = (i: number): string => `+33610${String(i).padStart(6, '0')}`;

/**
 * The fault test: SIGKILL the sms-dispatcher in the middle of 1000 sends, start it again,
 * and nothing is lost, nothing is doubled, and the money adds up to the unit.
 * The dispatcher runs outside the dev-stack, which would stop everything when one app dies.
 */
describe('SMS delivery survives a SIGKILL of the dispatcher', () => {
  let fault: FaultStack | undefined;
  let db: Client;
  let company: Company;
  const sent: Sent[] = [];
  const sendFailures: string[] = [];
  let kill: KillSnapshot | undefined;
  /** When each step ended, in ms from the first send: printed at the end, for whoever reads a failure. */
  const timeline: Record<string, number> = {};
  let started = 0;
  const mark = (step: string) => (timeline[step] = Date.now() - started);

  const api = new ApiClient(
    () => String(fault?.stack.gatewayUrl),
    () => company,
  );
  const stats = () => (fault as FaultStack).simulator.stats();
  const handsets = () => (fault as FaultStack).simulator.handsets();
  const ourNumbers = new Set(Array.from({ length: MESSAGES }, (_, i) => numberAt(i)));

  async function sendOne(i: number): Promise<void> {
    const to = numberAt(i);
    const text = `Fault test ${i}`;
    try {
      const response = await api.post<{ data?: { message_id?: string; cost?: number } }>(
        '/sms/send',
        { to, message: text, from: 'Fault' },
        { signal: AbortSignal.timeout(30_000) },
      );
      const body = response.body;
      if (response.status !== 200 || !body.data?.message_id) {
        sendFailures.push(`${to}: ${response.status} ${JSON.stringify(body)}`);
        return;
      }
      sent.push({ to, text, messageId: body.data.message_id, cost: body.data.cost ?? Number.NaN });
    } catch (error) {
      sendFailures.push(`${to}: ${String(error)}`);
    }
  }

  async function sendAll(): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < MESSAGES) await sendOne(next++);
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }

  /** Waits for ~300 accepted parts, SIGKILLs the dispatcher, takes stock, and starts a new one. */
  async function killAndRespawn(sending: { done: boolean }): Promise<void> {
    kill = await killDispatcherMidway({
      ...(fault as FaultStack),
      killAtAccepted: KILL_AT_ACCEPTED,
      totalParts: MESSAGES,
      numbers: ourNumbers,
      recordedParts: () => recordedParts(db, { column: 'company_id', id: company.company_id }),
      timeoutMs: KILL_TIMEOUT_MS,
      sendingDone: () => sending.done,
    });
    mark('respawned');
  }

  async function finalCount(): Promise<number> {
    const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM messages WHERE company_id = $1 AND status = ANY($2::text[])`, [
      company.company_id,
      FINAL,
    ]);
    return Number(rows[0].n);
  }

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Fault', OPENING_BALANCE);
    db = new Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
    await db.query(`SET TIME ZONE 'UTC'`);
    fault = await startFaultStack({ name: 'fault', apps: ['gateway', 'smsc-simulator'], maxUnrecorded: MAX_UNRECORDED });

    started = Date.now();
    const sending = { done: false };
    // Handled at once, thrown after the sends: a failure here must not go unhandled meanwhile.
    const killing = killAndRespawn(sending).then(
      () => undefined,
      (error: unknown) => error,
    );
    await sendAll();
    sending.done = true;
    mark('sent');
    const killFailure = await killing;
    if (killFailure) throw killFailure;
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    while (Date.now() < deadline && (await finalCount()) < sent.length) await sleep(500);
    mark('settled');
    // A resubmission that got past the carrier's duplicate filter would reach a handset after its message is final.
    await sleep(1_000);
  }, 360_000);

  afterAll(async () => {
    // One line of context for whoever reads the run: timings, the kill, the carrier's counters.
    const carrier = await fault?.simulator.stats().catch(String);
    console.log(JSON.stringify({ timeline, kill, simulator: carrier, dispatchers: dispatcherWarnings(fault?.dispatchers ?? []) }));
    await fault?.stop();
    await db?.end();
  });

  it('sends to 1000 valid numbers, each accepted and charged once', () => {
    expect([...ourNumbers].filter((to) => !parsePhoneNumber(to).ok)).toEqual([]);
    expect(sendFailures).toEqual([]);
    expect(sent).toHaveLength(MESSAGES);
    expect(new Set(sent.map((s) => s.messageId)).size).toBe(MESSAGES);
  });

  it('killed the dispatcher while parts were flowing, then ran a new one', () => {
    expect(kill).toBeDefined();
    expect(fault?.dispatchers).toHaveLength(2);
    expect(kill?.acceptedAtTrigger).toBeGreaterThanOrEqual(KILL_AT_ACCEPTED);
    expect(kill?.acceptedByCarrier).toBeLessThan(MESSAGES);
    // What reached the carrier but was not recorded is what the new dispatcher must resubmit.
    expect(kill?.recorded).toBeLessThanOrEqual(kill?.acceptedByCarrier ?? 0);
  });

  it('ends every message in exactly one final state: delivered, with every part delivered', async () => {
    const report = await finalStateReport(db, { column: 'company_id', id: company.company_id }, await handsets(), kill?.at);
    expect(report).toEqual({
      messages: { delivered: MESSAGES },
      parts: { delivered: MESSAGES },
      stuck: [],
    });
    const { rows: timestamps } = await db.query<{ missing: string }>(
      `SELECT count(*) AS missing FROM messages WHERE company_id = $1 AND (sent_at IS NULL OR completed_at IS NULL)`,
      [company.company_id],
    );
    expect(Number(timestamps[0].missing)).toBe(0);
    // The state-change events committed with the transitions: never two different final states for a message.
    expect(await messagesWithTwoFinalEvents(db, { column: 'company_id', id: company.company_id })).toEqual([]);
  });

  it('shows exactly one copy of each message on each handset', async () => {
    const received = (await handsets()).filter((m) => ourNumbers.has(m.to));
    expect(wrongCopies(received, sent)).toEqual([]);
    expect(received).toHaveLength(MESSAGES);
  });

  it('resubmits no more parts than were unrecorded at the kill, never more than the bound', async () => {
    const after = await stats();
    const inFlight = (kill?.acceptedByCarrier ?? 0) - (kill?.recorded ?? 0);
    // Each resubmission is dropped by the carrier's duplicate filter (same reference and bytes).
    expect(after.duplicates_dropped).toBeLessThanOrEqual(MAX_UNRECORDED);
    expect(after.duplicates_dropped).toBeLessThanOrEqual(inFlight);
    expect({ accepted: after.accepted >= MESSAGES, rejected: after.rejected, throttled: after.throttled }).toEqual({
      accepted: true,
      rejected: 0,
      throttled: 0,
    });
  });

  it('keeps the money exact: balance = start − charges + refunds, and charges = 1000 × price', async () => {
    const ledger = await ledgerTotals(db, company.company_id);
    const { rows: prices } = await db.query<{ prices: string; price: string; total_cost: string; refunded: string }>(
      `SELECT count(DISTINCT price_per_part) AS prices, min(price_per_part)::text AS price, sum(cost)::text AS total_cost,
              sum(refunded)::text AS refunded
       FROM messages WHERE company_id = $1`,
      [company.company_id],
    );
    const price = parseMoney(prices[0].price);
    expect(ledger).toMatchObject({ charge_entries: String(MESSAGES), other_entries: '0' });
    expect(Number(prices[0].prices)).toBe(1);
    expect(parseMoney(ledger.start)).toBe(parseMoney(OPENING_BALANCE));
    expect(parseMoney(ledger.charges)).toBe(BigInt(MESSAGES) * price);
    expect(parseMoney(prices[0].total_cost)).toBe(parseMoney(ledger.charges));
    // Everything was delivered: nothing to refund.
    expect(parseMoney(ledger.refunds)).toBe(0n);
    expect(parseMoney(prices[0].refunded)).toBe(0n);
    expect(parseMoney(ledger.balance)).toBe(parseMoney(ledger.start) - parseMoney(ledger.charges) + parseMoney(ledger.refunds));
    expect(ledger.expected).toBe(ledger.balance);
    expect(ledger.last_balance_after).toBe(ledger.balance);
    // What the API answered for each send is the same price, to the unit.
    expect(sent.filter((s) => parseMoney(String(s.cost)) !== price)).toEqual([]);
  });
});
