import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '../data-source';
import { CancelledParts1764400260000 } from './1764400260000-cancelled-parts';
import { MIGRATIONS } from './index';

describe('cancelled parts (PostgreSQL)', () => {
  const server = process.env['MP_TEST_SERVER_URL'] as string;
  const database = `mp_test_${process.env['MP_TEST_RUN']}_cancelled_parts`;
  let admin: Client;
  let db: DataSource;

  const message = async (status: string, partStates: string[]) => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO messages (id, company_id, request_id, route, sender, recipient, body, encoding, parts, price_per_part, cost, status)
       VALUES ($1, gen_random_uuid(), gen_random_uuid(), 'auto', 'Acme', '+33612345678', 'Hello', 'GSM-7', $2::smallint, 0.01, 0.01 * $2::int, $3)`,
      [id, partStates.length, status],
    );
    await db.query(
      `INSERT INTO message_parts (message_id, part_index, user_message_reference, status)
       SELECT $1, i::smallint, i, s FROM unnest($2::text[]) WITH ORDINALITY AS u(s, i)`,
      [id, partStates],
    );
    return id;
  };
  const partStates = async (id: string) =>
    (await db.query(`SELECT status FROM message_parts WHERE message_id = $1 ORDER BY part_index`, [id])).map((p: { status: string }) => p.status);

  beforeAll(async () => {
    admin = new Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const url = new URL(server);
    url.pathname = `/${database}`;
    db = createDataSource({ url: url.toString(), applicationName: 'test-cancelled-parts', poolSize: 2 });
    await db.initialize();
    await runMigrations(db);
  });

  afterAll(async () => {
    await db?.destroy();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  it('cancels the pending parts of messages cancelled before it, and nothing else', async () => {
    for (let i = MIGRATIONS.indexOf(CancelledParts1764400260000); i < MIGRATIONS.length; i++) await db.undoLastMigration({ transaction: 'each' });
    await expect(message('cancelled', ['cancelled'])).rejects.toThrow(/message_parts_status_check/);
    const cancelled = await message('cancelled', ['pending', 'pending']);
    const scheduled = await message('scheduled', ['pending']);
    const sent = await message('sent', ['submitted', 'pending']);
    await runMigrations(db);
    expect(await partStates(cancelled)).toEqual(['cancelled', 'cancelled']);
    expect(await partStates(scheduled)).toEqual(['pending']);
    expect(await partStates(sent)).toEqual(['submitted', 'pending']);
  });
});
