import type { DataSource } from 'typeorm';
import { runMigrations } from '../data-source';
import { PartCarriers1764800008000 } from './1764800008000-part-carriers';
import { openScratchDatabase, type ScratchDatabase } from './scratch-database';

describe('part carriers schema (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let db: DataSource;

  beforeAll(async () => {
    scratch = await openScratchDatabase('part_carriers', { server: process.env['MP_TEST_SERVER_URL'], run: process.env['MP_TEST_RUN'] });
    db = scratch.db;
  });

  afterAll(() => scratch?.drop());

  const receipt = (id: string, carrier?: string) =>
    carrier === undefined
      ? db.query(`INSERT INTO carrier_receipts (carrier_message_id, stat) VALUES ($1, 'DELIVRD')`, [id])
      : db.query(`INSERT INTO carrier_receipts (carrier_message_id, stat, carrier) VALUES ($1, 'DELIVRD', $2)`, [id, carrier]);

  it("keys receipts by carrier id and carrier, a receipt without one being the default carrier's", async () => {
    await receipt('shared');
    await receipt('shared', 'other');
    await expect(receipt('shared', 'default')).rejects.toThrow(/carrier_receipts_pkey/);
    expect(await db.query(`SELECT carrier FROM carrier_receipts WHERE carrier_message_id = 'shared' ORDER BY carrier`)).toEqual([
      { carrier: 'default' },
      { carrier: 'other' },
    ]);
  });

  it("moves down keeping the default carrier's receipt of a shared id, and back up", async () => {
    await scratch.undoFrom(PartCarriers1764800008000);
    expect(await db.query(`SELECT carrier_message_id FROM carrier_receipts WHERE carrier_message_id = 'shared'`)).toEqual([{ carrier_message_id: 'shared' }]);
    await expect(db.query(`SELECT carrier, carrier_cost, timed_out_carriers FROM message_parts`)).rejects.toThrow(/carrier/);
    await runMigrations(db);
    expect(await db.query(`SELECT carrier FROM carrier_receipts WHERE carrier_message_id = 'shared'`)).toEqual([{ carrier: 'default' }]);
  });
});
