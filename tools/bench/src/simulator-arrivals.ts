// Acceptance → arrival at the SMSC simulator, for every message of a window: the point the SMS
// issue's submit target names ("the time from acceptance to submit_sm at the simulator"). The
// simulator's GET /messages lists each message it received once, with its first part's
// message_id and its last part's arrival; the database gives each message's acceptance
// (messages.created_at) and the carrier id its first part was answered with.
import type { Client } from 'pg';

export interface ArrivalFigures {
  /** Messages accepted in the window. */
  messages: number;
  /** Of them, found at the simulator. */
  arrived: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
}

interface InboxEntry {
  message_id: string;
  received_at: string;
}

/** What the simulator received, or null when its inspection API could not be read. */
async function inbox(simulatorUrl: string): Promise<InboxEntry[] | null> {
  try {
    const response = await fetch(`${simulatorUrl}/messages`, { signal: AbortSignal.timeout(60_000) });
    return response.ok ? ((await response.json()) as InboxEntry[]) : null;
  } catch {
    return null;
  }
}

/** Over the messages created in the window (only `companyId`'s, if given); null: the simulator could not be read. */
export async function arrivalFigures(db: Client, simulatorUrl: string, from: Date, to: Date, companyId?: string): Promise<ArrivalFigures | null> {
  const received = await inbox(simulatorUrl);
  if (received === null) return null;
  const company = companyId === undefined ? '' : 'AND m.company_id = $5';
  const { rows } = await db.query<{ messages: string; arrived: string; p50: number | null; p99: number | null; max: number | null }>(
    `WITH s AS (SELECT * FROM unnest($3::text[], $4::timestamptz[]) AS s(carrier_message_id, at)),
     w AS (
       SELECT extract(epoch FROM s.at - m.created_at) * 1000 AS ms
       FROM messages m
       JOIN message_parts p ON p.message_id = m.id AND p.part_index = 1
       LEFT JOIN s ON s.carrier_message_id = p.carrier_message_id
       WHERE m.created_at >= $1 AND m.created_at <= $2 ${company})
     SELECT count(*) AS messages, count(ms) AS arrived,
            percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_disc(0.99) WITHIN GROUP (ORDER BY ms) AS p99, max(ms) AS max
     FROM w`,
    [from, to, received.map((entry) => entry.message_id), received.map((entry) => entry.received_at), ...(companyId === undefined ? [] : [companyId])],
  );
  const row = rows[0];
  const ms = (value: number | null) => (value === null ? null : Math.round(Number(value) * 10) / 10);
  return { messages: Number(row.messages), arrived: Number(row.arrived), p50Ms: ms(row.p50), p99Ms: ms(row.p99), maxMs: ms(row.max) };
}
