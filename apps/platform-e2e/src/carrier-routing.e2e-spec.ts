import {
  admin,
  eventually,
  startSmscSimulatorProcess,
  startStack,
  type RunningStack,
  type SmscSimulatorProcess,
  createOwnDatabase,
  type OwnDatabase,
} from '@mp/testing';
import { Client } from 'pg';
import { ApiClient, type Company, type Json } from './support/api-client';
import { DashboardClient, PASSWORD, uniqueEmail } from './support/dashboard-client';

/**
 * Carriers and routes in the sms-dispatcher (issue 31; decision 0057): two real SMSC simulators,
 * `default` (created from SMSC_* at the first start) and `cheap`, created by the operator while
 * the dispatcher runs. Carriers are global, so this spec works in a database of its own.
 */
describe('carrier routing in the sms-dispatcher', () => {
  const run = process.env['MP_TEST_RUN'];
  let env: Record<string, string>;
  let own: OwnDatabase;
  let db: Client;
  let stack: RunningStack | undefined;
  let defaultSmsc: SmscSimulatorProcess;
  let cheapSmsc: SmscSimulatorProcess;
  let pickySmsc: SmscSimulatorProcess;
  let company: Company;

  const api = new ApiClient(
    () => (stack as RunningStack).gatewayUrl,
    () => company,
  );
  const send = async (to: string, message: string): Promise<string> => {
    const response = await api.post<{ data: { message_id: string } }>('/sms/send', { to, message });
    expect(response.status).toBe(200);
    return response.body.data.message_id;
  };
  const delivered = async (id: string): Promise<{ carrier: string | null; carrier_cost: string | null }> => {
    const status = async () => (await api.get<{ data: { status: string } }>(`/sms/${id}`)).body.data.status;
    expect(await eventually(status, (value) => value === 'delivered')).toBe('delivered');
    const { rows } = await db.query(`SELECT carrier, carrier_cost::text FROM message_parts WHERE message_id = $1`, [id]);
    return rows[0];
  };
  const texts = async (smsc: SmscSimulatorProcess, to: string) => (await smsc.messages(to)).map(({ text }) => text);

  beforeAll(async () => {
    own = await createOwnDatabase('carrier_routing');
    env = { DATABASE_URL: own.url, QUEUE_PREFIX: `mp-carrier-routing-${run}` };
    await admin(['db:migrate'], env);
    db = new Client({ connectionString: own.url });
    await db.connect();
    company = (await admin(['company:create', '--name', 'Carrier routing', '--balance', '10'], env)) as unknown as Company;
    defaultSmsc = await startSmscSimulatorProcess({ SMSC_RECEIPT_DELAY_MS: '50' });
    cheapSmsc = await startSmscSimulatorProcess({ SMSC_RECEIPT_DELAY_MS: '50' });
    // Refuses every submit_sm with ESME_RSUBMITFAIL, a permanent refusal.
    pickySmsc = await startSmscSimulatorProcess({ SMSC_REJECT_RATE: '1' });
    stack = await startStack({
      apps: ['gateway', 'sms-dispatcher'],
      env: { ...env, SMSC_HOST: '127.0.0.1', SMSC_PORT: String(defaultSmsc.smppPort), CARRIER_POLL_MS: '300', OUTBOX_SWEEP_MS: '1000' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await defaultSmsc?.stop();
    await cheapSmsc?.stop();
    await pickySmsc?.stop();
    await db?.end();
    await own?.drop();
  });

  it('sends by the default carrier created from SMSC_*, recording it on the part', async () => {
    const id = await send('+447911200001', 'Before any route');
    expect(await delivered(id)).toEqual({ carrier: 'default', carrier_cost: null });
    expect(await texts(defaultSmsc, '+447911200001')).toEqual(['Before any route']);
  });

  it('takes a carrier added at run time for the prefix where it is cheapest, the others staying on their routes', async () => {
    const carrier = ['--host', '127.0.0.1', '--port', String(cheapSmsc.smppPort), '--system-id', 'messaging', '--password', 'secret', '--binds', '1'];
    await admin(['carrier:create', '--name', 'cheap', ...carrier], env);
    await admin(['route:set', '--prefix', '+44', '--carrier', 'cheap', '--priority', '1', '--cost', '0.002'], env);
    await admin(['route:set', '--prefix', '+44', '--carrier', 'default', '--priority', '1', '--cost', '0.004'], env);
    // Within a few polls the dispatcher binds `cheap`; until then +44 parts go to `default`.
    const landed = await eventually(
      async () => delivered(await send('+447911200002', 'Least cost')),
      (part) => part.carrier === 'cheap',
    );
    expect(landed).toEqual({ carrier: 'cheap', carrier_cost: '0.0020' });
    expect(await texts(cheapSmsc, '+447911200002')).toContain('Least cost');

    const france = await send('+33612200003', 'Catch-all');
    expect(await delivered(france)).toEqual({ carrier: 'default', carrier_cost: null });
    expect(await texts(defaultSmsc, '+33612200003')).toEqual(['Catch-all']);
    expect(await texts(cheapSmsc, '+33612200003')).toEqual([]);
  });

  it('moves a prefix to the next carrier when the cheapest is disabled at run time', async () => {
    await admin(['carrier:disable', '--name', 'cheap'], env);
    // Once the dispatcher has closed cheap's binds: a part it took just before would lose its
    // receipt with them (the simulator keeps none for a bind that left) and stay `sent`.
    type Listed = { carriers: { name: string; bound: number | null }[] };
    await eventually(
      async () => (await admin(['carrier:list'], env)) as unknown as Listed,
      (listed) => !((listed.carriers.find((c) => c.name === 'cheap')?.bound ?? 0) >= 1),
      60_000,
    );
    const landed = await eventually(
      async () => delivered(await send('+447911200004', 'After disable')),
      (part) => part.carrier === 'default',
    );
    expect(landed).toEqual({ carrier: 'default', carrier_cost: '0.0040' });
  });

  it('fails over to the other carrier when the cheapest refuses its binds, each message delivered once and charged once', async () => {
    await admin(['carrier:enable', '--name', 'cheap'], env);
    await eventually(
      async () => delivered(await send('+447911200005', 'Enabled again')),
      (part) => part.carrier === 'cheap',
    );
    const dropped = await fetch(`${cheapSmsc.httpUrl}/binds/drop?refuse_ms=600000`, { method: 'POST' });
    expect(dropped.status).toBe(200);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await send(`+44791120010${i}`, `Failover ${i}`));
    for (const id of ids) expect(await delivered(id)).toEqual({ carrier: 'default', carrier_cost: '0.0040' });
    for (let i = 0; i < 5; i++) {
      expect(await texts(defaultSmsc, `+44791120010${i}`)).toEqual([`Failover ${i}`]);
      expect(await texts(cheapSmsc, `+44791120010${i}`)).toEqual([]);
    }
    // One charge per message sent in this database (one company), none refunded.
    const { rows } = await db.query(
      `SELECT (SELECT count(*)::int FROM messages) AS messages,
              count(*) FILTER (WHERE kind = 'charge')::int AS charges, count(*) FILTER (WHERE kind = 'refund')::int AS refunds
         FROM ledger_entries`,
    );
    expect(rows[0]).toEqual({ messages: rows[0].charges, charges: expect.any(Number), refunds: 0 });
  });

  it('fails a part its carrier rejects for good, and tries no other carrier with it', async () => {
    const carrier = ['--host', '127.0.0.1', '--port', String(pickySmsc.smppPort), '--system-id', 'messaging', '--password', 'secret', '--binds', '1'];
    await admin(['carrier:create', '--name', 'picky', ...carrier], env);
    await admin(['route:set', '--prefix', '+49', '--carrier', 'picky', '--priority', '1', '--cost', '0.001'], env);
    await admin(['route:set', '--prefix', '+49', '--carrier', 'default', '--priority', '2', '--cost', '0.004'], env);
    type Listed = { carriers: { name: string; bound: number | null }[] };
    await eventually(
      async () => (await admin(['carrier:list'], env)) as unknown as Listed,
      (listed) => (listed.carriers.find((c) => c.name === 'picky')?.bound ?? 0) >= 1,
      60_000,
    );
    const id = await send('+4915112200001', 'Rejected');
    const status = async () => (await api.get<{ data: { status: string } }>(`/sms/${id}`)).body.data.status;
    expect(await eventually(status, (value) => value === 'failed')).toBe('failed');
    const { rows } = await db.query(`SELECT status, error_code, carrier FROM message_parts WHERE message_id = $1`, [id]);
    expect(rows).toEqual([{ status: 'failed', error_code: 'smpp:69', carrier: null }]);
    expect(await texts(defaultSmsc, '+4915112200001')).toEqual([]);
    expect(await (await fetch(`${pickySmsc.httpUrl}/stats`)).json()).toMatchObject({ rejected: 1, accepted: 0 });
  });

  it("shows each carrier's health, summed from what the dispatcher publishes, in carrier:list and to operators", async () => {
    type Health = { submits: number; error_rate: number | null; delivered_share: number | null } & Record<string, unknown>;
    type Listed = { carriers: ({ name: string; binds: number; bound: number | null; health: Health | null } & Record<string, unknown>)[] };
    const healthOf = (carriers: { name: string; health: Health | null }[], name: string) => carriers.find((c) => c.name === name)?.health;
    // default took every part but picky's (at least eight so far), each delivered; picky refused its one.
    const listed = await eventually(
      async () => (await admin(['carrier:list'], env)) as unknown as Listed,
      ({ carriers }) => healthOf(carriers, 'default')?.delivered_share === 1 && healthOf(carriers, 'picky')?.error_rate === 1,
      60_000,
    );
    const defaultCarrier = listed.carriers.find((c) => c.name === 'default');
    expect(defaultCarrier?.bound).toBe(defaultCarrier?.binds);
    expect(defaultCarrier?.health).toEqual({
      window_seconds: 300,
      dispatchers: 1,
      submits: expect.any(Number),
      submits_per_second: expect.any(Number),
      throttled_rate: 0,
      error_rate: 0,
      receipts: expect.any(Number),
      delivered_share: 1,
      mean_receipt_latency_ms: expect.any(Number),
      degraded: false,
      degraded_by: 0,
      reasons: ['too_few_receipts'],
    });
    expect(defaultCarrier?.health?.submits).toBeGreaterThanOrEqual(8);
    expect(healthOf(listed.carriers, 'picky')).toMatchObject({ submits: 1, error_rate: 1, receipts: 0, delivered_share: null, degraded: false });

    const operatorEmail = uniqueEmail('carrier-health-operator');
    await admin(['user:create', '--operator', '--email', operatorEmail, '--password', PASSWORD], env);
    const operator = new DashboardClient(() => (stack as RunningStack).gatewayUrl);
    expect((await operator.signIn(operatorEmail)).status).toBe(200);
    const answer = await operator.get('/operator/carriers');
    expect(answer.status).toBe(200);
    const items = answer.body['items'] as Json[];
    expect(items.map((c) => c['name'])).toEqual(['cheap', 'default', 'picky']);
    const ours = items.find((c) => c['name'] === 'default') as Json;
    expect(ours).toMatchObject({ enabled: true, bound: ours['binds'], health: { dispatchers: 1, delivered_share: 1, error_rate: 0, degraded: false } });
    expect((ours['health'] as Health).submits).toBeGreaterThanOrEqual(8);
    const bindStates = ours['bind_states'] as Json[];
    expect(bindStates.map((b) => b['bind'])).toEqual(Array.from({ length: ours['binds'] as number }, (_, i) => i + 1));
    for (const bind of bindStates)
      expect(bind).toEqual({ bind: bind['bind'], dispatcher: expect.stringMatching(/:\d+$/), state: 'bound', since: expect.any(String) });
    expect((await new DashboardClient(() => (stack as RunningStack).gatewayUrl).get('/operator/carriers')).status).toBe(401);
  });
});
