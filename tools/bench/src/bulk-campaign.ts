// A bulk campaign as the benchmarks drive it (bulk, and otp's campaign case): POST /sms/send-bulk
// timed from sending the request to the whole answer, its way through the dispatcher followed in
// the run's database, a small one to warm the stack up, and what the SMSC simulator says it
// received. Its exact figures from the database are in campaign-figures.ts.
import { performance } from 'node:perf_hooks';
import type { Client } from 'pg';
import { say } from './bench-process';
import type { Company } from './http-load';
import { wasInterrupted } from './http-load';
import { jsonRequestHeaders } from './request-headers';

/** A campaign's request, serialised before the clock starts. */
export interface CampaignRequest {
  recipients: number;
  json: string;
  /** Size of the JSON body in MB (10^6 bytes). */
  requestMB: number;
}

/** The gateway's answer to one campaign. */
export interface Posted {
  recipients: number;
  requestMB: number;
  /** HTTP status; null when no answer came (connection error or timeout). */
  status: number | null;
  /** From sending the request to the last byte of the answer. */
  ms: number;
  answeredAt: Date;
  campaignId: string | null;
  /** The start of a non-2xx answer, or the connection error. */
  error: string | null;
}

const POST_TIMEOUT_MS = 300_000;

/** Mode 1 of POST /sms/send-bulk: one text to `recipients`, batch_size left at its default. */
export function campaignRequest(recipients: string[], options: { scheduledTime?: Date } = {}): CampaignRequest {
  const body: Record<string, unknown> = { recipients, message: 'Spring sale: 20% off everything until Sunday', from: 'Bench' };
  if (options.scheduledTime) body['scheduled_time'] = options.scheduledTime.toISOString();
  const json = JSON.stringify(body);
  return { recipients: recipients.length, json, requestMB: Math.round((Buffer.byteLength(json) / 1e6) * 10) / 10 };
}

export async function postCampaign(gatewayUrl: string, company: Company, request: CampaignRequest): Promise<Posted> {
  const { recipients, requestMB } = request;
  const headers = jsonRequestHeaders(company);
  const started = performance.now();
  try {
    const response = await fetch(`${gatewayUrl}/sms/send-bulk`, { method: 'POST', headers, body: request.json, signal: AbortSignal.timeout(POST_TIMEOUT_MS) });
    const text = await response.text();
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const answeredAt = new Date();
    if (!response.ok) return { recipients, requestMB, status: response.status, ms, answeredAt, campaignId: null, error: text.slice(0, 500) };
    const campaignId = (JSON.parse(text) as { data?: { campaign_id?: string } }).data?.campaign_id ?? null;
    return { recipients, requestMB, status: response.status, ms, answeredAt, campaignId, error: null };
  } catch (error) {
    const ms = Math.round((performance.now() - started) * 10) / 10;
    return { recipients, requestMB, status: null, ms, answeredAt: new Date(), campaignId: null, error: (error as Error).message };
  }
}

/** How far a campaign has got, from the messages' states alone (cheap enough to poll). */
interface Progress {
  messages: number;
  /** Messages past `queued`: a one-part message leaves it when its part is submitted. */
  submitted: number;
  /** Messages in a final state: their receipt stored and applied. */
  final: number;
}

async function progress(db: Client, campaignId: string): Promise<Progress> {
  const { rows } = await db.query<{ messages: string; submitted: string; final: string }>(
    `SELECT count(*) AS messages, count(*) FILTER (WHERE status <> 'queued') AS submitted,
            count(*) FILTER (WHERE status NOT IN ('scheduled', 'queued', 'sent')) AS final
     FROM messages WHERE campaign_id = $1`,
    [campaignId],
  );
  return { messages: Number(rows[0].messages), submitted: Number(rows[0].submitted), final: Number(rows[0].final) };
}

/** What the benchmark saw while following a campaign. */
export interface Followed {
  /** Seconds after acceptance at which a poll first found every message submitted / final; null: not seen. */
  seenSubmittedAfterS: number | null;
  seenFinalAfterS: number | null;
  /** Seconds after acceptance at which the simulator's GET /stats first counted every part accepted; null: not seen. */
  simulatorGotAllAfterS: number | null;
  last: Progress;
  /** Parts the simulator accepted for this campaign at the last poll. */
  simulatorAccepted: number | null;
  timedOut: boolean;
  /** Polls of the database. */
  polls: number;
  /** The polls' own time in the database: what the benchmark added to the run's load. */
  pollQueryMsTotal: number;
  /** performance.now() of the last database poll. */
  lastDatabasePollAt: number;
}

export interface FollowOptions {
  pollMs: number;
  timeoutS: number;
  /** The simulator's inspection API, and its `accepted` count before the campaign. */
  simulator?: { url: string; acceptedBefore: number };
}

/**
 * While the simulator has not counted every part, the database is counted only this often: a count
 * over the whole campaign is PostgreSQL's work taken from the run it measures (bench/results/README.md
 * says how much). The figures come from the rows' timestamps, not the polls.
 */
const DATABASE_POLL_WHILE_SENDING_MS = 5_000;

/** One poll of the simulator and, when due, the database: what it saw, and when, into `followed`. */
async function poll(db: Client, campaignId: string, total: number, options: FollowOptions, followed: Followed, since: () => number): Promise<void> {
  await pollSimulator(total, options, followed, since);
  const sending = options.simulator !== undefined && followed.simulatorGotAllAfterS === null;
  if (sending && followed.polls > 0 && performance.now() - followed.lastDatabasePollAt < DATABASE_POLL_WHILE_SENDING_MS) return;
  const started = performance.now();
  followed.last = await progress(db, campaignId);
  followed.polls += 1;
  followed.lastDatabasePollAt = performance.now();
  followed.pollQueryMsTotal = Math.round(followed.pollQueryMsTotal + followed.lastDatabasePollAt - started);
  if (followed.seenSubmittedAfterS === null && followed.last.submitted >= total) followed.seenSubmittedAfterS = since();
  if (followed.last.final >= total) followed.seenFinalAfterS = since();
}

