// Where a window's OTPs spent the time between acceptance and the carrier, for the JSON file:
// acceptance → their dispatch job enqueued (outbox.enqueued_at: when the relay had added it),
// → the submit_sm_resp being recorded (message_parts.submitted_at). Acceptance → arrival at the
// SMSC simulator, for every OTP, is in the window's figures (simulator-arrivals.ts).
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
}

const ms = (value: number | null) => (value === null ? null : Math.round(Number(value) * 10) / 10);

/** From the database: acceptance → job enqueued → submitted, over `companyId`'s messages created in the window. */
export async function otpStages(db: Client, companyId: string, from: Date, to: Date): Promise<OtpStages> {
  const { rows } = await db.query<Record<string, string | number | null>>(
    // OTPs committed together share a dispatch job: each message's is the job listing its id.
    // MATERIALIZED: inlined, the planner misjudged the unnested ids and chose a far slower plan.
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
