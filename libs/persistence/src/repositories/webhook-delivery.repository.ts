import type { DataSource } from 'typeorm';

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'dead';

export interface NewWebhookDelivery {
  companyId: string;
  /** The message the event is about; one delivery per (message, event type). */
  messageId: string | null;
  /** Or the campaign it is about (campaign.completed); one delivery per (campaign, event type). */
  campaignId?: string | null;
  eventType: string;
  url: string;
  payload: unknown;
}

export interface WebhookDelivery {
  id: string;
  companyId: string;
  messageId: string | null;
  eventType: string;
  url: string;
  payload: unknown;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  deadAt: Date | null;
}

/** A delivery with the company's current signing secret, for making an attempt. */
export interface WebhookDeliveryToSend extends WebhookDelivery {
  webhookSecret: string;
}

export interface WebhookAttempt {
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseSnippet: string | null;
  attemptedAt: Date;
}

/** What an attempt leaves the delivery as; `pending` needs the delay before the next attempt. */
export type WebhookAttemptOutcome = { status: 'delivered' | 'dead' } | { status: 'pending'; retryDelayMs: number };

/** A message as its webhook events describe it. */
export interface MessageForWebhook {
  id: string;
  companyId: string;
  webhookUrl: string | null;
  recipient: string;
  reference: string | null;
  errorCode: string | null;
  errorReason: string | null;
  parts: number;
  status: string;
}

export interface CampaignForWebhook {
  id: string;
  companyId: string;
  webhookUrl: string | null;
  reference: string | null;
  totalRecipients: number;
  accepted: number;
  failed: number;
  /** numeric(20,4) as PostgreSQL writes it. */
  totalCost: string;
  /**
   * numeric(20,4): the batches cancelled before they started, and every part of its messages that
   * never reached a carrier. The billing app books the refund of those parts from the same final
   * states, possibly a moment after the campaign completes, so this is what the campaign is
   * refunded in the end, not only what was booked when it was read.
   */
  refunded: string;
  /** Messages by status. */
  states: Record<string, number>;
  /** Recipients of cancelled batches. */
  cancelled: number;
}

export interface OtpForWebhook {
  id: string;
  companyId: string;
  /** The message that carries its current code: deliveries are unique per (message, event). */
  messageId: string;
  appid: string;
  webhookUrl: string | null;
  recipient: string;
  channel: string;
  status: string;
  expiresAt: Date;
  verifiedAt: Date | null;
}

const DELIVERY_COLUMNS = `d.id, d.company_id, d.message_id, d.event_type, d.url, d.payload, d.status, d.attempts,
  d.next_attempt_at, d.last_error, d.created_at, d.delivered_at, d.dead_at`;

type Row = Record<string, unknown>;

export class WebhookDeliveryRepository {
  constructor(private readonly db: DataSource) {}

  /** Creates the delivery unless one exists for the same message (or campaign) and event; returns its id either way. */
  async createIfAbsent(delivery: NewWebhookDelivery): Promise<string> {
    const campaignId = delivery.campaignId ?? null;
    const conflict = campaignId ? `(campaign_id, event_type) WHERE campaign_id IS NOT NULL` : `(message_id, event_type)`;
    const inserted: Row[] = await this.db.query(
      `INSERT INTO webhook_deliveries (company_id, message_id, campaign_id, event_type, url, payload, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, now())
       ON CONFLICT ${conflict} DO NOTHING
       RETURNING id`,
      [delivery.companyId, delivery.messageId, campaignId, delivery.eventType, delivery.url, JSON.stringify(delivery.payload)],
    );
    if (inserted[0]) return String(inserted[0]['id']);
    // A separate statement: it sees the conflicting row even if that was committed after ours began.
    const existing: Row[] = await this.db.query(
      campaignId
        ? `SELECT id FROM webhook_deliveries WHERE campaign_id = $1 AND event_type = $2`
        : `SELECT id FROM webhook_deliveries WHERE message_id = $1 AND event_type = $2`,
      [campaignId ?? delivery.messageId, delivery.eventType],
    );
    if (!existing[0]) throw new Error(`webhook delivery for ${campaignId ?? delivery.messageId} ${delivery.eventType} conflicted but is not there`);
    return String(existing[0]['id']);
  }

