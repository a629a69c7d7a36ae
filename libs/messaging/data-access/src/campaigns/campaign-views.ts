import { moneyToJson, parseMoney, type Money } from '@mp/billing-domain';
import { raw, sql } from '@mp/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import { completeFinishedCampaigns } from './campaign-completion';

export const CAMPAIGN_STATUSES = ['scheduled', 'queued', 'processing', 'completed', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Where an accepted recipient is now; the summary counts each recipient in exactly one of these. */
export const RECIPIENT_STATES = ['queued', 'processing', 'sent', 'delivered', 'failed', 'cancelled'] as const;
export type RecipientState = (typeof RECIPIENT_STATES)[number];
export type CampaignSummary = Record<RecipientState, number>;

/** The message statuses of each state; `queued` holds no message: only recipients of batches not started. */
const MESSAGE_STATUSES: Record<RecipientState, readonly string[]> = {
  queued: [],
  processing: ['queued', 'scheduled'],
  sent: ['sent'],
  delivered: ['delivered'],
  failed: ['undelivered', 'expired', 'rejected', 'failed'],
  cancelled: ['cancelled'],
};
const NOT_FINAL = ['scheduled', 'queued', 'sent'];
const STARTED = ['processing', 'dispatched'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function recipientState(messageStatus: string): RecipientState {
  return RECIPIENT_STATES.find((state) => MESSAGE_STATUSES[state].includes(messageStatus)) ?? 'failed';
}

export function isCampaignId(text: string): boolean {
  return UUID.test(text);
}

export type PageRequest = { page: number; limit: number };
export type Page<T> = PageRequest & { items: T[]; total: number };

export interface CampaignView {
  campaign_id: string;
  reference: string | null;
  status: string;
  total_recipients: number;
  successful: number;
  failed: number;
  total_cost: number;
  refunded: number;
  batches: number;
  summary: CampaignSummary;
  created_at: string;
}
export interface CampaignBatchView {
  batch_id: string;
  position: number;
  recipients: number;
  status: string;
  scheduled_time: string;
  started_at: string | null;
  dispatched_at: string | null;
}
export interface CampaignDetail extends CampaignView {
  batch_details: CampaignBatchView[];
  failed_numbers: { number: string; error: string }[];
}
export interface CampaignRecipient {
  to: string;
  batch_id: string;
  status: RecipientState;
  message_id: string | null;
  reference: string | null;
  cost: number;
  sent_at: string | null;
  completed_at: string | null;
  error_code: string | null;
}

interface CampaignRow {
  id: string;
  reference: string | null;
  status: string;
  total_recipients: number;
  accepted: number;
  failed: number;
  total_cost: string;
  /** The campaign row keeps what its cancelled batches were refunded; its messages keep their own (campaignRefunded). */
  refunded: string;
  created_at: Date;
}
/** `refunded`: what the messages counted were refunded (parts that never reached a carrier), exact, as text. */
export type Tally = { campaign_id: string; source: 'batch' | 'message'; status: string; batches: number; n: number; refunded: string };

const CAMPAIGN_COLUMNS = `id, reference, status, total_recipients, accepted, jsonb_array_length(failed_numbers) AS failed,
  total_cost::text AS total_cost, refunded::text AS refunded, created_at`;
const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/**
 * Recipients by state and batches by status, of several campaigns, in one statement (one
 * snapshot), with what the messages of each state were refunded.
 */
export async function tallies(manager: EntityManager, campaignIds: string[]): Promise<Tally[]> {
  return manager.query(
    `SELECT campaign_id, 'batch' AS source, status, count(*)::int AS batches, sum(cardinality(recipients))::int AS n, '0' AS refunded
     FROM campaign_batches WHERE campaign_id = ANY($1::uuid[]) GROUP BY campaign_id, status
     UNION ALL
     SELECT campaign_id, 'message', status, 0, count(*)::int, sum(refunded)::text
     FROM messages WHERE campaign_id = ANY($1::uuid[]) GROUP BY campaign_id, status`,
    [campaignIds],
  );
}

/** The summary, the batch count, and whether nothing can change any more (every batch over, every message final). */
export function summarize(rows: readonly Omit<Tally, 'campaign_id'>[]): { summary: CampaignSummary; batches: number; finished: boolean } {
  const summary: CampaignSummary = { queued: 0, processing: 0, sent: 0, delivered: 0, failed: 0, cancelled: 0 };
  let batches = 0;
  let finished = true;
  for (const row of rows) {
    if (row.source === 'batch') {
      batches += row.batches;
      if (row.status === 'cancelled') summary.cancelled += row.n;
      else if (!STARTED.includes(row.status)) summary.queued += row.n;
      if (row.status !== 'dispatched' && row.status !== 'cancelled') finished = false;
    } else {
      summary[recipientState(row.status)] += row.n;
      if (NOT_FINAL.includes(row.status)) finished = false;
    }
  }
  return { summary, batches, finished };
}

/** The status shown: `completed` as soon as nothing can change any more, before the sweeper records it. */
export function reportedStatus(stored: string, finished: boolean): string {
  return finished && (stored === 'queued' || stored === 'processing') ? 'completed' : stored;
}

/**
 * Records campaigns found complete (of the company, or just one of them), with their
 * campaign.completed event, which the dispatcher's outbox sweeper enqueues (see
 * completeFinishedCampaigns).
 */
export async function settleCompletedCampaigns(db: DataSource, companyId: string, campaignId: string | null = null): Promise<void> {
  await completeFinishedCampaigns(db, { companyId, ...(campaignId ? { campaignId } : {}) });
}

/**
 * What a campaign was refunded: its batches cancelled before they started (the campaign row's
 * `refunded`, booked by the cancellation) and the parts of its messages that never reached a
 * carrier (each message's `refunded`, booked by the billing app).
 */
export function campaignRefunded(cancelledBatches: string, rows: readonly Pick<Tally, 'source' | 'refunded'>[]): Money {
  return rows.reduce((sum, row) => (row.source === 'message' ? sum + parseMoney(row.refunded) : sum), parseMoney(cancelledBatches));
}

function campaignView(row: CampaignRow, all: readonly Tally[]): CampaignView {
  const rows = all.filter((t) => t.campaign_id === row.id);
  const { summary, batches, finished } = summarize(rows);
  return {
    campaign_id: row.id,
    reference: row.reference,
    status: reportedStatus(row.status, finished),
    total_recipients: row.total_recipients,
    successful: row.accepted,
    failed: row.failed,
    total_cost: moneyToJson(parseMoney(row.total_cost)),
    refunded: moneyToJson(campaignRefunded(row.refunded, rows)),
    batches,
    summary,
    created_at: iso(row.created_at) ?? '',
  };
}

/** GET /sms/campaigns/{id}: company-scoped, so another company's campaign reads as not found. */
export async function findCampaignDetail(db: DataSource, companyId: string, campaignId: string): Promise<CampaignDetail | null> {
  if (!isCampaignId(campaignId)) return null;
  const found = await db.transaction('REPEATABLE READ', async (manager) => {
    const [row]: (CampaignRow & { failed_numbers: CampaignDetail['failed_numbers'] })[] = await manager.query(
      `SELECT ${CAMPAIGN_COLUMNS}, failed_numbers FROM campaigns WHERE id = $1 AND company_id = $2`,
      [campaignId, companyId],
    );
    if (!row) return null;
    const batches: {
      id: string;
      position: number;
      recipients: number;
      status: string;
      scheduled_at: Date;
      started_at: Date | null;
      dispatched_at: Date | null;
    }[] = await manager.query(
      `SELECT id, position, cardinality(recipients) AS recipients, status, scheduled_at, started_at, dispatched_at
         FROM campaign_batches WHERE campaign_id = $1 ORDER BY position`,
      [campaignId],
    );
    return { row, batches, tallies: await tallies(manager, [campaignId]) };
  });
  if (!found) return null;
  const view = campaignView(found.row, found.tallies);
  if (view.status !== found.row.status) await settleCompletedCampaigns(db, companyId, campaignId);
  return {
    ...view,
    batch_details: found.batches.map((b) => ({
      batch_id: b.id,
      position: b.position,
      recipients: b.recipients,
      status: b.status,
      scheduled_time: iso(b.scheduled_at) ?? '',
      started_at: iso(b.started_at),
      dispatched_at: iso(b.dispatched_at),
    })),
    failed_numbers: found.row.failed_numbers,
  };
}

export type CampaignListFilter = { status: CampaignStatus | null; reference: string | null };

/** GET /sms/campaigns: newest first. Completions are recorded first, so `status=completed` finds them. */
export async function listCampaignViews(db: DataSource, companyId: string, filter: CampaignListFilter, page: PageRequest): Promise<Page<CampaignView>> {
  await settleCompletedCampaigns(db, companyId);
  const where = sql`company_id = ${companyId} AND (${filter.status}::text IS NULL OR status = ${filter.status})
    AND (${filter.reference}::text IS NULL OR reference = ${filter.reference})`;
  const count = sql`SELECT count(*)::int AS total FROM campaigns WHERE ${where}`;
  const listed = sql`SELECT ${raw(CAMPAIGN_COLUMNS)} FROM campaigns WHERE ${where} ORDER BY created_at DESC, id DESC
    LIMIT ${page.limit} OFFSET ${(page.page - 1) * page.limit}`;
  const found = await db.transaction('REPEATABLE READ', async (manager) => {
    const [{ total }]: { total: number }[] = await manager.query(count.text, count.values);
    const rows: CampaignRow[] = await manager.query(listed.text, listed.values);
    return {
      total,
      rows,
      tallies:
        rows.length > 0
          ? await tallies(
              manager,
              rows.map((r) => r.id),
            )
          : [],
    };
  });
  const items = found.rows.map((row) => campaignView(row, found.tallies));
  if (items.some((item, i) => item.status !== found.rows[i].status)) await settleCompletedCampaigns(db, companyId);
  return { items, page: page.page, limit: page.limit, total: found.total };
}

type BatchSlice = { batch_id: string; started: boolean; matching: number };
type Window = { ord: number; batch_id: string; skip: number; take: number };

/** How many recipients of each batch, in position order, are in the state asked for (any state: all). */
async function batchSlices(manager: EntityManager, campaignId: string, state: RecipientState | null): Promise<BatchSlice[]> {
  const batches: { id: string; status: string; size: number }[] = await manager.query(
    `SELECT id, status, cardinality(recipients) AS size FROM campaign_batches WHERE campaign_id = $1 ORDER BY position`,
    [campaignId],
  );
  const statuses = state === null ? null : MESSAGE_STATUSES[state];
  const counts = new Map<string, number>();
  if (statuses !== null && statuses.length > 0) {
    const rows: { batch_id: string; n: number }[] = await manager.query(
      `SELECT batch_id, count(*)::int AS n FROM messages WHERE campaign_id = $1 AND status = ANY($2::text[]) GROUP BY batch_id`,
      [campaignId, statuses],
    );
    for (const row of rows) counts.set(row.batch_id, row.n);
  }
  return batches.map((b) => {
    const started = STARTED.includes(b.status);
    const unstartedState: RecipientState = b.status === 'cancelled' ? 'cancelled' : 'queued';
    const matching = started ? (statuses === null ? b.size : (counts.get(b.id) ?? 0)) : state === null || state === unstartedState ? b.size : 0;
    return { batch_id: b.id, started, matching };
  });
}

/** The part of each batch the page covers, so only those rows are read (not the whole campaign). */
function pageWindows(slices: readonly BatchSlice[], page: PageRequest): { started: Window[]; unstarted: Window[] } {
  const from = (page.page - 1) * page.limit;
  const to = from + page.limit;
  const windows = { started: [] as Window[], unstarted: [] as Window[] };
  let start = 0;
  for (const [ord, slice] of slices.entries()) {
    const end = start + slice.matching;
    if (end > from && start < to) {
      const skip = Math.max(start, from) - start;
      (slice.started ? windows.started : windows.unstarted).push({ ord, batch_id: slice.batch_id, skip, take: Math.min(end, to) - start - skip });
    }
    if (end >= to) break;
    start = end;
  }
  return windows;
}

type RecipientRow = Omit<CampaignRecipient, 'cost' | 'sent_at' | 'completed_at'> & {
  ord: number;
  idx: number;
  cost: string;
  sent_at: Date | null;
  completed_at: Date | null;
};

async function recipientRows(manager: EntityManager, windows: ReturnType<typeof pageWindows>, state: RecipientState | null): Promise<RecipientRow[]> {
  const started: RecipientRow[] =
    windows.started.length === 0
      ? []
      : await manager.query(
          `SELECT w.ord, m.batch_index AS idx, m.recipient AS "to", w.batch_id, m.status, m.id AS message_id, m.reference, m.cost::text AS cost,
       m.sent_at, m.completed_at, m.error_code
     FROM jsonb_to_recordset($1::jsonb) AS w(ord int, batch_id uuid, skip int, take int)
     CROSS JOIN LATERAL (SELECT * FROM messages m WHERE m.batch_id = w.batch_id AND ($2::text[] IS NULL OR m.status = ANY($2::text[]))
       ORDER BY m.batch_index OFFSET w.skip LIMIT w.take) m`,
          [JSON.stringify(windows.started), state === null ? null : MESSAGE_STATUSES[state]],
        );
  const unstarted: RecipientRow[] =
    windows.unstarted.length === 0
      ? []
      : await manager.query(
          `SELECT w.ord, u.idx::int AS idx, u.recipient AS "to", w.batch_id, CASE b.status WHEN 'cancelled' THEN 'cancelled' ELSE 'queued' END AS status,
       NULL AS message_id, coalesce(b.message_references[u.idx], c.reference) AS reference, round(b.prices[u.idx] * b.parts[u.idx], 4)::text AS cost,
       NULL AS sent_at, NULL AS completed_at, NULL AS error_code
     FROM jsonb_to_recordset($1::jsonb) AS w(ord int, batch_id uuid, skip int, take int)
     JOIN campaign_batches b ON b.id = w.batch_id JOIN campaigns c ON c.id = b.campaign_id
     CROSS JOIN LATERAL (SELECT * FROM unnest(b.recipients) WITH ORDINALITY AS u(recipient, idx) ORDER BY u.idx OFFSET w.skip LIMIT w.take) u`,
          [JSON.stringify(windows.unstarted)],
        );
  const states = started.map((row) => ({ ...row, status: recipientState(row.status) }));
  return [...states, ...unstarted].sort((a, b) => a.ord - b.ord || a.idx - b.idx);
}

/** GET /sms/campaigns/{id}/messages: every accepted recipient in batch order, with its current state. */
export async function listCampaignRecipients(
  db: DataSource,
  companyId: string,
  campaignId: string,
  state: RecipientState | null,
  page: PageRequest,
): Promise<Page<CampaignRecipient> | null> {
  if (!isCampaignId(campaignId)) return null;
  return db.transaction('REPEATABLE READ', async (manager) => {
    const found: unknown[] = await manager.query(`SELECT 1 FROM campaigns WHERE id = $1 AND company_id = $2`, [campaignId, companyId]);
    if (found.length === 0) return null;
    const slices = await batchSlices(manager, campaignId, state);
    const rows = await recipientRows(manager, pageWindows(slices, page), state);
    const items = rows.map(({ ord: _ord, idx: _idx, ...row }) => ({
      ...row,
      cost: moneyToJson(parseMoney(row.cost)),
      sent_at: iso(row.sent_at),
      completed_at: iso(row.completed_at),
    }));
    return { items, page: page.page, limit: page.limit, total: slices.reduce((sum, s) => sum + s.matching, 0) };
  });
}

/** GET /sms/campaigns' reads (findCampaignDetail, listCampaignViews, listCampaignRecipients), for injection. */
export class CampaignViews {
  constructor(private readonly db: DataSource) {}

  find(companyId: string, campaignId: string): Promise<CampaignDetail | null> {
    return findCampaignDetail(this.db, companyId, campaignId);
  }

  list(companyId: string, filter: CampaignListFilter, page: PageRequest): Promise<Page<CampaignView>> {
    return listCampaignViews(this.db, companyId, filter, page);
  }

  recipients(companyId: string, campaignId: string, state: RecipientState | null, page: PageRequest): Promise<Page<CampaignRecipient> | null> {
    return listCampaignRecipients(this.db, companyId, campaignId, state, page);
  }
}