async function pollSimulator(total: number, options: FollowOptions, followed: Followed, since: () => number): Promise<void> {
  if (!options.simulator || followed.simulatorGotAllAfterS !== null) return;
  const accepted = (await simulatorStats(options.simulator.url))?.['accepted'];
  if (accepted === undefined) return;
  followed.simulatorAccepted = accepted - options.simulator.acceptedBefore;
  if (followed.simulatorAccepted >= total) followed.simulatorGotAllAfterS = since();
}

/** Polls every `pollMs` until every message of the campaign is final, or `timeoutS` after acceptance. */
export async function followCampaign(db: Client, campaignId: string, total: number, acceptedAt: Date, options: FollowOptions): Promise<Followed> {
  const since = () => Math.round((Date.now() - acceptedAt.getTime()) / 100) / 10;
  const followed: Followed = {
    seenSubmittedAfterS: null,
    seenFinalAfterS: null,
    simulatorGotAllAfterS: null,
    last: { messages: 0, submitted: 0, final: 0 },
    simulatorAccepted: null,
    timedOut: false,
    polls: 0,
    pollQueryMsTotal: 0,
    lastDatabasePollAt: 0,
  };
  let lastSaid = Date.now();
  for (;;) {
    await poll(db, campaignId, total, options, followed, since);
    if (followed.seenFinalAfterS !== null) return followed;
    if (since() >= options.timeoutS || wasInterrupted()) return { ...followed, timedOut: true };
    if (Date.now() - lastSaid >= 10_000) {
      const { messages, submitted, final } = followed.last;
      const atSimulator = followed.simulatorAccepted === null ? '' : `, ${followed.simulatorAccepted} at the simulator`;
      say(`  ${since()} s: ${messages} messages made, ${submitted} submitted${atSimulator}, ${final} final`);
      lastSaid = Date.now();
    }
    await new Promise((wake) => setTimeout(wake, options.pollMs));
  }
}

/** Recipients of a warm-up campaign: enough to run every step of a campaign's way a few times. */
export const WARMUP_RECIPIENTS = 2_000;
const WARMUP_TIMEOUT_S = 60;

/** `count` recipients, each the next of `next`. */
export const recipients = (count: number, next: () => string): string[] => Array.from({ length: count }, next);

/** A small campaign followed to its end, then ANALYZE: the next figures come from a warm stack and a database with statistics. */
export async function warmUpCampaign(db: Client, gatewayUrl: string, company: Company, next: () => string, pollMs: number): Promise<void> {
  say(`warming up with a campaign of ${WARMUP_RECIPIENTS} recipients`);
  const posted = await postCampaign(gatewayUrl, company, campaignRequest(recipients(WARMUP_RECIPIENTS, next)));
  if (!posted.campaignId) throw new Error(`the warm-up campaign was refused: ${posted.status} ${posted.error}`);
  const followed = await followCampaign(db, posted.campaignId, WARMUP_RECIPIENTS, posted.answeredAt, { pollMs, timeoutS: WARMUP_TIMEOUT_S });
  if (followed.timedOut) throw new Error(`the warm-up campaign did not finish within ${WARMUP_TIMEOUT_S} s: ${JSON.stringify(followed.last)}`);
  await db.query('ANALYZE');
}

/** GET /stats of the simulator: submit_sm received and accepted, receipts sent. */
export async function simulatorStats(simulatorUrl: string): Promise<Record<string, number> | null> {
  try {
    const response = await fetch(`${simulatorUrl}/stats`, { signal: AbortSignal.timeout(5_000) });
    return response.ok ? ((await response.json()) as Record<string, number>) : null;
  } catch {
    return null;
  }
}

const SETTLE_TIMEOUT_S = 120;

/**
 * Cancels what is left of a campaign (POST /sms/campaigns/{id}/cancel: its batches not started
 * yet) and waits until no batch of it is still being dispatched and the last receipts of its
 * submitted messages are in: the stack is then back to carrying no campaign. Throws if that does
 * not come within SETTLE_TIMEOUT_S.
 */
export async function stopCampaign(db: Client, gatewayUrl: string, company: Company, campaignId: string): Promise<void> {
  const response = await fetch(`${gatewayUrl}/sms/campaigns/${campaignId}/cancel`, {
    method: 'POST',
    headers: jsonRequestHeaders(company),
    body: '{}',
    signal: AbortSignal.timeout(30_000),
  });
  const answer = await response.text();
  // 409: nothing left to cancel, every batch had started.
  if (!response.ok && response.status !== 409) throw new Error(`cancelling campaign ${campaignId} answered ${response.status}: ${answer.slice(0, 300)}`);
  const started = Date.now();
  while (Date.now() - started < SETTLE_TIMEOUT_S * 1000 && !wasInterrupted()) {
    const { rows } = await db.query<{ busy: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM campaign_batches WHERE campaign_id = $1 AND status = 'processing')
           OR EXISTS (SELECT 1 FROM messages WHERE campaign_id = $1 AND status IN ('queued', 'sent')) AS busy`,
      [campaignId],
    );
    if (!rows[0].busy) return;
    await new Promise((wake) => setTimeout(wake, 500));
  }
  if (!wasInterrupted()) throw new Error(`campaign ${campaignId} was still being dispatched ${SETTLE_TIMEOUT_S} s after it was cancelled`);
}
