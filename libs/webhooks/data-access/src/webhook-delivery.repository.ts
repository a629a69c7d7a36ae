import type { DataSource } from 'typeorm';

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'dead';

export interface NewWebhookDelivery {
  companyId: string;
  /** The message the event is about; one delivery per (message, event type). */
  messageId: string | null;
  /** Or the campaign it is about (campaign.completed); one delivery per (campaign, event type). */
  campaignId?: string | null;
  /** Or the inbound message it is about (message.received); one delivery per (inbound message, event type). */
  inboundMessageId?: string | null;
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

/** A delivery with the company's signing secrets, for making an attempt. */
export interface WebhookDeliveryToSend extends WebhookDelivery {
  webhookSecret: string;
  /** The secret a rotation replaced, and until when it still signs (both null when none). */
  previousWebhookSecret: string | null;
  previousWebhookSecretExpiresAt: Date | null;
  /** The attempt a resend from the console asked for: its failure dead-letters at once. */
  resendAttempt: number | null;
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

const DELIVERY_COLUMNS = `d.id, d.company_id, d.message_id, d.event_type, d.url, d.payload, d.status, d.attempts,
  d.next_attempt_at, d.last_error, d.created_at, d.delivered_at, d.dead_at`;

type Row = Record<string, unknown>;

/**
 * Webhook deliveries and their attempts. A delivery's event (its address and body) is made by
 * the domain the event is about (libs/messaging, libs/otp) and handed over to createIfAbsent.
 */
export class WebhookDeliveryRepository {
  constructor(private readonly db: DataSource) {}

  /** Creates the delivery unless one exists for the same message (or campaign) and event; returns its id either way. */
  async createIfAbsent(delivery: NewWebhookDelivery): Promise<string> {
    const campaignId = delivery.campaignId ?? null;
    const inboundMessageId = delivery.inboundMessageId ?? null;
    const about = campaignId ? 'campaign_id' : inboundMessageId ? 'inbound_message_id' : 'message_id';
    const conflict = about === 'message_id' ? `(message_id, event_type)` : `(${about}, event_type) WHERE ${about} IS NOT NULL`;
    const inserted: Row[] = await this.db.query(
      `INSERT INTO webhook_deliveries (company_id, message_id, campaign_id, inbound_message_id, event_type, url, payload, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, now())
       ON CONFLICT ${conflict} DO NOTHING
       RETURNING id`,
      [delivery.companyId, delivery.messageId, campaignId, inboundMessageId, delivery.eventType, delivery.url, JSON.stringify(delivery.payload)],
    );
    if (inserted[0]) return String(inserted[0]['id']);
    // A separate statement: it sees the conflicting row even if that was committed after ours began.
    const subject = campaignId ?? inboundMessageId ?? delivery.messageId;
    const existing: Row[] = await this.db.query(`SELECT id FROM webhook_deliveries WHERE ${about} = $1 AND event_type = $2`, [subject, delivery.eventType]);
    if (!existing[0]) throw new Error(`webhook delivery for ${subject} ${delivery.eventType} conflicted but is not there`);
    return String(existing[0]['id']);
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
      `SELECT ${DELIVERY_COLUMNS}, d.resend_attempt, c.webhook_secret, c.previous_webhook_secret, c.previous_webhook_secret_expires_at
       FROM webhook_deliveries d JOIN companies c ON c.id = d.company_id WHERE d.id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      ...toDelivery(row),
      webhookSecret: String(row['webhook_secret']),
      previousWebhookSecret: nullable(row['previous_webhook_secret'], String),
      previousWebhookSecretExpiresAt: (row['previous_webhook_secret_expires_at'] as Date | null) ?? null,
      resendAttempt: nullable(row['resend_attempt'], Number),
    };
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
         RETURNING id, resend_attempt
       ), attempt AS (
         INSERT INTO webhook_attempts (delivery_id, attempt, status_code, error, duration_ms, response_snippet, resend)
         SELECT id, $2, $6, $4, $7, $8, resend_attempt IS NOT DISTINCT FROM $2 FROM delivery
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
