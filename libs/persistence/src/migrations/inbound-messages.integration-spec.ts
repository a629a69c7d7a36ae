import type { DataSource } from 'typeorm';
import { runMigrations } from '../data-source';
import { InboundMessages1764800003000 } from './1764800003000-inbound-messages';
import { openScratchDatabase, type ScratchDatabase } from './scratch-database';

describe('inbound messages schema (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let db: DataSource;

  beforeAll(async () => {
    scratch = await openScratchDatabase('inbound_messages', { server: process.env['MP_TEST_SERVER_URL'], run: process.env['MP_TEST_RUN'] });
    db = scratch.db;
  });

  afterAll(() => scratch?.drop());

  it('refuses a fragment whose index is beyond its total, and one inbound delivery per (message, event)', async () => {
    await expect(
      db.query(`INSERT INTO inbound_fragments (smsc, sender, recipient, reference, total, index, text) VALUES ('default', '+1', '+2', 1, 2, 3, 'x')`),
    ).rejects.toThrow(/check/);
    const [company] = await db.query(`INSERT INTO companies (name, webhook_secret) VALUES ('Acme', 'whsec_x') RETURNING id`);
    const [message] = await db.query(
      `INSERT INTO inbound_messages (id, company_id, sender, recipient, text, parts, smsc, digest)
       VALUES (gen_random_uuid(), $1, '+1', '+2', 'hi', 1, 'default', 'd') RETURNING id`,
      [company.id],
    );
    const delivery = `INSERT INTO webhook_deliveries (company_id, inbound_message_id, event_type, url, payload) VALUES ($1, $2, 'message.received', 'https://x.test', '{}')`;
    await db.query(delivery, [company.id, message.id]);
    await expect(db.query(delivery, [company.id, message.id])).rejects.toThrow(/webhook_deliveries_inbound_event_idx/);
  });

  it('moves down and up again', async () => {
    await db.query(`DELETE FROM webhook_deliveries WHERE inbound_message_id IS NOT NULL`);
    await scratch.undoFrom(InboundMessages1764800003000);
    await expect(db.query(`SELECT inbound_webhook_url FROM companies`)).rejects.toThrow(/inbound_webhook_url/);
    await expect(db.query(`SELECT 1 FROM inbound_messages`)).rejects.toThrow(/inbound_messages/);
    await runMigrations(db);
    expect(await db.query(`SELECT count(*)::int AS n FROM inbound_fragments`)).toEqual([{ n: 0 }]);
  });
});
