import { openOwnDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { readMarginReport } from './margin-report';
import { marginRange, marginReportJson, MarginReportError, type MarginDimension } from './margins';

interface Part {
  status: string;
  carrier: string | null;
  cost: string | null;
  /** The carriers its submit timed out on before `carrier` took it (message_parts.timed_out_carriers). */
  timedOut?: string[];
}

/**
 * The operators' margin report against PostgreSQL. The report is platform-wide, so this spec works
 * in a database of its own: its totals are of its own rows only, whatever else runs.
 */
describe('margin report (PostgreSQL)', () => {
  let own: Awaited<ReturnType<typeof openOwnDataSource>>;
  let db: DataSource;
  let companyId: string;

  /** A message of parts at 0.0500 each, its refund as the services record it (the message's one amount). */
  const message = async (at: string, recipient: string, parts: Part[], options: { refunded?: string; status?: string } = {}) => {
    const [{ id }]: { id: string }[] = await db.query(
      `INSERT INTO messages (id, company_id, request_id, route, sender, recipient, body, encoding, parts, price_per_part, cost, refunded, status, created_at)
       VALUES (gen_random_uuid(), $1, gen_random_uuid(), 'auto', 'Acme', $2, 'Hello', 'GSM-7', $3::smallint, 0.05, 0.05 * $3::int, $4, $5, $6)
       RETURNING id`,
      [companyId, recipient, parts.length, options.refunded ?? '0', options.status ?? 'delivered', at],
    );
    await db.query(
      `INSERT INTO message_parts (message_id, part_index, user_message_reference, status, carrier, carrier_cost, timed_out_carriers)
       SELECT $1, i::smallint, i, p.status, p.carrier, p.cost::numeric, p.timed_out
       FROM jsonb_to_recordset($2::jsonb) AS p(status text, carrier text, cost text, timed_out text[], i int)`,
      [id, JSON.stringify(parts.map(({ timedOut, ...part }, index) => ({ ...part, timed_out: timedOut ?? null, i: index + 1 })))],
    );
  };
  const acme = (cost = '0.0100'): Part => ({ status: 'delivered', carrier: 'acme', cost });
  const report = async (by: MarginDimension[], carrier: string | null = null, range = marginRange('2025-03-01', '2025-03-02')) =>
    marginReportJson(await readMarginReport(db, { range, by, carrier }), { from: '', to: '' });
  const sums = (parts: number, charged: number, refunded: number, cost: number, margin: number, percent: number | null, uncosted = [0, 0], timedOut = 0) => ({
    parts,
    charged,
    refunded,
    net_charged: Math.round((charged - refunded) * 10_000) / 10_000,
    cost,
    uncosted_parts: uncosted[0],
    uncosted_charged: uncosted[1],
    margin,
    margin_percent: percent,
    timed_out_parts: timedOut,
  });
  /** A line of a carrier that took none of the group's parts but timed out on some. */
  const timedOutOnly = (count: number) => sums(0, 0, 0, 0, 0, null, [0, 0], count);

  beforeAll(async () => {
    own = await openOwnDataSource('margins', 2);
    db = own.db;
    companyId = (await db.query(`INSERT INTO companies (name, webhook_secret) VALUES ('Margins', 'whsec_x') RETURNING id`))[0].id;

    await message('2025-03-01T08:00:00Z', '+447400123456', [acme(), acme()]);
    await message('2025-03-01T09:00:00Z', '+447812345678', [acme()]);
    // Two parts never reached a carrier and were refunded; the second was refused by acme at submit, which costs nothing.
    await message(
      '2025-03-01T10:00:00Z',
      '+447400123457',
      [acme(), { status: 'failed', carrier: null, cost: null }, { status: 'failed', carrier: 'acme', cost: '0.0100' }],
      {
        refunded: '0.1000',
      },
    );
    await message('2025-03-02T10:00:00Z', '+4915112345678', [{ status: 'delivered', carrier: 'beta', cost: null }]);
    await message('2025-03-02T11:00:00Z', '+12025550123', [{ status: 'cancelled', carrier: null, cost: null }], { refunded: '0.0500', status: 'cancelled' });
    await message('2025-03-02T23:59:59.999Z', '+447400123458', [acme('0.0600')]);
    // Both parts timed out on slow (the first twice: one part still), the second on acme and on beta too, before
    // beta took them (beta on a later attempt: a part is not counted as timed out on the carrier that took it).
    await message('2025-03-02T12:00:00Z', '+33612345678', [
      { status: 'delivered', carrier: 'beta', cost: '0.0200', timedOut: ['slow', 'slow'] },
      { status: 'delivered', carrier: 'beta', cost: '0.0200', timedOut: ['slow', 'acme', 'beta'] },
    ]);
    // Outside the range, either side.
    await message('2025-02-28T23:59:59.999Z', '+447400123459', [acme()]);
    await message('2025-03-03T00:00:00Z', '+447400123460', [acme()]);
  });

  afterAll(async () => {
    await own?.drop();
  });

  it('gives each day, country and carrier its parts, net charge, cost, margin and timed-out parts, with the total', async () => {
    const answer = await report(['day', 'country', 'carrier']);
    expect(answer.lines).toEqual([
      { day: '2025-03-01', country: 'GB', carrier: 'acme', ...sums(5, 0.25, 0.05, 0.04, 0.16, 80) },
      { day: '2025-03-01', country: 'GB', carrier: null, ...sums(1, 0.05, 0.05, 0, 0, null) },
      { day: '2025-03-02', country: 'DE', carrier: 'beta', ...sums(1, 0.05, 0, 0, 0, null, [1, 0.05]) },
      { day: '2025-03-02', country: 'FR', carrier: 'acme', ...timedOutOnly(1) },
      { day: '2025-03-02', country: 'FR', carrier: 'beta', ...sums(2, 0.1, 0, 0.04, 0.06, 60) },
      { day: '2025-03-02', country: 'FR', carrier: 'slow', ...timedOutOnly(2) },
      { day: '2025-03-02', country: 'GB', carrier: 'acme', ...sums(1, 0.05, 0, 0.06, -0.01, -20) },
      { day: '2025-03-02', country: 'US', carrier: null, ...sums(1, 0.05, 0.05, 0, 0, null) },
    ]);
    expect(answer.total).toEqual(sums(11, 0.55, 0.15, 0.14, 0.21, 60, [1, 0.05], 3));
  });

  it('groups by the dimensions asked for only, with the same total', async () => {
    const byCarrier = await report(['carrier']);
    expect(byCarrier.lines).toEqual([
      { carrier: 'acme', ...sums(6, 0.3, 0.05, 0.1, 0.15, 60, [0, 0], 1) },
      { carrier: 'beta', ...sums(3, 0.15, 0, 0.04, 0.06, 60, [1, 0.05]) },
      { carrier: 'slow', ...timedOutOnly(2) },
      { carrier: null, ...sums(2, 0.1, 0.1, 0, 0, null) },
    ]);
    expect(byCarrier.total).toEqual(sums(11, 0.55, 0.15, 0.14, 0.21, 60, [1, 0.05], 3));
    expect((await report(['day'])).lines.map((line) => [line.day, line.parts, line.margin])).toEqual([
      ['2025-03-01', 6, 0.16],
      ['2025-03-02', 5, 0.05],
    ]);
    expect((await report(['country'])).lines.map((line) => [line.country, line.parts])).toEqual([
      ['DE', 1],
      ['FR', 2],
      ['GB', 7],
      ['US', 1],
    ]);
  });

  it('reads one carrier only, its name in any case, with the parts that timed out on it', async () => {
    const answer = await report(['country'], 'ACME');
    expect(answer.lines).toEqual([
      { country: 'FR', ...timedOutOnly(1) },
      { country: 'GB', ...sums(6, 0.3, 0.05, 0.1, 0.15, 60) },
    ]);
    expect((await report(['carrier'], 'slow')).lines).toEqual([{ carrier: 'slow', ...timedOutOnly(2) }]);
    expect((await report(['carrier'], 'nobody')).lines).toEqual([]);
  });

  it('refuses a range longer than 366 days', async () => {
    const range = { from: new Date('2024-01-01T00:00:00Z'), before: new Date('2025-01-02T00:00:00Z') };
    await expect(readMarginReport(db, { range, by: ['day'], carrier: null })).rejects.toThrow(MarginReportError);
  });
});
