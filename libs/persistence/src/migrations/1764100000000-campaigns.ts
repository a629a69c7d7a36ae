import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bulk campaigns. A campaign is charged once and stored as its batches: each batch row carries
 * its recipients (and, for individual messages, their texts, references and senders) as arrays,
 * with the parts and price per part of each, so accepting a million recipients writes a thousand
 * rows, not a million. The dispatcher turns a batch into message rows when it works it; those
 * rows point back to their batch and position, once each.
 */
export class Campaigns1764100000000 implements MigrationInterface {
  name = 'Campaigns1764100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE campaigns (
        id uuid PRIMARY KEY,
        company_id uuid NOT NULL REFERENCES companies (id),
        reference text,
        sender text NOT NULL,
        body text,
        route text NOT NULL DEFAULT 'auto',
        priority text NOT NULL CHECK (priority IN ('normal', 'high')),
        webhook_url text,
        batch_size integer NOT NULL CHECK (batch_size BETWEEN 1 AND 10000),
        delay_between_batches integer NOT NULL DEFAULT 0 CHECK (delay_between_batches BETWEEN 0 AND 3600),
        scheduled_at timestamptz,
        total_recipients integer NOT NULL CHECK (total_recipients >= 0),
        accepted integer NOT NULL CHECK (accepted >= 0),
        failed_numbers jsonb NOT NULL DEFAULT '[]',
        total_cost numeric(20, 4) NOT NULL CHECK (total_cost >= 0),
        refunded numeric(20, 4) NOT NULL DEFAULT 0 CHECK (refunded >= 0 AND refunded <= total_cost),
        status text NOT NULL CHECK (status IN ('scheduled', 'queued', 'processing', 'completed', 'cancelled')),
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        cancelled_at timestamptz
      )`);
    await db.query(`CREATE INDEX campaigns_company_created_idx ON campaigns (company_id, created_at DESC, id DESC)`);
    await db.query(`
      CREATE TABLE campaign_batches (
        id uuid PRIMARY KEY,
        campaign_id uuid NOT NULL REFERENCES campaigns (id),
        position integer NOT NULL CHECK (position >= 1),
        recipients text[] NOT NULL,
        bodies text[],
        message_references text[],
        senders text[],
        parts smallint[] NOT NULL,
        prices numeric[] NOT NULL,
        cost numeric(20, 4) NOT NULL CHECK (cost >= 0),
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('scheduled', 'queued', 'processing', 'dispatched', 'cancelled')),
        scheduled_at timestamptz NOT NULL,
        started_at timestamptz,
        dispatched_at timestamptz,
        cancelled_at timestamptz,
        UNIQUE (campaign_id, position),
        CHECK (cardinality(parts) = cardinality(recipients) AND cardinality(prices) = cardinality(recipients))
      )`);
    await db.query(`ALTER TABLE messages ADD COLUMN campaign_id uuid, ADD COLUMN batch_id uuid, ADD COLUMN batch_index integer`);
    await db.query(`CREATE UNIQUE INDEX messages_batch_position_idx ON messages (batch_id, batch_index) WHERE batch_id IS NOT NULL`);
    await db.query(`CREATE INDEX messages_campaign_status_idx ON messages (campaign_id, status) WHERE campaign_id IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX messages_campaign_status_idx`);
    await db.query(`DROP INDEX messages_batch_position_idx`);
    await db.query(`ALTER TABLE messages DROP COLUMN batch_index, DROP COLUMN batch_id, DROP COLUMN campaign_id`);
    await db.query(`DROP TABLE campaign_batches`);
    await db.query(`DROP TABLE campaigns`);
  }
}
