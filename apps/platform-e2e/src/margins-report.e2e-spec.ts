import { admin, runAdmin, startStack, type RunningStack, createOwnDatabase, type OwnDatabase } from '@mp/testing';
import { Client } from 'pg';
import { DASHBOARD_API, DashboardClient, PASSWORD, uniqueEmail } from './support/dashboard-client';

/**
 * `admin report:margins` (issue 31, item 5) run as a process, and the same report through the
 * gateway's operator route. The report is platform-wide, so this spec works in a database of its
 * own: every part it reads is one this spec wrote.
 */
describe('margin report: admin report:margins and GET /dashboard/api/operator/margins', () => {
  let env: Record<string, string>;
  let own: OwnDatabase;
  let db: Client;
  let companyId: string;
  let stack: RunningStack | undefined;

  /** A message of 0.0350 a part, each part taken by the carrier named at the cost given, after timing out on those in `timedOut`. */
  const message = async (
    at: string,
    recipient: string,
    parts: { carrier: string | null; cost: string | null; status?: string; timedOut?: string[] }[],
    refunded = '0',
  ) => {
    const {
      rows: [{ id }],
    } = await db.query(
      `INSERT INTO messages (id, company_id, request_id, route, sender, recipient, body, encoding, parts, price_per_part, cost, refunded, status, created_at)
       VALUES (gen_random_uuid(), (SELECT id FROM companies LIMIT 1), gen_random_uuid(), 'auto', 'Acme', $1, 'Hi', 'GSM-7', $2::smallint, 0.035, 0.035 * $2::int, $3, 'delivered', $4)
       RETURNING id`,
      [recipient, parts.length, refunded, at],
    );
    for (const [index, part] of parts.entries()) {
      await db.query(
        `INSERT INTO message_parts (message_id, part_index, user_message_reference, status, carrier, carrier_cost, timed_out_carriers)
         VALUES ($1, $2::smallint, $2::int, $3, $4, $5, $6)`,
        [id, index + 1, part.status ?? 'delivered', part.carrier, part.cost, part.timedOut ?? null],
      );
    }
  };

  beforeAll(async () => {
    own = await createOwnDatabase('margins_admin');
    env = { DATABASE_URL: own.url };
    await admin(['db:migrate'], env);
    companyId = (await admin(['company:create', '--name', 'Margins', '--balance', '10'], env))['company_id'] as string;
    db = new Client({ connectionString: own.url });
    await db.connect();
    await message('2026-11-20T10:00:00Z', '+447400123456', [
      { carrier: 'uk-cheap', cost: '0.0040' },
      { carrier: 'uk-cheap', cost: '0.0040' },
    ]);
    await message('2026-11-20T11:00:00Z', '+4915112345678', [{ carrier: 'eu-any', cost: null }]);
    await message(
      '2026-11-21T09:00:00Z',
      '+447400123457',
      [
        // Timed out on uk-slow first, which may have taken and charged for it too.
        { carrier: 'uk-fast', cost: '0.0100', timedOut: ['uk-slow'] },
        { carrier: null, cost: null, status: 'failed' },
      ],
      '0.0350',
    );
    await message('2026-11-22T00:00:00Z', '+447400123458', [{ carrier: 'uk-cheap', cost: '0.0040' }]);
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.end();
    await own?.drop();
  });

  it('prints the margin by day, country and carrier as JSON, unknown costs and timed-out parts apart, with the total', async () => {
    const report = await admin(['report:margins', '--from', '2026-11-20', '--to', '2026-11-21'], env);
    const amounts = (
      parts: number,
      charged: number,
      refunded: number,
      cost: number,
      uncosted: [number, number],
      margin: number,
      percent: number | null,
      timedOut = 0,
    ) => ({
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
    expect(report).toEqual({
      from: '2026-11-20',
      to: '2026-11-21',
      by: ['day', 'country', 'carrier'],
      lines: [
        { day: '2026-11-20', country: 'DE', carrier: 'eu-any', ...amounts(1, 0.035, 0, 0, [1, 0.035], 0, null) },
        { day: '2026-11-20', country: 'GB', carrier: 'uk-cheap', ...amounts(2, 0.07, 0, 0.008, [0, 0], 0.062, 88.57) },
        { day: '2026-11-21', country: 'GB', carrier: 'uk-fast', ...amounts(1, 0.035, 0, 0.01, [0, 0], 0.025, 71.43) },
        { day: '2026-11-21', country: 'GB', carrier: 'uk-slow', ...amounts(0, 0, 0, 0, [0, 0], 0, null, 1) },
        { day: '2026-11-21', country: 'GB', carrier: null, ...amounts(1, 0.035, 0.035, 0, [0, 0], 0, null) },
      ],
      total: amounts(5, 0.175, 0.035, 0.018, [1, 0.035], 0.087, 82.86, 1),
    });
  });

  it('prints CSV by carrier, exact to 4 decimals, the total last', async () => {
    const csv = await runAdmin(['report:margins', '--from', '2026-11-20', '--to', '2026-11-22', '--by', 'carrier', '--format', 'csv'], env);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\r\n')).toEqual([
      'carrier,parts,charged,refunded,net_charged,cost,uncosted_parts,uncosted_charged,margin,margin_percent,timed_out_parts',
      'eu-any,1,0.0350,0.0000,0.0350,0.0000,1,0.0350,0.0000,,0',
      'uk-cheap,3,0.1050,0.0000,0.1050,0.0120,0,0.0000,0.0930,88.57,0',
      'uk-fast,1,0.0350,0.0000,0.0350,0.0100,0,0.0000,0.0250,71.43,0',
      'uk-slow,0,0.0000,0.0000,0.0000,0.0000,0,0.0000,0.0000,,1',
      ',1,0.0350,0.0350,0.0000,0.0000,0,0.0000,0.0000,,0',
      'total,6,0.2100,0.0350,0.1750,0.0220,1,0.0350,0.1180,84.29,1',
      '',
    ]);
  });

  it('reads one carrier', async () => {
    const report = await admin(['report:margins', '--from', '2026-11-01', '--to', '2026-11-30', '--by', 'day', '--carrier', 'UK-CHEAP'], env);
    expect((report['lines'] as { day: string; parts: number }[]).map((line) => [line.day, line.parts])).toEqual([
      ['2026-11-20', 2],
      ['2026-11-22', 1],
    ]);
  });

  it('refuses bad dates, ranges, groups and formats with exit 1, a missing option with exit 2', async () => {
    const refused = async (args: string[]) => {
      const result = await runAdmin(['report:margins', ...args], env);
      return [result.code, result.stderr.split('\n')[0]];
    };
    expect(await refused(['--from', '2026-11-31', '--to', '2026-12-01'])).toEqual([1, 'admin report:margins: from must be a date YYYY-MM-DD']);
    expect(await refused(['--from', '2025-01-01', '--to', '2026-01-02'])).toEqual([1, 'admin report:margins: the range must be at most 366 days']);
    expect(await refused(['--from', '2026-11-02', '--to', '2026-11-01'])).toEqual([1, 'admin report:margins: from must not be after to']);
    expect((await refused(['--from', '2026-11-01', '--to', '2026-11-02', '--by', 'route']))[0]).toBe(1);
    expect(await refused(['--from', '2026-11-01', '--to', '2026-11-02', '--format', 'xml'])).toEqual([1, 'admin report:margins: --format must be json or csv']);
    expect((await refused(['--from', '2026-11-01']))[0]).toBe(2);
  });

  it('answers operators the same report over the dashboard API, as JSON and CSV, and refuses everyone else', async () => {
    const operatorEmail = uniqueEmail('margins-operator');
    const ownerEmail = uniqueEmail('margins-owner');
    await admin(['user:create', '--operator', '--email', operatorEmail, '--password', PASSWORD], env);
    await admin(['user:create', '--company', companyId, '--email', ownerEmail, '--password', PASSWORD], env);
    stack = await startStack({ apps: ['gateway'], env });
    const url = () => (stack as RunningStack).gatewayUrl;
    const operator = new DashboardClient(url);
    expect((await operator.signIn(operatorEmail)).status).toBe(200);

    const answer = await operator.get('/operator/margins?from=2026-11-20&to=2026-11-22&by=day,carrier');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(await admin(['report:margins', '--from', '2026-11-20', '--to', '2026-11-22', '--by', 'day,carrier'], env));
    expect((answer.body['total'] as Record<string, unknown>)['margin']).toBe(0.118);

    const csv = await fetch(`${url()}${DASHBOARD_API}/operator/margins.csv?from=2026-11-20&to=2026-11-22&by=carrier&carrier=uk-fast`, {
      headers: { cookie: `mp_session=${operator.token}` },
    });
    expect([csv.status, csv.headers.get('content-type'), (await csv.text()).split('\r\n')]).toEqual([
      200,
      'text/csv; charset=utf-8',
      [
        'carrier,parts,charged,refunded,net_charged,cost,uncosted_parts,uncosted_charged,margin,margin_percent,timed_out_parts',
        'uk-fast,1,0.0350,0.0000,0.0350,0.0100,0,0.0000,0.0250,71.43,0',
        'total,1,0.0350,0.0000,0.0350,0.0100,0,0.0000,0.0250,71.43,0',
        '',
      ],
    ]);

    for (const [query, error] of [
      ['from=2026-11-20', 'to is required'],
      ['from=2025-01-01&to=2026-01-02', 'the range must be at most 366 days'],
      ['from=2026-11-20&to=2026-11-21&by=route', 'by must be day, country and/or carrier, comma-separated'],
      ['from=2026-11-20&to=2026-11-21&company_id=x', 'company_id is not a known query parameter'],
    ]) {
      const refused = await operator.get(`/operator/margins?${query}`);
      expect([query, refused.status, refused.body]).toEqual([query, 400, { error }]);
    }

    const owner = new DashboardClient(url);
    expect((await owner.signIn(ownerEmail)).status).toBe(200);
    const forbidden = await owner.get('/operator/margins?from=2026-11-20&to=2026-11-21');
    expect([forbidden.status, forbidden.body]).toEqual([403, { error: 'Your role does not allow this' }]);
    expect((await new DashboardClient(url).get('/operator/margins?from=2026-11-20&to=2026-11-21')).status).toBe(401);
  });
});
