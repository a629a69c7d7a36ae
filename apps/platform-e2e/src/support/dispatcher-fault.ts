// What the SIGKILL fault tests share: the simulator's inspection API, killing the sms-dispatcher
// once the carrier has accepted enough parts (and starting another), and the company's ledger
// totals that the money checks compare.
import { freePort, startAppProcess, startStack, type AppProcess, type RunningStack } from '@mp/testing';
import type { Client } from 'pg';
import { simulatorMessages } from './api-client';

export interface SimulatorStats {
  submits: number;
  accepted: number;
  duplicates_dropped: number;
  throttled: number;
  rejected: number;
  receipts_sent: number;
  binds: number;
  binds_refused: number;
  max_outstanding: number;
}

export interface Handset {
  message_id: string;
  to: string;
  text: string;
  parts: number;
  received_at: string;
}

/** What the test saw at the moment the dispatcher was killed. */
export interface KillSnapshot {
  /** When SIGKILL was sent (UTC, as the diagnostics' database times are). */
  at: string;
  /** simulator `accepted` when the kill was decided (the trigger). */
  acceptedAtTrigger: number;
  /** Once the dispatcher had exited: parts of this run the handsets show (each accepted once). */
  acceptedByCarrier: number;
  /** ...and parts the dead dispatcher had recorded as submitted. */
  recorded: number;
}

/** Message states nothing changes any more. */
export const FINAL_STATES = ['delivered', 'undelivered', 'expired', 'rejected', 'failed', 'cancelled'];

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function simulatorClient(simulatorUrl: string) {
  return {
    stats: async (): Promise<SimulatorStats> => (await (await fetch(`${simulatorUrl}/stats`)).json()) as SimulatorStats,
    handsets: () => simulatorMessages<Handset>(simulatorUrl),
  };
}

/** The stack of a fault test: its sms-dispatcher runs apart, outside the dev-stack, which would stop everything when one app dies. */
export interface FaultStack {
  stack: RunningStack;
  simulator: ReturnType<typeof simulatorClient>;
  /** The running dispatcher is the last one. */
  dispatchers: AppProcess[];
  dispatcherEnv: Record<string, string>;
  /** Stops every dispatcher, then the stack. */
  stop(): Promise<void>;
}

export interface FaultStackOptions {
  /** Suffix of the test's own queue prefix: no job another test file left in the run's queues reaches its dispatcher. */
  name: string;
  /** The dev-stack's apps besides the dispatcher (the gateway and the simulator at least). */
  apps: string[];
  /** Variables for the dev-stack (e.g. the simulator's latency). */
  stackEnv?: Record<string, string>;
  /** The dispatcher's SUBMIT_MAX_UNRECORDED: the most parts a kill can leave in doubt. */
  maxUnrecorded: number;
}

/** Two binds of window 20, the dispatcher's defaults, written out so the tests' bounds can be read next to them. */
export const SMPP_WINDOW = 20;
export const SMPP_BINDS = 2;

export async function startFaultStack(options: FaultStackOptions): Promise<FaultStack> {
  const smppPort = String(await freePort());
  const simulatorPort = await freePort();
  const queuePrefix = `${process.env['QUEUE_PREFIX'] ?? 'mp-test'}-${options.name}`;
  const stack = await startStack({
    apps: options.apps,
    env: { ...options.stackEnv, SMSC_PORT: smppPort, SMSC_SIMULATOR_PORT: String(simulatorPort), QUEUE_PREFIX: queuePrefix },
  });
  const dispatcherEnv = {
    SMSC_PORT: smppPort,
    QUEUE_PREFIX: queuePrefix,
    SMPP_WINDOW: String(SMPP_WINDOW),
    SMPP_BINDS: String(SMPP_BINDS),
    SUBMIT_MAX_UNRECORDED: String(options.maxUnrecorded),
    OUTBOX_SWEEP_MS: '1000',
    LOG_LEVEL: 'warn',
  };
  const dispatchers = [await startAppProcess({ app: 'sms-dispatcher', env: dispatcherEnv })];
  return {
    stack,
    simulator: simulatorClient(`http://127.0.0.1:${simulatorPort}`),
    dispatchers,
    dispatcherEnv,
    stop: async () => {
      await Promise.all(dispatchers.map((dispatcher) => dispatcher.stop()));
      await stack.stop();
    },
  };
}