  /** A campaign as its completion webhook describes it: totals and each recipient's final state. */
  async findCampaign(campaignId: string): Promise<CampaignForWebhook | null> {
    const rows: Row[] = await this.db.query(
      `SELECT c.id, c.company_id, c.webhook_url, c.reference, c.total_recipients, c.accepted, jsonb_array_length(c.failed_numbers) AS failed,
         c.total_cost, c.completed_at,
         c.refunded + (SELECT coalesce(sum(greatest(m.refunded,
             m.price_per_part * (SELECT count(*) FROM message_parts p WHERE p.message_id = m.id AND p.status = 'failed'))), 0)
           FROM messages m WHERE m.campaign_id = c.id AND m.status <> 'delivered') AS refunded,
         (SELECT jsonb_object_agg(status, n) FROM (SELECT status, count(*)::int AS n FROM messages WHERE campaign_id = c.id GROUP BY status) s) AS states,
         (SELECT coalesce(sum(cardinality(b.recipients)), 0)::int FROM campaign_batches b WHERE b.campaign_id = c.id AND b.status = 'cancelled') AS cancelled
       FROM campaigns c WHERE c.id = $1`,
      [campaignId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: String(row['id']),
      companyId: String(row['company_id']),
      webhookUrl: nullable(row['webhook_url'], String),
      reference: nullable(row['reference'], String),
      totalRecipients: Number(row['total_recipients']),
      accepted: Number(row['accepted']),
      failed: Number(row['failed']),
      totalCost: String(row['total_cost']),
      refunded: String(row['refunded']),
      states: (row['states'] as Record<string, number> | null) ?? {},
      cancelled: Number(row['cancelled']),
    };
  }

  /**
   * Pending deliveries whose next attempt is more than `overdueMs` past due: their job was lost
   * (Redis lost its data, or enqueueing failed). Oldest first, with the attempt that is next.
   */
  async findOverdue(overdueMs: number, limit: number): Promise<{ id: string; nextAttempt: number }[]> {
    const rows: { id: string; attempts: number }[] = await this.db.query(
      `SELECT id, attempts FROM webhook_deliveries
       WHERE status = 'pending' AND next_attempt_at < now() - make_interval(secs => $1::double precision / 1000)
       ORDER BY next_attempt_at LIMIT $2`,
      [overdueMs, limit],
    );
    return rows.map((row) => ({ id: String(row.id), nextAttempt: Number(row.attempts) + 1 }));
  }

  async findById(id: string): Promise<WebhookDelivery | null> {
    const rows: Row[] = await this.db.query(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.id = $1`, [id]);
    return rows[0] ? toDelivery(rows[0]) : null;
  }

  async findToSend(id: string): Promise<WebhookDeliveryToSend | null> {
    const rows: Row[] = await this.db.query(
      `SELECT ${DELIVERY_COLUMNS}, c.webhook_secret
       FROM webhook_deliveries d JOIN companies c ON c.id = d.company_id WHERE d.id = $1`,
      [id],
    );
    return rows[0] ? { ...toDelivery(rows[0]), webhookSecret: String(rows[0]['webhook_secret']) } : null;
  }

  /**
   * Records attempt number `attempt.attempt` and what it leaves the delivery as, in one statement.
   * Only when the delivery is still pending with `attempt - 1` attempts: a job run twice records
   * once. Returns whether this call recorded it.
   */
  async recordAttempt(deliveryId: string, attempt: Omit<WebhookAttempt, 'attemptedAt'>, outcome: WebhookAttemptOutcome): Promise<boolean> {
    const retryDelayMs = outcome.status === 'pending' ? outcome.retryDelayMs : null;
    const rows: Row[] = await this.db.query(
      `WITH delivery AS (
         UPDATE webhook_deliveries
         SET attempts = $2, status = $3::text, last_error = $4,
             next_attempt_at = now() + make_interval(secs => $5::double precision / 1000),
             delivered_at = CASE WHEN $3::text = 'delivered' THEN now() END,
             dead_at = CASE WHEN $3::text = 'dead' THEN now() END
         WHERE id = $1 AND status = 'pending' AND attempts = $2 - 1
         RETURNING id
       ), attempt AS (
         INSERT INTO webhook_attempts (delivery_id, attempt, status_code, error, duration_ms, response_snippet)
         SELECT id, $2, $6, $4, $7, $8 FROM delivery
         RETURNING id
       )
       SELECT count(*)::int AS recorded FROM attempt`,
      [deliveryId, attempt.attempt, outcome.status, attempt.error, retryDelayMs, attempt.statusCode, attempt.durationMs, attempt.responseSnippet],
    );
    return Number(rows[0]?.['recorded'] ?? 0) === 1;
  }

  /** A company's deliveries, newest first; `status: 'dead'` lists its dead letters. */
  async listForCompany(companyId: string, options: { status?: WebhookDeliveryStatus; limit?: number } = {}): Promise<WebhookDelivery[]> {
    const rows: Row[] = await this.db.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
       WHERE d.company_id = $1 AND ($2::text IS NULL OR d.status = $2::text)
       ORDER BY d.created_at DESC, d.id DESC LIMIT $3`,
      [companyId, options.status ?? null, options.limit ?? 50],
    );
    return rows.map(toDelivery);
  }

  async listAttempts(deliveryId: string): Promise<WebhookAttempt[]> {
    const rows: Row[] = await this.db.query(
      `SELECT attempt, status_code, error, duration_ms, response_snippet, attempted_at
       FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt`,
      [deliveryId],
    );
    return rows.map((row) => ({
      attempt: Number(row['attempt']),
      statusCode: nullable(row['status_code'], Number),
      error: nullable(row['error'], String),
      durationMs: Number(row['duration_ms']),
      responseSnippet: nullable(row['response_snippet'], String),
      attemptedAt: row['attempted_at'] as Date,
    }));
  }

  /** An OTP as its webhook events describe it, with its application's webhook address (never its code). */
  async findOtp(otpId: string): Promise<OtpForWebhook | null> {
    const rows: Row[] = await this.db.query(
      `SELECT o.id, o.company_id, o.message_id, a.appid, a.settings->>'webhook_url' AS webhook_url, o.recipient, o.channel, o.status,
         o.expires_at, o.verified_at
       FROM otps o JOIN applications a ON a.id = o.application_id WHERE o.id = $1`,
      [otpId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: String(row['id']),
      companyId: String(row['company_id']),
      messageId: String(row['message_id']),
      appid: String(row['appid']),
      webhookUrl: nullable(row['webhook_url'], String),
      recipient: String(row['recipient']),
      channel: String(row['channel']),
      status: String(row['status']),
      expiresAt: row['expires_at'] as Date,
      verifiedAt: (row['verified_at'] as Date | null) ?? null,
    };
  }

  async findMessage(messageId: string): Promise<MessageForWebhook | null> {
    const rows: Row[] = await this.db.query(
      `SELECT id, company_id, webhook_url, recipient, reference, error_code, error_reason, parts, status FROM messages WHERE id = $1`,
      [messageId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: String(row['id']),
      companyId: String(row['company_id']),
      webhookUrl: nullable(row['webhook_url'], String),
      recipient: String(row['recipient']),
      reference: nullable(row['reference'], String),
      errorCode: nullable(row['error_code'], String),
      errorReason: nullable(row['error_reason'], String),
      parts: Number(row['parts']),
      status: String(row['status']),
    };
  }
}

function nullable<T>(value: unknown, convert: (value: unknown) => T): T | null {
  return value === null || value === undefined ? null : convert(value);
}

function toDelivery(row: Row): WebhookDelivery {
  return {
    id: String(row['id']),
    companyId: String(row['company_id']),
    messageId: nullable(row['message_id'], String),
    eventType: String(row['event_type']),
    url: String(row['url']),
    payload: row['payload'],
    status: row['status'] as WebhookDeliveryStatus,
    attempts: Number(row['attempts']),
    nextAttemptAt: (row['next_attempt_at'] as Date | null) ?? null,
    lastError: nullable(row['last_error'], String),
    createdAt: row['created_at'] as Date,
    deliveredAt: (row['delivered_at'] as Date | null) ?? null,
    deadAt: (row['dead_at'] as Date | null) ?? null,
  };
}
