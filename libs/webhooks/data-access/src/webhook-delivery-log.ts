import { decodeCursorOrThrow, join, keysetPage, sql, type KeysetPage, type Sql } from '@mp/persistence';
import type { DataSource } from 'typeorm';
import type { WebhookDeliveryStatus } from './webhook-delivery.repository';

/** One attempt as the console shows it. */
export interface WebhookAttemptView {
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  attemptedAt: Date;
  /** Made by a resend from the console. */
  resend: boolean;
}

/** A delivery as the console lists it, with its attempts, oldest first. */
export interface WebhookDeliveryView {
  id: string;
  eventType: string;
  url: string;
  status: WebhookDeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  deadAt: Date | null;
  attempts: WebhookAttemptView[];
}

export interface WebhookDeliveryDetail extends WebhookDeliveryView {
  payload: unknown;
}

export interface WebhookDeliveryFilter {
  status: WebhookDeliveryStatus | null;
  eventType: string | null;
}

export const WEBHOOK_DELIVERY_PAGE = 50;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const CURSOR_SHAPE = [/[0-9]{1,17}/, UUID];
const COLUMNS = sql`d.id, d.event_type, d.url, d.status, d.attempts, d.next_attempt_at, d.last_error, d.created_at, d.delivered_at, d.dead_at`;

type Row = Record<string, unknown>;

export const isDeliveryId = (id: string) => id.length === 36 && UUID.test(id);

/**
 * The company's deliveries, newest first, a page at a time (keyset over creation time to the
 * microsecond and id: webhook_deliveries_company_created_idx, or _dead_idx for the dead letters),
 * each with its attempts. Throws InvalidCursorError for a cursor not of this list.
 */
export async function listWebhookDeliveries(
  db: DataSource,
  companyId: string,
  filter: WebhookDeliveryFilter,
  page: { cursor: string | null; limit?: number },
): Promise<KeysetPage<WebhookDeliveryView>> {
  const limit = page.limit ?? WEBHOOK_DELIVERY_PAGE;
  const after = page.cursor === null ? null : decodeCursorOrThrow(page.cursor, CURSOR_SHAPE);
  const where: Sql[] = [sql`d.company_id = ${companyId}`];
  if (filter.status !== null) where.push(sql`d.status = ${filter.status}`);
  if (filter.eventType !== null) where.push(sql`d.event_type = ${filter.eventType}`);
  if (after !== null) {
    where.push(sql`(d.created_at, d.id) < (timestamptz 'epoch' + ${after[0]}::bigint * interval '1 microsecond', ${after[1]}::uuid)`);
  }
  const statement = sql`SELECT ${COLUMNS}, (extract(epoch FROM d.created_at) * 1000000)::bigint::text AS created_us
    FROM webhook_deliveries d WHERE ${join(where, ' AND ')}
    ORDER BY d.created_at DESC, d.id DESC LIMIT ${limit + 1}`;
  const rows: Row[] = await db.query(statement.text, statement.values);
  const attempts = await attemptsOf(
    db,
    rows.slice(0, limit).map((row) => String(row['id'])),
  );
  return keysetPage(
    rows,
    limit,
    (row) => [String(row['created_us']), String(row['id'])],
    (row) => toView(row, attempts.get(String(row['id'])) ?? []),
  );
}

/** One delivery of the company with its attempts and payload; null when the company has none with this id. */
export async function findWebhookDelivery(db: DataSource, companyId: string, id: string): Promise<WebhookDeliveryDetail | null> {
  if (!isDeliveryId(id)) return null;
  const statement = sql`SELECT ${COLUMNS}, d.payload FROM webhook_deliveries d WHERE d.id = ${id}::uuid AND d.company_id = ${companyId}`;
  const [row]: Row[] = await db.query(statement.text, statement.values);
  if (!row) return null;
  const attempts = await attemptsOf(db, [id]);
  return { ...toView(row, attempts.get(id) ?? []), payload: row['payload'] };
}

async function attemptsOf(db: DataSource, deliveryIds: string[]): Promise<Map<string, WebhookAttemptView[]>> {
  const byDelivery = new Map<string, WebhookAttemptView[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const rows: Row[] = await db.query(
    `SELECT delivery_id, attempt, status_code, error, duration_ms, attempted_at, resend
     FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[]) ORDER BY delivery_id, attempt`,
    [deliveryIds],
  );
  for (const row of rows) {
    const id = String(row['delivery_id']);
    const list = byDelivery.get(id) ?? [];
    list.push({
      attempt: Number(row['attempt']),
      statusCode: row['status_code'] === null ? null : Number(row['status_code']),
      error: row['error'] === null ? null : String(row['error']),
      durationMs: Number(row['duration_ms']),
      attemptedAt: row['attempted_at'] as Date,
      resend: row['resend'] === true,
    });
    byDelivery.set(id, list);
  }
  return byDelivery;
}

function toView(row: Row, attempts: WebhookAttemptView[]): WebhookDeliveryView {
  return {
    id: String(row['id']),
    eventType: String(row['event_type']),
    url: String(row['url']),
    status: row['status'] as WebhookDeliveryStatus,
    attemptCount: Number(row['attempts']),
    nextAttemptAt: row['status'] === 'pending' ? ((row['next_attempt_at'] as Date | null) ?? null) : null,
    lastError: row['last_error'] === null ? null : String(row['last_error']),
    createdAt: row['created_at'] as Date,
    deliveredAt: (row['delivered_at'] as Date | null) ?? null,
    deadAt: (row['dead_at'] as Date | null) ?? null,
    attempts,
  };
}

/** The console's reads of a company's deliveries (listWebhookDeliveries, findWebhookDelivery) on the app's data source. */
export class WebhookDeliveryLog {
  constructor(private readonly db: DataSource) {}

  list(companyId: string, filter: WebhookDeliveryFilter, page: { cursor: string | null; limit?: number }): Promise<KeysetPage<WebhookDeliveryView>> {
    return listWebhookDeliveries(this.db, companyId, filter, page);
  }

  find(companyId: string, id: string): Promise<WebhookDeliveryDetail | null> {
    return findWebhookDelivery(this.db, companyId, id);
  }
}
