import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook deliveries (one per event a customer is told about) and every attempt made at each.
 * A delivery is pending until an attempt gets a 2xx (delivered) or the retry schedule runs out
 * (dead: a dead letter the dashboard shows). One event arriving twice makes one delivery.
 */
export class WebhookDeliveries1763800002000 implements MigrationInterface {
  name = 'WebhookDeliveries1763800002000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        message_id uuid REFERENCES messages (id),
        event_type text NOT NULL,
        url text NOT NULL,
        payload jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
        attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        next_attempt_at timestamptz,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz,
        dead_at timestamptz,
        UNIQUE (message_id, event_type),
        CHECK ((status = 'delivered') = (delivered_at IS NOT NULL)),
        CHECK ((status = 'dead') = (dead_at IS NOT NULL))
      )`);
    await db.query(`CREATE INDEX webhook_deliveries_company_created_idx ON webhook_deliveries (company_id, created_at DESC, id DESC)`);
    await db.query(`CREATE INDEX webhook_deliveries_dead_idx ON webhook_deliveries (company_id, created_at DESC, id DESC) WHERE status = 'dead'`);
    await db.query(`
      CREATE TABLE webhook_attempts (
        id bigserial PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id),
        attempt integer NOT NULL CHECK (attempt >= 1),
        status_code integer,
        error text,
        duration_ms integer NOT NULL CHECK (duration_ms >= 0),
        response_snippet text,
        attempted_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (delivery_id, attempt)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_attempts`);
    await db.query(`DROP TABLE webhook_deliveries`);
  }
}
