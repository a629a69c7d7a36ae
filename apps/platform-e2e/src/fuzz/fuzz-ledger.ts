import { ALL_QUEUES } from '@mp/queue-contracts';
import type Redis from 'ioredis';
import type { Client } from 'pg';

/**
 * What a request may have charged or queued, counted in PostgreSQL: the gateway commits every
 * charge, message, OTP, campaign and outbox job before it answers, so the counts before and after
 * a request tell what it did.
 */
export interface Footprint {
  ledger: string;
  balances: string;
  messages: string;
  otps: string;
  campaigns: string;
  /** Outbox jobs that send, charge or refund: every job but an OTP's webhook event. */
  outbox: string;
  /** Outbox jobs of OTP webhook events (`otp.event`), which a refused verification may raise. */
  otpEvents: string;
}

const FOOTPRINT_SQL = `SELECT (SELECT count(*) FROM ledger_entries)::text AS ledger,
  (SELECT coalesce(sum(balance), 0) FROM balances)::text AS balances,
  (SELECT count(*) FROM messages)::text AS messages,
  (SELECT count(*) FROM otps)::text AS otps,
  (SELECT count(*) FROM campaigns)::text AS campaigns,
  (SELECT count(*) FROM outbox WHERE job_name <> 'otp.event')::text AS outbox,
  (SELECT count(*) FROM outbox WHERE job_name = 'otp.event')::text AS "otpEvents"`;

export async function footprint(db: Client): Promise<Footprint> {
  return (await db.query<Footprint>(FOOTPRINT_SQL)).rows[0];
}

/**
 * The fields of a footprint that differ: empty when nothing was charged, stored or queued. A
 * refused verification may still raise its OTP's webhook event (the third wrong code fails the
 * OTP and `otp.failed` says so; a code for an expired one expires it): pass `otpEventsAllowed`.
 */
export function footprintChanges(before: Footprint, after: Footprint, otpEventsAllowed = false): string[] {
  return (Object.keys(before) as (keyof Footprint)[])
    .filter((key) => before[key] !== after[key] && !(otpEventsAllowed && key === 'otpEvents'))
    .map((key) => `${key} ${before[key]} → ${after[key]}`);
}

/**
 * Every job in the run's queues in Redis (waiting, prioritized, delayed: nothing consumes them,
 * only the gateway runs) that no outbox row stands for. A job comes to Redis only from an outbox
 * row, and every request that wrote one answered 2xx (footprintChanges), so this must be empty:
 * nothing a 4xx request did was queued.
 */
export async function jobsWithoutOutboxRow(db: Client, redis: Redis, prefix: string): Promise<string[]> {
  const outbox = new Set((await db.query<{ job_id: string }>('SELECT job_id FROM outbox')).rows.map((row) => row.job_id));
  const strays: string[] = [];
  for (const queue of ALL_QUEUES) {
    const key = (suffix: string) => `${prefix}:${queue}:${suffix}`;
    const [waiting, prioritized, delayed] = await Promise.all([
      redis.lrange(key('wait'), 0, -1),
      redis.zrange(key('prioritized'), 0, -1),
      redis.zrange(key('delayed'), 0, -1),
    ]);
    for (const jobId of [...waiting, ...prioritized, ...delayed]) if (!outbox.has(jobId)) strays.push(`${queue}:${jobId}`);
  }
  return strays;
}

/** Waits until the gateway has relayed every committed outbox row to Redis (marks lag ~200 ms). */
export async function outboxRelayed(db: Client, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM outbox WHERE enqueued_at IS NULL');
    if (rows[0].n === '0') return;
    await new Promise((wake) => setTimeout(wake, 200));
  }
  throw new Error('the gateway did not relay its outbox within 30 s');
}