/** Parts of the scope the dispatcher has recorded as submitted (their carrier id stored). */
export async function recordedParts(db: Client, scope: MessageScope): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM message_parts p JOIN messages m ON m.id = p.message_id
     WHERE m.${scope.column} = $1 AND p.carrier_message_id IS NOT NULL`,
    [scope.id],
  );
  return Number(rows[0].n);
}

export interface KillPlan extends Pick<FaultStack, 'simulator' | 'dispatchers' | 'dispatcherEnv'> {
  /** Kill once the simulator has accepted this many parts. */
  killAtAccepted: number;
  /** Every part the run sends: the kill must come before the carrier has them all. */
  totalParts: number;
  /** The numbers of this run, to count what reached their handsets. */
  numbers: ReadonlySet<string>;
  /** Parts the dispatcher had recorded as submitted (read right after the kill). */
  recordedParts: () => Promise<number>;
  timeoutMs: number;
  /** True once the test has nothing more to send (a kill can then no longer come in time). */
  sendingDone?: () => boolean;
}

/** Waits until the carrier has accepted `killAtAccepted` parts, SIGKILLs the dispatcher, takes stock, and starts a new one. */
export async function killDispatcherMidway(plan: KillPlan): Promise<KillSnapshot> {
  const deadline = Date.now() + plan.timeoutMs;
  for (;;) {
    const { accepted } = await plan.simulator.stats();
    if (accepted >= plan.killAtAccepted) {
      const at = new Date().toISOString();
      const exit = await plan.dispatchers[plan.dispatchers.length - 1].kill('SIGKILL');
      if (exit.signal !== 'SIGKILL') throw new Error(`the dispatcher ended with ${JSON.stringify(exit)}, not by SIGKILL`);
      // Let the simulator read what reached it before the sockets closed.
      await sleep(500);
      const acceptedByCarrier = (await plan.simulator.handsets()).filter((m) => plan.numbers.has(m.to)).length;
      const snapshot = { at, acceptedAtTrigger: accepted, acceptedByCarrier, recorded: await plan.recordedParts() };
      plan.dispatchers.push(await startAppProcess({ app: 'sms-dispatcher', env: plan.dispatcherEnv }));
      return snapshot;
    }
    if ((plan.sendingDone?.() ?? true) && accepted >= plan.totalParts) throw new Error('every part was accepted before the kill could happen');
    if (Date.now() > deadline) {
      throw new Error(`only ${accepted} parts accepted by the carrier after ${plan.timeoutMs / 1000} s: the dispatcher is not sending`);
    }
    await sleep(20);
  }
}

/** Numbers whose handset shows anything but exactly one copy of the text it was sent. */
export function wrongCopies(received: Handset[], sent: { to: string; text: string }[]): { to: string; copies: string[] }[] {
  const copies = new Map<string, Handset[]>();
  for (const message of received) copies.set(message.to, [...(copies.get(message.to) ?? []), message]);
  return sent
    .filter((s) => copies.get(s.to)?.length !== 1 || copies.get(s.to)?.[0].text !== s.text)
    .map((s) => ({ to: s.to, copies: (copies.get(s.to) ?? []).map((m) => m.text) }));
}

/** The last lines at warn level or above of each dispatcher: printed with the run's summary. */
export function dispatcherWarnings(dispatchers: AppProcess[]) {
  return dispatchers.map((d) => ({
    pid: d.pid,
    warnings: d
      .logs()
      .split('\n')
      .filter((line) => /"level":(40|50|60)/.test(line))
      .slice(-10),
  }));
}

export interface LedgerTotals {
  start: string;
  charges: string;
  refunds: string;
  charge_entries: string;
  refund_entries: string;
  other_entries: string;
  /** start − charges + refunds, computed by PostgreSQL. */
  expected: string;
  balance: string;
  last_balance_after: string;
}

/** A company's ledger summed by kind, with its balance row and the last entry's running balance. */
export async function ledgerTotals(db: Client, companyId: string): Promise<LedgerTotals> {
  const { rows } = await db.query<LedgerTotals>(
    `SELECT coalesce(sum(amount) FILTER (WHERE kind = 'topup'), 0)::text AS start,
            coalesce(-sum(amount) FILTER (WHERE kind = 'charge'), 0)::text AS charges,
            coalesce(sum(amount) FILTER (WHERE kind = 'refund'), 0)::text AS refunds,
            count(*) FILTER (WHERE kind = 'charge') AS charge_entries,
            count(*) FILTER (WHERE kind = 'refund') AS refund_entries,
            count(*) FILTER (WHERE kind NOT IN ('topup', 'charge', 'refund')) AS other_entries,
            (coalesce(sum(amount) FILTER (WHERE kind = 'topup'), 0) - coalesce(-sum(amount) FILTER (WHERE kind = 'charge'), 0)
               + coalesce(sum(amount) FILTER (WHERE kind = 'refund'), 0))::text AS expected,
            (SELECT balance::text FROM balances WHERE company_id = $1) AS balance,
            (SELECT balance_after::text FROM ledger_entries WHERE company_id = $1 ORDER BY id DESC LIMIT 1) AS last_balance_after
     FROM ledger_entries WHERE company_id = $1`,
    [companyId],
  );
  return rows[0];
}

/** Which messages a check looks at: a company's, or a campaign's. */
export interface MessageScope {
  column: 'company_id' | 'campaign_id';
  id: string;
}

export interface FinalStateReport {
  /** Messages by status. */
  messages: Record<string, number>;
  /** Parts by status. */
  parts: Record<string, number>;
  /** Up to 20 messages not final, each with what was recorded of its part and receipt, and when the carrier accepted it. */
  stuck: Record<string, unknown>[];
}

/** Messages and parts of the scope counted by state, and a diagnosis of any message not yet final. */
export async function finalStateReport(db: Client, scope: MessageScope, handsets: Handset[], killedAt?: string): Promise<FinalStateReport> {
  const count = (rows: { status: string; n: string }[]) => Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  const { rows: messages } = await db.query<{ status: string; n: string }>(
    `SELECT status, count(*) AS n FROM messages m WHERE m.${scope.column} = $1 GROUP BY status ORDER BY status`,
    [scope.id],
  );
  const { rows: parts } = await db.query<{ status: string; n: string }>(
    `SELECT p.status, count(*) AS n FROM message_parts p JOIN messages m ON m.id = p.message_id
     WHERE m.${scope.column} = $1 GROUP BY p.status ORDER BY p.status`,
    [scope.id],
  );
  const { rows: stuck } = await db.query<Record<string, unknown>>(
    `SELECT m.recipient, m.status, p.status AS part_status,
            CASE WHEN p.status = 'pending' THEN 'never submitted'
                 WHEN r.carrier_message_id IS NULL THEN 'no receipt stored'
                 WHEN r.applied_at IS NULL THEN 'receipt stored, never applied'
                 ELSE 'receipt applied' END AS diagnosis,
            p.carrier_message_id, r.stat AS receipt, r.applied_at IS NOT NULL AS receipt_applied,
            to_char(m.created_at, 'HH24:MI:SS.MS') AS created, to_char(p.submitted_at, 'HH24:MI:SS.MS') AS recorded,
            to_char(r.received_at, 'HH24:MI:SS.MS') AS receipt_received
     FROM messages m JOIN message_parts p ON p.message_id = m.id
     LEFT JOIN carrier_receipts r ON r.carrier_message_id = p.carrier_message_id
     WHERE m.${scope.column} = $1 AND NOT (m.status = ANY($2::text[]))
     ORDER BY m.recipient LIMIT 20`,
    [scope.id, FINAL_STATES],
  );
  // When the carrier accepted each stuck part (its receipt follows SMSC_RECEIPT_DELAY_MS later), against the kill.
  const acceptedAt = new Map(handsets.map((m) => [m.to, m.received_at]));
  for (const row of stuck) {
    const at = acceptedAt.get(String(row['recipient']));
    row['carrier_accepted'] = at ? at.slice(11, 23) : null;
    row['kill'] = killedAt?.slice(11, 23) ?? null;
  }
  return { messages: count(messages), parts: count(parts), stuck };
}

/** Messages of the scope with two different final-state events committed (a message.status event is made only for a message with a webhook_url). */
export async function messagesWithTwoFinalEvents(db: Client, scope: MessageScope): Promise<{ message_id: string }[]> {
  const { rows } = await db.query<{ message_id: string }>(
    `SELECT o.data->>'messageId' AS message_id
     FROM outbox o JOIN messages m ON m.id::text = o.data->>'messageId'
     WHERE m.${scope.column} = $1 AND o.job_name = 'message.status' AND o.data->>'status' = ANY($2::text[])
     GROUP BY 1 HAVING count(DISTINCT o.data->>'status') > 1`,
    [scope.id, FINAL_STATES],
  );
  return rows;
}
