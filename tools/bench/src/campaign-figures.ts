// A campaign's figures read from the run's database after the fact, exactly, from its rows'
// timestamps: how far it had got at a given moment, its end state, and how a scheduled one is
// stored. Polling as it goes (bulk-campaign.ts) tells when the benchmark saw things; these tell
// when they happened.
import type { Client } from 'pg';

/** The campaign's end state and timestamps, exactly, from its parts, receipts and messages. */
export interface CampaignOutcome {
  messages: number;
  parts: number;
  submittedParts: number;
  receiptsStored: number;
  finalMessages: number;
  deliveredMessages: number;
  /** Seconds from acceptance to the last part's submitted_at / receipt's application / message's completed_at. */
  lastSubmittedAfterS: number | null;
  lastReceiptAfterS: number | null;
  lastFinalAfterS: number | null;
}

export async function campaignOutcome(db: Client, campaignId: string, acceptedAt: Date): Promise<CampaignOutcome> {
  const parts = await db.query<Record<string, string | Date | null>>(
    // A receipt is applied to its part as it is stored (only one that overtakes its part waits in
    // carrier_receipts until the part is recorded): the part's receipt_stat and completed_at.
    `SELECT count(*) AS parts, count(p.submitted_at) AS submitted, max(p.submitted_at) AS last_submitted,
            count(p.receipt_stat) AS receipts, max(p.completed_at) FILTER (WHERE p.receipt_stat IS NOT NULL) AS last_receipt
     FROM messages m JOIN message_parts p ON p.message_id = m.id
     WHERE m.campaign_id = $1`,
    [campaignId],
  );
  const messages = await db.query<Record<string, string | Date | null>>(
    `SELECT count(*) AS messages, count(*) FILTER (WHERE status NOT IN ('scheduled', 'queued', 'sent')) AS final,
            count(*) FILTER (WHERE status = 'delivered') AS delivered, max(completed_at) AS last_final
     FROM messages WHERE campaign_id = $1`,
    [campaignId],
  );
  const p = parts.rows[0];
  const m = messages.rows[0];
  const after = (at: string | Date | null) => (at === null ? null : Math.round((new Date(at).getTime() - acceptedAt.getTime()) / 100) / 10);
  return {
    messages: Number(m['messages']),
    parts: Number(p['parts']),
    submittedParts: Number(p['submitted']),
    receiptsStored: Number(p['receipts']),
    finalMessages: Number(m['final']),
    deliveredMessages: Number(m['delivered']),
    lastSubmittedAfterS: after(p['last_submitted']),
    lastReceiptAfterS: after(p['last_receipt']),
    lastFinalAfterS: after(m['last_final']),
  };
}

/** A scheduled campaign as stored: its recipients, status and batches. */
export async function storedCampaign(db: Client, campaignId: string): Promise<{ accepted: number; status: string; batches: number } | null> {
  const { rows } = await db.query<{ accepted: number; status: string; batches: string }>(
    `SELECT accepted, status, (SELECT count(*) FROM campaign_batches b WHERE b.campaign_id = c.id) AS batches FROM campaigns c WHERE id = $1`,
    [campaignId],
  );
  return rows[0] ? { accepted: rows[0].accepted, status: rows[0].status, batches: Number(rows[0].batches) } : null;
}

/** How far a campaign had got at one moment, from its rows' timestamps. */
export interface ProgressAt {
  /** Messages made from the campaign's batches (messages.created_at) by then. */
  messagesMade: number;
  /** Parts whose submit_sm_resp was being recorded (message_parts.submitted_at) by then. */
  partsSubmitted: number;
  /** Messages in a final state (messages.completed_at) by then. */
  messagesFinal: number;
}

export async function campaignProgressAt(db: Client, campaignId: string, at: Date): Promise<ProgressAt> {
  const { rows } = await db.query<{ made: string; submitted: string; final: string }>(
    `SELECT count(DISTINCT m.id) FILTER (WHERE m.created_at <= $2) AS made,
            count(*) FILTER (WHERE p.submitted_at <= $2) AS submitted,
            count(DISTINCT m.id) FILTER (WHERE m.completed_at <= $2) AS final
     FROM messages m JOIN message_parts p ON p.message_id = m.id
     WHERE m.campaign_id = $1`,
    [campaignId, at],
  );
  return { messagesMade: Number(rows[0].made), partsSubmitted: Number(rows[0].submitted), messagesFinal: Number(rows[0].final) };
}
