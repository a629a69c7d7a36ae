import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Inbound (mobile-originated) messages (issue 30, item 2; docs/decisions/0050-inbound-messages.md).
 *
 * `inbound_messages`: one row per message a handset sent to one of the platform's numbers, its
 * parts joined. `company_id` is the company the number (`recipient`) is assigned to; null: the
 * number is assigned to none and the message is kept for the operator. `digest` (a hash of the
 * SMSC, both addresses and the user data) finds a single-part deliver_sm the SMSC sent again
 * after a lost deliver_sm_resp.
 *
 * `inbound_fragments`: the parts of a multipart message, stored as they come so that a restart or
 * another dispatcher loses none; once all are there the message is made and they point at it
 * (`message_id`), and they are kept a while longer so that a part sent again is recognised by the
 * primary key. Parts that never find their siblings expire.
 *
 * `companies.inbound_webhook_url`: where `message.received` goes; null: nowhere (the message is
 * still listed by GET /sms/inbound). `webhook_deliveries.inbound_message_id`: a delivery about an
 * inbound message, one per (message, event) as for outbound messages.
 */
export class InboundMessages1764800003000 implements MigrationInterface {
  name = 'InboundMessages1764800003000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE inbound_messages (
        id uuid PRIMARY KEY,
        company_id uuid REFERENCES companies (id),
        sender text NOT NULL,
        recipient text NOT NULL,
        text text NOT NULL,
        parts integer NOT NULL CHECK (parts BETWEEN 1 AND 255),
        smsc text NOT NULL,
        digest text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX inbound_messages_company_received ON inbound_messages (company_id, received_at DESC, id DESC)`);
    await db.query(`CREATE INDEX inbound_messages_digest ON inbound_messages (digest, received_at)`);
    await db.query(`
      CREATE TABLE inbound_fragments (
        smsc text NOT NULL,
        sender text NOT NULL,
        recipient text NOT NULL,
        reference integer NOT NULL CHECK (reference BETWEEN 0 AND 65535),
        total integer NOT NULL CHECK (total BETWEEN 2 AND 255),
        index integer NOT NULL CHECK (index BETWEEN 1 AND total),
        text text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        message_id uuid REFERENCES inbound_messages (id) ON DELETE SET NULL,
        PRIMARY KEY (smsc, sender, recipient, reference, total, index)
      )`);
    await db.query(`CREATE INDEX inbound_fragments_received ON inbound_fragments (received_at)`);
    // Nullable without a default: a change of the catalogue only, no row is rewritten.
    await db.query(`ALTER TABLE companies ADD COLUMN inbound_webhook_url text`);
    await db.query(`ALTER TABLE webhook_deliveries ADD COLUMN inbound_message_id uuid REFERENCES inbound_messages (id)`);
    await db.query(
      `CREATE UNIQUE INDEX webhook_deliveries_inbound_event_idx ON webhook_deliveries (inbound_message_id, event_type) WHERE inbound_message_id IS NOT NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX webhook_deliveries_inbound_event_idx`);
    await db.query(`ALTER TABLE webhook_deliveries DROP COLUMN inbound_message_id`);
    await db.query(`ALTER TABLE companies DROP COLUMN inbound_webhook_url`);
    await db.query(`DROP TABLE inbound_fragments`);
    await db.query(`DROP TABLE inbound_messages`);
  }
}
