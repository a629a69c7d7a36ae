import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { runMigrations } from '../data-source';
import { CancelledParts1764400260000 } from './1764400260000-cancelled-parts';
import { openScratchDatabase, type ScratchDatabase } from './scratch-database';

describe('cancelled parts (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
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
    scratch = await openScratchDatabase('cancelled_parts', { server: process.env['MP_TEST_SERVER_URL'], run: process.env['MP_TEST_RUN'] });
    db = scratch.db;
  });

  afterAll(() => scratch?.drop());

  it('cancels the pending parts of messages cancelled before it, and nothing else', async () => {
    await scratch.undoFrom(CancelledParts1764400260000);
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
