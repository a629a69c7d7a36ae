// Where a window's OTPs spent the time between acceptance and the carrier, for the JSON file:
// acceptance → their dispatch job enqueued (outbox.enqueued_at: when the relay had added it),
// → the submit_sm_resp being recorded (message_parts.submitted_at), and, for a sample, → the
// submit_sm received by the SMSC simulator (its GET /messages?to=), which tells whether
// submitted_at is a tight bound.
import type { Client } from 'pg';

/** Milliseconds at the 50th and 99th percentile; null without samples. */
export interface Spread {
  p50: number | null;
  p99: number | null;
}

export interface OtpStages {
  /** Parts of the window's OTPs whose dispatch job was marked enqueued. */
  enqueued: number;
  createdToEnqueuedMs: Spread;
  enqueuedToSubmittedMs: Spread;
  /** OTPs of the sample found at the simulator, of SIMULATOR_SAMPLE asked. */
  simulatorSample: number;
  createdToSimulatorMs: Spread;
  simulatorToSubmittedMs: Spread;
}

const SIMULATOR_SAMPLE = 100;

const ms = (value: number | null) => (value === null ? null : Math.round(Number(value) * 10) / 10);

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => (sorted.length === 0 ? null : sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]);
  return { p50: at(0.5), p99: at(0.99) };
}

/** From the database: acceptance → job enqueued → submitted, over `companyId`'s messages created in the window. */
async function queueStages(db: Client, companyId: string, from: Date, to: Date): Promise<Pick<OtpStages, 'enqueued' | 'createdToEnqueuedMs' | 'enqueuedToSubmittedMs'>> {
  const { rows } = await db.query<Record<string, string | number | null>>(
    // OTPs committed together share a dispatch job: each message's is the job listing its id.
    // MATERIALIZED: inlined, the planner misjudged the unnested ids and the query took ~20 s.
    `WITH jobs AS MATERIALIZED (
       SELECT o.enqueued_at, jsonb_array_elements_text(o.data->'messageIds')::uuid AS message_id
       FROM outbox o WHERE o.queue = 'otp.dispatch' AND o.created_at >= $2 AND o.enqueued_at IS NOT NULL),
     w AS (
       SELECT extract(epoch FROM j.enqueued_at - m.created_at) * 1000 AS to_enqueued, extract(epoch FROM p.submitted_at - j.enqueued_at) * 1000 AS to_submitted
       FROM messages m JOIN message_parts p ON p.message_id = m.id JOIN jobs j ON j.message_id = m.id
       WHERE m.company_id = $1 AND m.created_at >= $2 AND m.created_at <= $3)
     SELECT count(*) AS enqueued,
            percentile_disc(0.5) WITHIN GROUP (ORDER BY to_enqueued) AS e50, percentile_disc(0.99) WITHIN GROUP (ORDER BY to_enqueued) AS e99,
            percentile_disc(0.5) WITHIN GROUP (ORDER BY to_submitted) AS s50, percentile_disc(0.99) WITHIN GROUP (ORDER BY to_submitted) AS s99
     FROM w`,
    [companyId, from, to],
  );
  const r = rows[0];
  const n = (key: string) => ms(r[key] === null ? null : Number(r[key]));
  return { enqueued: Number(r['enqueued']), createdToEnqueuedMs: { p50: n('e50'), p99: n('e99') }, enqueuedToSubmittedMs: { p50: n('s50'), p99: n('s99') } };
}

/** For a random sample of the window's OTPs: acceptance → the simulator's received_at → submitted_at. */
async function simulatorStages(db: Client, simulatorUrl: string, companyId: string, from: Date, to: Date): Promise<Pick<OtpStages, 'simulatorSample' | 'createdToSimulatorMs' | 'simulatorToSubmittedMs'>> {
  const { rows } = await db.query<{ recipient: string; created_at: Date; submitted_at: Date | null }>(
    `SELECT m.recipient, m.created_at, p.submitted_at FROM messages m JOIN message_parts p ON p.message_id = m.id
     WHERE m.company_id = $1 AND m.created_at >= $2 AND m.created_at <= $3 ORDER BY random() LIMIT ${SIMULATOR_SAMPLE}`,
    [companyId, from, to],
  );
  const toSimulator: number[] = [];
  const toSubmitted: number[] = [];
  for (const row of rows) {
    const received = await receivedAt(simulatorUrl, row.recipient);
    if (received === null || row.submitted_at === null) continue;
    toSimulator.push(received - row.created_at.getTime());
    toSubmitted.push(row.submitted_at.getTime() - received);
  }
  return { simulatorSample: toSimulator.length, createdToSimulatorMs: spread(toSimulator), simulatorToSubmittedMs: spread(toSubmitted) };
}

/** When the simulator received the (first) message to `recipient`, in ms since the epoch; null: not there. */
async function receivedAt(simulatorUrl: string, recipient: string): Promise<number | null> {
  try {
    const response = await fetch(`${simulatorUrl}/messages?to=${encodeURIComponent(recipient)}`, { signal: AbortSignal.timeout(5_000) });
    const messages = response.ok ? ((await response.json()) as { received_at?: string }[]) : [];
    return messages[0]?.received_at ? new Date(messages[0].received_at).getTime() : null;
  } catch {
    return null;
  }
}

export async function otpStages(db: Client, simulatorUrl: string, companyId: string, from: Date, to: Date): Promise<OtpStages> {
  return { ...(await queueStages(db, companyId, from, to)), ...(await simulatorStages(db, simulatorUrl, companyId, from, to)) };
}
