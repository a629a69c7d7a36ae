// Several SMSC simulators as the carriers of one stack (gateway, sms-dispatcher, billing), in a
// database of the spec's own: carriers are global to a database (decision 0057). The carriers and
// their routes are made before the stack starts, so the dispatcher makes no `default` carrier.
import {
  admin,
  createOwnDatabase,
  eventually,
  startSmscSimulatorProcess,
  startStack,
  type HandsetMessage,
  type OwnDatabase,
  type RunningStack,
  type SmscSimulatorProcess,
} from '@mp/testing';
import { Client } from 'pg';
import { ApiClient, type Company } from './api-client';

export interface CarrierSpec {
  /** The simulator's settings (SMSC_*), over the receipt delay of 50 ms. */
  simulator?: Record<string, string>;
  /** carrier:create options besides host, port and credentials, e.g. ['--window', '20']. */
  options?: string[];
}

export interface CarrierFleet {
  db: Client;
  api: ApiClient;
  env: Record<string, string>;
  company: Company;
  simulators: Record<string, SmscSimulatorProcess>;
  stop(): Promise<void>;
}

/** The counters of GET /stats that these specs read. */
export interface SimulatorStats {
  submits: number;
  accepted: number;
  throttled: number;
  rejected: number;
  duplicates_dropped: number;
  /** deliver_sm receipts written to a bind. */
  receipts_sent: number;
}

export interface FleetOptions {
  carriers: Record<string, CarrierSpec>;
  /** route:set argument lists. */
  routes: string[][];
  /** The company's opening balance. */
  balance: string;
  /** More variables for the stack, e.g. CARRIER_RETRY_BUDGET. */
  stackEnv?: Record<string, string>;
}

