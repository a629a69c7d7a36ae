// The traffic of a fault test: single sends at a steady concurrency, each request bounded by a
// client timeout, every answer recorded with its time, and a send answered 503 (or cut off by a
// crashed gateway, when it carries an Idempotency-Key) tried again as a client would.
import { randomUUID } from 'node:crypto';
import { ApiClient } from '../../support/api-client';

/** One HTTP answer the load saw: a status, 'timeout' (the client gave up) or 'network' (connection refused or cut). */
export interface Attempt {
  at: number;
  path: string;
  outcome: number | 'timeout' | 'network';
}

export interface Accepted {
  to: string;
  text: string;
  messageId: string;
}

export const CLIENT_TIMEOUT_MS = 15_000;
const RETRY_PAUSE_MS = 300;
/** How long one message is tried for before the load gives up on it (a failure the test reports). */
const GIVE_UP_MS = 180_000;

export class AttemptLog {
  readonly attempts: Attempt[] = [];

  async call<B>(path: string, request: () => Promise<{ status: number; body: B }>): Promise<{ status: number; body: B } | Attempt['outcome']> {
    try {
      const answer = await request();
      this.attempts.push({ at: Date.now(), path, outcome: answer.status });
      return answer;
    } catch (error) {
      const outcome = (error as Error).name === 'TimeoutError' ? 'timeout' : 'network';
      this.attempts.push({ at: Date.now(), path, outcome });
      return outcome;
    }
  }

  /** Answers counted by outcome, e.g. { "200": 580, "503": 12 }. */
  tally(from = 0, to = Number.POSITIVE_INFINITY): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const { at, outcome } of this.attempts) if (at >= from && at <= to) counts[String(outcome)] = (counts[String(outcome)] ?? 0) + 1;
    return counts;
  }

  /** The first answer 200 at or after `from` (epoch ms), if any. */
  firstSuccessAfter(from: number): number | undefined {
    return this.attempts.find((a) => a.at >= from && a.outcome === 200)?.at;
  }
}

export interface SmsLoadOptions {
  total: number;
  concurrency: number;
  numberAt: (i: number) => string;
  textAt: (i: number) => string;
  webhookUrl?: string;
  /** Send an Idempotency-Key (needs Redis) and try again after a timeout or a cut connection too. */
  idempotent: boolean;
}

export interface SmsLoadResult {
  accepted: Accepted[];
  /**
   * Sends whose retries were still answered 409 "still being processed" when the client gave up
   * (GIVE_UP_MS): whether the message was accepted is unknown to the client. A request a crashed
   * gateway cut off holds its key until its lease runs out (30 s); a retry then gets the
   * committed answer or runs (docs/decisions/0048-idempotency-leases-and-committed-answers.md).
   */
  inDoubt: string[];
  /** Sends given up on for any other reason (a failure the test reports). */
  givenUp: string[];
}

const isStillProcessing = (answer: { status: number; body: unknown }) => answer.status === 409 && /still being processed/.test(JSON.stringify(answer.body));

/** Sends `total` messages; resolves with those accepted (answered 200), those in doubt and those given up on. */
export async function sendSms(api: ApiClient, log: AttemptLog, options: SmsLoadOptions): Promise<SmsLoadResult> {
  const accepted: Accepted[] = [];
  const inDoubt: string[] = [];
  const givenUp: string[] = [];
  let next = 0;
  const sendOne = async (i: number): Promise<void> => {
    const to = options.numberAt(i);
    const text = options.textAt(i);
    const headers: Record<string, string> = options.idempotent ? { 'idempotency-key': randomUUID() } : {};
    const body = { to, message: text, from: 'Fault', ...(options.webhookUrl ? { webhook_url: options.webhookUrl } : {}) };
    const deadline = Date.now() + GIVE_UP_MS;
    for (;;) {
      const answer = await log.call('/sms/send', () =>
        api.post<{ data?: { message_id?: string } }>('/sms/send', body, { headers, signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) }),
      );
      if (typeof answer === 'object' && answer.status === 200 && answer.body.data?.message_id) {
        accepted.push({ to, text, messageId: answer.body.data.message_id });
        return;
      }
      const stillProcessing = typeof answer === 'object' && options.idempotent && isStillProcessing(answer);
      if (stillProcessing && Date.now() > deadline) {
        inDoubt.push(to);
        return;
      }
      // Without a key, only a 503 is surely not committed; with one, the gateway answers a retry with the first outcome.
      const retry = stillProcessing || (typeof answer === 'object' ? answer.status === 503 : options.idempotent);
      if (!retry || Date.now() > deadline) {
        givenUp.push(`${to}: ${typeof answer === 'object' ? `${answer.status} ${JSON.stringify(answer.body)}` : answer}`);
        return;
      }
      await new Promise((wake) => setTimeout(wake, RETRY_PAUSE_MS));
    }
  };
  const worker = async (): Promise<void> => {
    while (next < options.total) await sendOne(next++);
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return { accepted, inDoubt, givenUp };
}

export const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

/** Calls check every 500 ms until it answers true or timeoutMs has passed; resolves with the last answer. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const done = await check().catch(() => false);
    if (done || Date.now() > deadline) return done;
    await sleep(500);
  }
}
