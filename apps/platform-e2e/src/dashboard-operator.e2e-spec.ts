import { admin, eventually, startStack, type RunningStack } from '@mp/testing';
import { ApiClient, createCompany, type Company, type Json } from './support/api-client';
import { createUser, DASHBOARD_API, DashboardClient, uniqueEmail } from './support/dashboard-client';

/**
 * The operators' part of the dashboard API through the real gateway, sms-dispatcher and SMSC
 * simulator (PostgreSQL, Redis): companies made, topped up (the ledger row and the audit entry
 * naming the operator), suspended (the public API refuses the key, the company's users change
 * nothing) and restored; the price table edited and round-tripped as CSV, a bad row refusing the
 * whole file; the overview's queue depths and the dispatcher's SMSC binds. Credentials are not
 * cached (AUTH_CACHE_TTL_MS=0), so a suspension is seen at once. Prices are set only for prefixes
 * no other spec prices (+99…), so the defaults other specs charge at stay as they are.
 */
describe('dashboard API for operators', () => {
  let stack: RunningStack;
  let acme: Company;
  let owner: string;
  let developer: string;
  let operatorEmail: string;
  let operatorId: string;
  const url = () => stack.gatewayUrl;
  const api = new ApiClient(url);

  async function signedIn(email: string): Promise<DashboardClient> {
    const client = new DashboardClient(url);
    expect((await client.signIn(email)).status).toBe(200);
    return client;
  }

  beforeAll(async () => {
    await admin(['db:migrate']);
    acme = await createCompany('Acme Operators', '10');
    owner = uniqueEmail('op-owner');
    developer = uniqueEmail('op-developer');
    operatorEmail = uniqueEmail('operator');
    await createUser(acme.company_id, owner);
    await createUser(acme.company_id, developer, 'developer');
    operatorId = (await createUser(null, operatorEmail))['user_id'] as string;
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'smsc-simulator'], env: { AUTH_CACHE_TTL_MS: '0' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses every operator route to an owner and a developer (403), and to no one signed in (401)', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/operator/companies'],
      ['POST', '/operator/companies', { name: 'Nope' }],
      ['GET', `/operator/companies/${acme.company_id}`],
      ['POST', `/operator/companies/${acme.company_id}/suspend`],
      ['POST', `/operator/companies/${acme.company_id}/unsuspend`],
      ['POST', `/operator/companies/${acme.company_id}/top-ups`, { amount: '5' }],
      ['GET', '/operator/prices'],
      ['PUT', '/operator/prices', { prefix: '+99', route: 'auto', price: '1' }],
      ['POST', '/operator/prices/import', { csv: 'prefix,route,price\n+99,auto,1\n' }],
      ['GET', '/operator/overview'],
      ['GET', '/operator/carriers'],
    ];
    for (const email of [owner, developer]) {
      const client = await signedIn(email);
      for (const [method, path, body] of routes) {
        const answer = await client.request(method, path, body);
        expect([email, method, path, answer.status, answer.body]).toEqual([email, method, path, 403, { error: 'Your role does not allow this' }]);
      }
      const csv = await fetch(`${url()}${DASHBOARD_API}/operator/prices.csv`, { headers: { cookie: `mp_session=${client.token}` } });
      expect([csv.status, await csv.json()]).toEqual([403, { error: 'Your role does not allow this' }]);
    }
    expect((await new DashboardClient(url).get('/operator/companies')).status).toBe(401);
  });

  it('creates a company with its opening balance and a working key pair, listed with its balance and status', async () => {
    const operator = await signedIn(operatorEmail);
    const created = await operator.post('/operator/companies', { name: 'Initech', balance: '12.5', currency: 'USD' });
    expect(created.status).toBe(200);
    const company = created.body['company'] as Json;
    expect(company).toEqual({
      id: expect.any(String),
      name: 'Initech',
      currency: 'USD',
      balance: 12.5,
      status: 'active',
      suspended_at: null,
      created_at: expect.any(String),
    });
    const key = { api_key: created.body['api_key'] as string, api_secret: created.body['api_secret'] as string };
    expect(await api.as(key).get('/balance')).toMatchObject({ status: 200, body: { data: { balance: 12.5 } } });
    const list = await operator.get('/operator/companies');
    expect(list.status).toBe(200);
    const items = list.body['items'] as Json[];
    expect(items).toEqual(expect.arrayContaining([company, expect.objectContaining({ id: acme.company_id, balance: 10, status: 'active' })]));
    const audit = await operator.get(`/audit?company_id=${company['id']}`);
    expect((audit.body['items'] as Json[])[0]).toMatchObject({ action: 'company.created', actor: { id: operatorId, email: operatorEmail } });
  });

  it('refuses a bad company: 400 naming the field', async () => {
    const operator = await signedIn(operatorEmail);
    expect(await operator.post('/operator/companies', {})).toMatchObject({ status: 400, body: { error: 'name is required' } });
    expect(await operator.post('/operator/companies', { name: 'X', balance: '-1' })).toMatchObject({
      status: 400,
      body: { error: 'balance must be zero or more' },
    });
    expect(await operator.post('/operator/companies', { name: 'X', balance: 10 })).toMatchObject({ status: 400 });
  });

  it('tops up: a topup ledger row with its reference and an audit entry naming the operator; bad amounts 400, a reference used twice 409', async () => {
    const operator = await signedIn(operatorEmail);
    const reference = `wire-${process.pid}`;
    const done = await operator.post(`/operator/companies/${acme.company_id}/top-ups`, { amount: '25.0125', reference });
    expect(done).toMatchObject({ status: 200, body: { company_id: acme.company_id, amount: 25.0125, balance: 35.0125, reference } });
    const ledger = await operator.get(`/billing/ledger?company_id=${acme.company_id}`);
    expect(ledger.status).toBe(200);
    expect((ledger.body['items'] as Json[])[0]).toMatchObject({ kind: 'topup', amount: 25.0125, balance_after: 35.0125, reference });
    const audit = await operator.get(`/audit?company_id=${acme.company_id}`);
    expect((audit.body['items'] as Json[])[0]).toMatchObject({
      action: 'balance.topped_up',
      actor: { id: operatorId, email: operatorEmail },
      details: { amount: 25.0125, balance: 35.0125, reference },
    });
    expect(await api.as(acme).get('/balance')).toMatchObject({ status: 200, body: { data: { balance: 35.0125 } } });

    const again = await operator.post(`/operator/companies/${acme.company_id}/top-ups`, { amount: '1', reference });
    expect(again).toMatchObject({ status: 409, body: { error: `a top-up with the reference "${reference}" was already recorded` } });
    for (const [amount, error] of [
      ['0', 'amount must be more than zero'],
      ['-5', 'amount must be more than zero'],
      ['1.00001', 'amount must be a decimal with at most 4 decimals, e.g. 10 or 0.035'],
      ['ten', 'amount must be a decimal with at most 4 decimals, e.g. 10 or 0.035'],
    ]) {
      expect(await operator.post(`/operator/companies/${acme.company_id}/top-ups`, { amount })).toMatchObject({ status: 400, body: { error } });
    }
    expect(await operator.post(`/operator/companies/${acme.company_id}/top-ups`, { amount: 5 })).toMatchObject({ status: 400 });
    expect(await operator.post(`/operator/companies/${acme.company_id}/top-ups`, {})).toMatchObject({ status: 400, body: { error: 'amount is required' } });
    expect(await operator.post('/operator/companies/00000000-0000-4000-8000-000000000000/top-ups', { amount: '1' })).toMatchObject({ status: 404 });
    expect(await operator.post('/operator/companies/not-a-company/top-ups', { amount: '1' })).toMatchObject({ status: 404 });
    expect(await api.as(acme).get('/balance')).toMatchObject({ body: { data: { balance: 35.0125 } } });
  });

  it("suspends: the public API refuses the company's key and its users change nothing; unsuspending restores both", async () => {
    const operator = await signedIn(operatorEmail);
    const ownerClient = await signedIn(owner);
    const suspended = await operator.post(`/operator/companies/${acme.company_id}/suspend`);
    expect(suspended).toMatchObject({ status: 200, body: { id: acme.company_id, status: 'suspended', suspended_at: expect.any(String) } });
    const refused = await api.as(acme).get('/balance');
    expect(refused).toMatchObject({ status: 403, body: { error: 'Company suspended: contact the platform operator' } });
    expect(await api.post('/auth/token', { api_key: acme.api_key, api_secret: acme.api_secret })).toMatchObject({ status: 403 });

    expect(await ownerClient.get('/keys')).toMatchObject({ status: 200 });
    expect(await ownerClient.get('/session')).toMatchObject({ body: { user: { company: { id: acme.company_id, suspended: true } } } });
    expect(await ownerClient.post('/keys')).toMatchObject({ status: 403, body: { error: 'Company suspended: contact the platform operator' } });
    const again = await operator.post(`/operator/companies/${acme.company_id}/suspend`);
    expect(again.body['suspended_at']).toBe(suspended.body['suspended_at']);

    const restored = await operator.post(`/operator/companies/${acme.company_id}/unsuspend`);
    expect(restored).toMatchObject({ status: 200, body: { status: 'active', suspended_at: null } });
    expect(await api.as(acme).get('/balance')).toMatchObject({ status: 200 });
    expect(await ownerClient.post('/keys')).toMatchObject({ status: 200 });
    const actions = ((await operator.get(`/audit?company_id=${acme.company_id}`)).body['items'] as Json[]).map((entry) => entry['action']);
    expect(actions.slice(0, 3)).toEqual(['key.created', 'company.unsuspended', 'company.suspended']);
    expect(actions.filter((action) => action === 'company.suspended')).toHaveLength(1);
    expect((await operator.post('/operator/companies/00000000-0000-4000-8000-000000000000/suspend')).status).toBe(404);
  });

  it('edits a price, exports the table as CSV and imports it back; a bad row refuses the whole file, naming its line', async () => {
    const operator = await signedIn(operatorEmail);
    const set = await operator.request('PUT', '/operator/prices', { prefix: '+9991', route: 'premium', price: '0.0425' });
    expect(set).toMatchObject({ status: 200, body: { prefix: '+9991', route: 'premium', price: 0.0425 } });
    expect(await operator.request('PUT', '/operator/prices', { prefix: '9991', route: 'premium', price: '1' })).toMatchObject({ status: 400 });
    expect(await operator.request('PUT', '/operator/prices', { prefix: '+9991', route: 'fast', price: '1' })).toMatchObject({
      status: 400,
      body: { error: 'route must be one of auto, standard, premium, whatsapp' },
    });
    const listed = (await operator.get('/operator/prices')).body['items'] as Json[];
    expect(listed).toContainEqual({ prefix: '+9991', route: 'premium', price: 0.0425 });

    const exported = await fetch(`${url()}${DASHBOARD_API}/operator/prices.csv`, { headers: { cookie: `mp_session=${operator.token}` } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
    const csv = await exported.text();
    expect(csv.startsWith('prefix,route,price\r\n')).toBe(true);
    expect(csv).toContain('+9991,premium,0.0425\r\n');
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(listed.length + 1);

    const edited = `${csv.replace('+9991,premium,0.0425', '+9991,premium,0.0500')}+9992,auto,0.0010\r\n`;
    expect(await operator.post('/operator/prices/import', { csv: edited })).toMatchObject({ status: 200, body: { imported: listed.length + 1 } });
    const after = (await operator.get('/operator/prices')).body['items'] as Json[];
    expect(after).toEqual(
      expect.arrayContaining([
        { prefix: '+9991', route: 'premium', price: 0.05 },
        { prefix: '+9992', route: 'auto', price: 0.001 },
      ]),
    );
    expect(after).toHaveLength(listed.length + 1);

    const bad = 'prefix,route,price\n+9993,auto,0.01\n+9994,auto,0.001x\n';
    expect(await operator.post('/operator/prices/import', { csv: bad })).toMatchObject({
      status: 400,
      body: { error: 'line 3: price must be a decimal with at most 4 decimals, e.g. 0.035' },
    });
    const unchanged = (await operator.get('/operator/prices')).body['items'] as Json[];
    expect(unchanged).toEqual(after);
    expect(await operator.post('/operator/prices/import', {})).toMatchObject({ status: 400, body: { error: 'csv is required' } });
  });

  it('shows every queue with its depths and the SMSC binds the dispatcher holds', async () => {
    const operator = await signedIn(operatorEmail);
    const answer = await eventually(
      () => operator.get('/operator/overview'),
      (read) => read.status === 200 && (read.body['binds'] as Json[]).some((bind) => bind['route'] === 'default' && bind['state'] === 'bound'),
    );
    expect(answer.status).toBe(200);
    const overview = answer.body;
    const queues = overview['queues'] as Json[];
    expect(queues.map((queue) => queue['queue'])).toEqual(expect.arrayContaining(['sms.dispatch', 'otp.dispatch', 'campaign.dispatch', 'webhook.deliver']));
    for (const queue of queues)
      expect(queue).toEqual({
        queue: queue['queue'],
        waiting: expect.any(Number),
        active: expect.any(Number),
        delayed: expect.any(Number),
        failed: expect.any(Number),
      });
    const bind = (overview['binds'] as Json[]).find((b) => b['route'] === 'default') as Json;
    expect(bind).toEqual({
      route: 'default',
      bind: 1,
      smsc: expect.stringMatching(/:\d+$/),
      dispatcher: expect.stringMatching(/:\d+$/),
      state: 'bound',
      since: expect.any(String),
    });
    expect(Date.parse(bind['since'] as string)).toBeLessThanOrEqual(Date.parse(overview['read_at'] as string));
  });
});
