import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Messages, their carrier parts, and the outbox of jobs committed with them. A message's state
 * and each part's carrier state are stored with timestamps; the outbox is how a job committed
 * with its rows reaches the queue even when Redis was down at that moment.
 */
export class Messages1763800000000 implements MigrationInterface {
  name = 'Messages1763800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE messages (
        id uuid PRIMARY KEY,
        company_id uuid NOT NULL REFERENCES companies (id),
        request_id uuid NOT NULL,
        channel text NOT NULL DEFAULT 'sms' CHECK (channel IN ('sms', 'whatsapp')),
        route text NOT NULL CHECK (route IN ('auto', 'standard', 'premium', 'whatsapp')),
        sender text NOT NULL,
        recipient text NOT NULL CHECK (recipient ~ '^\\+[0-9]{8,15}$'),
        body text NOT NULL,
        encoding text NOT NULL CHECK (encoding IN ('GSM-7', 'UCS-2')),
        parts smallint NOT NULL CHECK (parts BETWEEN 1 AND 255),
        price_per_part numeric(12, 4) NOT NULL CHECK (price_per_part >= 0),
        cost numeric(20, 4) NOT NULL CHECK (cost >= 0),
        refunded numeric(20, 4) NOT NULL DEFAULT 0 CHECK (refunded >= 0 AND refunded <= cost),
        reference text,
        webhook_url text,
        status text NOT NULL CHECK (status IN
          ('scheduled', 'queued', 'sent', 'delivered', 'undelivered', 'expired', 'rejected', 'failed', 'cancelled')),
        error_code text,
        error_reason text,
        scheduled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz,
        completed_at timestamptz,
        cancelled_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX messages_company_created_idx ON messages (company_id, created_at DESC)`);
    await db.query(`CREATE INDEX messages_scheduled_idx ON messages (scheduled_at) WHERE status = 'scheduled'`);
    await db.query(`
      CREATE TABLE message_parts (
        message_id uuid NOT NULL REFERENCES messages (id),
        part_index smallint NOT NULL CHECK (part_index >= 1),
        user_message_reference integer NOT NULL CHECK (user_message_reference BETWEEN 0 AND 65535),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN
          ('pending', 'submitted', 'delivered', 'undelivered', 'expired', 'rejected', 'failed')),
        carrier_message_id text,
        receipt_stat text,
        error_code text,
        submitted_at timestamptz,
        completed_at timestamptz,
        PRIMARY KEY (message_id, part_index)
      )`);
    await db.query(`CREATE INDEX message_parts_carrier_idx ON message_parts (carrier_message_id) WHERE carrier_message_id IS NOT NULL`);
    await db.query(`
      CREATE TABLE outbox (
        id bigserial PRIMARY KEY,
        queue text NOT NULL,
        job_name text NOT NULL,
        job_id text NOT NULL UNIQUE,
        data jsonb NOT NULL,
        not_before timestamptz NOT NULL DEFAULT now(),
        priority integer,
        created_at timestamptz NOT NULL DEFAULT now(),
        enqueued_at timestamptz
      )`);
    await db.query(`CREATE INDEX outbox_pending_idx ON outbox (created_at) WHERE enqueued_at IS NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE outbox`);
    await db.query(`DROP TABLE message_parts`);
    await db.query(`DROP TABLE messages`);
  }
}
