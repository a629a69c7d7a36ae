import { admin, eventually, freePort, runAdmin, startStack, type RunningStack, createOwnDatabase, type OwnDatabase } from '@mp/testing';
import { Client } from 'pg';

type CarrierListed = { name: string; enabled: boolean; bound: number | null; bind_states: { state: string; bind: number }[] | null } & Record<string, unknown>;
type RouteListed = { prefix: string; route: string; carrier: string; priority: number; cost: number | null; weight: number | null; carrier_enabled: boolean };

/**
 * The operator's carrier and route commands (issue 31, items 1 and 2), run as processes. Carriers
 * are global (every company's traffic) and "no carrier yet" makes the dispatcher create its
 * default one, so this spec works in a database of its own, never the run's, and in a queue
 * prefix of its own so that only its dispatcher's binds are listed.
 */
describe('carrier and route admin commands', () => {
  const run = process.env['MP_TEST_RUN'];
  const password = `pw-${Date.now().toString(36)}`;
  let env: Record<string, string>;
  let own: OwnDatabase;
  let stack: RunningStack | undefined;

  beforeAll(async () => {
    own = await createOwnDatabase('carrier_admin');
    env = { DATABASE_URL: own.url, QUEUE_PREFIX: `mp-carriers-${run}` };
    await admin(['db:migrate'], env);
  });
  afterAll(async () => {
    await stack?.stop();
    await own?.drop();
  });

  const list = async () => (await admin(['carrier:list'], env)) as { carriers: CarrierListed[]; bind_states_error?: string };

  it('creates, updates, disables and enables carriers, and never prints a password', async () => {
    const created = await runAdmin(
      [
        'carrier:create',
        '--name',
        'acme-uk',
        '--host',
        'smpp.acme.example',
        '--port',
        '2775',
        '--system-id',
        'acme',
        '--password',
        password,
        '--binds',
        '2',
        '--tls',
      ],
      env,
    );
    expect(created.code).toBe(0);
    expect(created.json).toEqual({
      name: 'acme-uk',
      host: 'smpp.acme.example',
      port: 2775,
      system_id: 'acme',
      system_type: null,
      binds: 2,
      window: 50,
      max_per_second: 0,
      tls: true,
      tls_ca: null,
      tls_server_name: null,
      enabled: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const updated = await runAdmin(
      ['carrier:update', '--name', 'ACME-UK', '--port', '2800', '--max-per-second', '30', '--no-tls', '--password', `${password}-2`],
      env,
    );
    expect(updated.json).toMatchObject({ name: 'acme-uk', host: 'smpp.acme.example', port: 2800, max_per_second: 30, tls: false, binds: 2 });
    expect((await admin(['carrier:disable', '--name', 'acme-uk'], env))['enabled']).toBe(false);
    const listed = await runAdmin(['carrier:list'], env);
    expect((listed.json as { carriers: CarrierListed[] }).carriers).toEqual([expect.objectContaining({ name: 'acme-uk', enabled: false, port: 2800 })]);
    expect((await admin(['carrier:enable', '--name', 'acme-uk'], env))['enabled']).toBe(true);
    for (const output of [created, updated, listed]) expect(output.stdout + output.stderr).not.toContain(password);
  });

  it('sets, lists and removes routes, cheapest first by priority, with exact costs and weights', async () => {
    await admin(['carrier:create', '--name', 'backup', '--host', 'smpp.backup.example', '--port', '2775', '--system-id', 'b', '--password', password], env);
    expect(await admin(['route:set', '--prefix', '+44', '--carrier', 'acme-uk', '--priority', '1', '--cost', '0.004', '--weight', '70'], env)).toEqual({
      prefix: '+44',
      route: 'auto',
      carrier: 'acme-uk',
      priority: 1,
      cost: 0.004,
      weight: 70,
      carrier_enabled: true,
    });
    await admin(['route:set', '--prefix', '+44', '--carrier', 'backup', '--priority', '2', '--cost', '0.0051', '--weight', '30'], env);
    await admin(['route:set', '--prefix', '+', '--route', 'premium', '--carrier', 'backup', '--priority', '1'], env);
    const uk = (await admin(['route:list', '--prefix', '+44'], env))['routes'] as RouteListed[];
    expect(uk.map((r) => [r.carrier, r.priority, r.cost, r.weight])).toEqual([
      ['acme-uk', 1, 0.004, 70],
      ['backup', 2, 0.0051, 30],
    ]);
    expect(((await admin(['route:list'], env))['routes'] as RouteListed[]).map((r) => `${r.prefix} ${r.route} ${r.carrier}`)).toEqual([
      '+ premium backup',
      '+44 auto acme-uk',
      '+44 auto backup',
    ]);
    expect(await admin(['route:remove', '--prefix', '+44', '--carrier', 'backup'], env)).toEqual({ removed: true });
    expect(((await admin(['route:list', '--prefix', '+44'], env))['routes'] as RouteListed[]).map((r) => r.carrier)).toEqual(['acme-uk']);
  });

  it.each([
    [
      ['carrier:create', '--name', 'x', '--host', 'h.example', '--port', '70000', '--system-id', 's', '--password', 'p'],
      /--port must be an integer from 1 to 65535/,
      1,
    ],
    [['carrier:create', '--name', 'x', '--host', 'h.example', '--port', 'abc', '--system-id', 's', '--password', 'p'], /--port must be an integer/, 1],
    [['carrier:create', '--name', 'bad name', '--host', 'h.example', '--port', '1', '--system-id', 's', '--password', 'p'], /--name must be/, 1],
    [['carrier:create', '--name', 'ACME-uk', '--host', 'h.example', '--port', '1', '--system-id', 's', '--password', 'p'], /exists already/, 1],
    [['carrier:create', '--name', 'x', '--host', 'h.example', '--port', '1', '--password', 'p'], /--system-id is required/, 2],
    [['carrier:update', '--name', 'nobody', '--port', '1'], /no carrier named "nobody"/, 1],
    [['carrier:update', '--name', 'acme-uk'], /nothing to change/, 1],
    [['carrier:update', '--name', 'acme-uk', '--tls', '--no-tls'], /--tls or --no-tls, not both/, 2],
    [['carrier:disable', '--name', 'nobody'], /no carrier named "nobody"/, 1],
    [['route:set', '--prefix', '44', '--carrier', 'acme-uk', '--priority', '1'], /--prefix must be "\+" followed by up to 15 digits/, 1],
    [['route:set', '--prefix', '+44', '--carrier', 'nobody', '--priority', '1'], /no carrier named "nobody"/, 1],
    [['route:set', '--prefix', '+44', '--carrier', 'acme-uk', '--priority', '1', '--cost=-0.004'], /--cost must not be negative/, 1],
    [['route:set', '--prefix', '+44', '--carrier', 'acme-uk', '--priority', '1', '--route', 'gold'], /--route must be one of auto, standard, premium/, 1],
    [['route:set', '--prefix', '+44', '--carrier', 'acme-uk', '--priority', '1', '--weight', '0'], /--weight must be an integer from 1 to 100/, 1],
    [['route:set', '--prefix', '+44', '--carrier', 'backup', '--priority', '2', '--weight', '31'], /101 %/, 1],
    [['route:remove', '--prefix', '+49', '--carrier', 'acme-uk'], /has no auto route for \+49/, 1],
  ])('refuses %p with a message on stderr and its exit code', async (args, message, code) => {
    const refused = await runAdmin(args, env);
    expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code, stdout: '' });
    expect(refused.stderr).toMatch(message);
    expect(refused.stderr).not.toContain(password);
  });

  it('keeps the password as given, for the dispatcher to bind with', async () => {
    const db = new Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query(`SELECT name, password FROM carriers ORDER BY name`);
      expect(rows).toEqual([
        { name: 'acme-uk', password: `${password}-2` },
        { name: 'backup', password },
      ]);
    } finally {
      await db.end();
    }
  });

  it('lists the binds a running dispatcher reports for each carrier', async () => {
    const smscPort = await freePort();
    await admin(
      [
        'carrier:create',
        '--name',
        'default',
        '--host',
        '127.0.0.1',
        '--port',
        String(smscPort),
        '--system-id',
        'messaging',
        '--password',
        'secret',
        '--binds',
        '2',
      ],
      env,
    );
    expect((await list()).carriers.find((c) => c.name === 'default')).toMatchObject({ bound: 0, bind_states: [] });
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'smsc-simulator'], env: { ...env, SMSC_PORT: String(smscPort), SMPP_BINDS: '2' } });
    const listed = await eventually(list, (l) => l.carriers.find((c) => c.name === 'default')?.bound === 2, 60_000);
    const ours = listed.carriers.find((c) => c.name === 'default');
    expect(ours?.bind_states?.map((b) => [b.bind, b.state])).toEqual([
      [1, 'bound'],
      [2, 'bound'],
    ]);
    // The dispatcher binds every enabled carrier (decision 0057); acme-uk's host does not exist.
    const acme = listed.carriers.find((c) => c.name === 'acme-uk');
    expect(acme).toMatchObject({ bound: 0 });
    expect((acme?.bind_states ?? []).filter((b) => b.state === 'bound')).toEqual([]);
    expect(listed.bind_states_error).toBeUndefined();
  });

  it('still lists the carriers when Redis cannot be reached, and says why their binds are missing', async () => {
    const listed = (await admin(['carrier:list'], { ...env, REDIS_URL: `redis://127.0.0.1:${await freePort()}` })) as Awaited<ReturnType<typeof list>>;
    expect(listed.carriers.map((c) => [c.name, c.bound])).toEqual([
      ['acme-uk', null],
      ['backup', null],
      ['default', null],
    ]);
    expect(listed.bind_states_error).toMatch(/bind states not read/);
  });
});