/** Starts one simulator per carrier, creates the carriers and their routes, then the stack; resolves once every carrier is bound. */
export async function startCarrierFleet(name: string, { carriers, routes, balance, stackEnv }: FleetOptions): Promise<CarrierFleet> {
  const own: OwnDatabase = await createOwnDatabase(name.replace(/-/g, '_'));
  const env = { DATABASE_URL: own.url, QUEUE_PREFIX: `mp-${name}-${process.env['MP_TEST_RUN']}` };
  const simulators: Record<string, SmscSimulatorProcess> = {};
  let stack: RunningStack | undefined;
  const db = new Client({ connectionString: own.url });
  const stop = async (): Promise<void> => {
    await stack?.stop();
    await Promise.all(Object.values(simulators).map((simulator) => simulator.stop()));
    await db.end().catch(() => undefined);
    await own.drop();
  };
  try {
    // Each admin command is a process of its own: those that do not depend on each other run together.
    const started = Promise.all(
      Object.entries(carriers).map(async ([carrier, spec]) => {
        simulators[carrier] = await startSmscSimulatorProcess({ SMSC_RECEIPT_DELAY_MS: '50', ...spec.simulator });
      }),
    );
    started.catch(() => undefined); // awaited below; a failure meanwhile is not unhandled
    await admin(['db:migrate'], env);
    await Promise.all([db.connect(), started]);
    const [created] = await Promise.all([
      admin(['company:create', '--name', name, '--balance', balance], env),
      ...Object.entries(carriers).map(([carrier, spec]) => {
        const connection = ['--host', '127.0.0.1', '--port', String(simulators[carrier].smppPort), '--system-id', 'messaging', '--password', 'secret'];
        return admin(['carrier:create', '--name', carrier, ...connection, '--binds', '1', ...(spec.options ?? [])], env);
      }),
    ]);
    const company = created as unknown as Company;
    await Promise.all(routes.map((route) => admin(['route:set', ...route], env)));
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'billing'], env: { ...env, CARRIER_POLL_MS: '300', OUTBOX_SWEEP_MS: '1000', ...stackEnv } });
    const api = new ApiClient(
      () => (stack as RunningStack).gatewayUrl,
      () => company,
    );
    await allBound(env, Object.keys(carriers));
    return { db, api, env, company, simulators, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

/** Waits until `admin carrier:list` shows a bound bind for each carrier (the bind states the dispatcher publishes). */
export async function allBound(env: Record<string, string>, names: string[]): Promise<void> {
  type Listed = { carriers: { name: string; bound: number | null }[] };
  const listed = await eventually(
    async () => (await admin(['carrier:list'], env)) as unknown as Listed,
    (list) => names.every((name) => (list.carriers.find((c) => c.name === name)?.bound ?? 0) >= 1),
    60_000,
  );
  const bound = Object.fromEntries(listed.carriers.map((c) => [c.name, c.bound]));
  if (!names.every((name) => (bound[name] ?? 0) >= 1)) throw new Error(`carriers not bound: ${JSON.stringify(bound)}`);
}

/** POST /sms/send-bulk with one text to every number; the campaign's id. */
export async function sendCampaign(api: ApiClient, recipients: string[], message: string): Promise<string> {
  const accepted = await api.post<{ data: { campaign_id: string; successful: number } }>('/sms/send-bulk', { recipients, message, from: 'Shop' });
  if (accepted.status !== 200 || accepted.body.data.successful !== recipients.length) {
    throw new Error(`the campaign was not accepted: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  }
  return accepted.body.data.campaign_id;
}

export interface CampaignParts {
  messages: number;
  /** Parts by status and carrier, e.g. { 'delivered A': 1400, 'submitted A': 3 }. */
  byStatus: Record<string, number>;
}

/** The campaign's messages made so far and its parts counted by status and carrier. */
export async function campaignParts(db: Client, campaignId: string): Promise<CampaignParts> {
  const { rows } = await db.query<{ key: string; n: number }>(
    `SELECT p.status || ' ' || coalesce(p.carrier, '-') AS key, count(*)::int AS n
       FROM messages m JOIN message_parts p ON p.message_id = m.id WHERE m.campaign_id = $1 GROUP BY 1 ORDER BY 1`,
    [campaignId],
  );
  const { rows: made } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE campaign_id = $1`, [campaignId]);
  return { messages: made[0].n, byStatus: Object.fromEntries(rows.map((row) => [row.key, row.n])) };
}

/** Every part of the campaign delivered: the state the receipts bring (timeout: ms). */
export async function allDelivered(db: Client, campaignId: string, total: number, timeoutMs = 120_000): Promise<CampaignParts> {
  return eventually(
    () => campaignParts(db, campaignId),
    (parts) => parts.messages === total && Object.entries(parts.byStatus).every(([key]) => key.startsWith('delivered ')),
    timeoutMs,
  );
}

/** Parts of the campaign per carrier. */
export function perCarrier(parts: CampaignParts): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [key, n] of Object.entries(parts.byStatus)) {
    const carrier = key.split(' ')[1];
    counts[carrier] = (counts[carrier] ?? 0) + n;
  }
  return counts;
}

export async function stats(simulator: SmscSimulatorProcess): Promise<SimulatorStats> {
  return (await (await fetch(`${simulator.httpUrl}/stats`)).json()) as SimulatorStats;
}

/** Everything the simulator's handsets received. */
export async function handsets(simulator: SmscSimulatorProcess): Promise<HandsetMessage[]> {
  return (await (await fetch(`${simulator.httpUrl}/messages`)).json()) as HandsetMessage[];
}

/** Copies of a message per number, over the given handsets' messages. */
export function copiesPerNumber(...received: HandsetMessage[][]): Map<string, number> {
  const copies = new Map<string, number>();
  for (const message of received.flat()) copies.set(message.to, (copies.get(message.to) ?? 0) + 1);
  return copies;
}

/** The numbers whose copies are not exactly one (empty when every number got one). */
export function notOnce(numbers: string[], copies: Map<string, number>): Record<string, number> {
  return Object.fromEntries(numbers.filter((n) => copies.get(n) !== 1).map((n) => [n, copies.get(n) ?? 0]));
}

/** `count` distinct French mobile numbers under `prefix` (e.g. '+3361'), zero-padded to nine digits after +33. */
export function numbersUnder(prefix: string, count: number): string[] {
  const width = 12 - prefix.length;
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(width, '0')}`);
}
