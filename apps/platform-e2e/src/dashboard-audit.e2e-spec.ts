import { admin, runAdmin, startStack, type RunningStack } from '@mp/testing';
import { createCompany, type Company, type Json } from './support/api-client';
import { createUser, DashboardClient, uniqueEmail } from './support/dashboard-client';

interface Entry {
  action: string;
  actor: string | null;
  details: Json;
}

/**
 * The audit log through the real gateway (PostgreSQL, Redis): an operator without company_id
 * reads the platform's own entries (operators, prices set in the console or by the admin tool,
 * imports), with it a company's; a company's users read their own, never another's; the action
 * filter.
 */
describe('dashboard API: the audit log', () => {
  let stack: RunningStack;
  let acme: Company;
  let globex: Company;
  const people = {
    acmeOwner: uniqueEmail('audit-owner'),
    acmeDeveloper: uniqueEmail('audit-dev'),
    globexOwner: uniqueEmail('audit-globex'),
    operator: uniqueEmail('audit-op'),
  };
  const url = () => stack.gatewayUrl;

  async function signedIn(email: string): Promise<DashboardClient> {
    const client = new DashboardClient(url);
    expect((await client.signIn(email)).status).toBe(200);
    return client;
  }

  async function entries(client: DashboardClient, query = ''): Promise<Entry[]> {
    const page = await client.get(`/audit${query}`);
    expect(page.status).toBe(200);
    return (page.body['items'] as Json[]).map((entry) => ({
      action: entry['action'] as string,
      actor: ((entry['actor'] as Json | null)?.['email'] as string | undefined) ?? null,
      details: entry['details'] as Json,
    }));
  }

  beforeAll(async () => {
    await admin(['db:migrate']);
    acme = await createCompany('Audit Acme', '10');
    globex = await createCompany('Audit Globex', '10');
    await createUser(acme.company_id, people.acmeOwner);
    await createUser(acme.company_id, people.acmeDeveloper, 'developer');
    await createUser(globex.company_id, people.globexOwner);
    await createUser(null, people.operator);
    stack = await startStack({ apps: ['gateway'] });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("answers an operator without company_id the platform's own entries: a price set in the console naming the operator, one by the admin tool, an import", async () => {
    const operator = await signedIn(people.operator);
    const prefix = `+99${String(process.pid).slice(-5)}`;
    expect((await operator.request('PUT', '/operator/prices', { prefix, route: 'premium', price: '0.0425' })).status).toBe(200);
    expect((await runAdmin(['price:set', '--prefix', prefix, '--route', 'premium', '--price', '0.05'])).code).toBe(0);
    const imported = await operator.post('/operator/prices/import', { csv: `prefix,route,price\n${prefix},auto,0.02\n${prefix},standard,0.03\n` });
    expect(imported).toMatchObject({ status: 200, body: { imported: 2 } });
    expect((await operator.post('/operator/prices/import', { csv: `prefix,route,price\n${prefix},fast,1\n` })).status).toBe(400);

    const platform = await entries(operator);
    const mine = platform.filter((entry) => entry.actor === people.operator || entry.details['prefix'] === prefix);
    expect(mine.slice(0, 3)).toEqual([
      { action: 'prices.imported', actor: people.operator, details: { count: 2 } },
      { action: 'price.set', actor: null, details: { prefix, route: 'premium', price: '0.0500', previous_price: '0.0425' } },
      { action: 'price.set', actor: people.operator, details: { prefix, route: 'premium', price: '0.0425', previous_price: null } },
    ]);
    expect(platform).toContainEqual({
      action: 'operator.created',
      actor: null,
      details: expect.objectContaining({ email: people.operator, role: 'operator' }),
    });
    const companyActions = new Set(['key.created', 'company.created', 'member.created', 'balance.topped_up']);
    expect(platform.filter((entry) => companyActions.has(entry.action))).toEqual([]);

    expect((await entries(operator, '?action=price.set')).map((entry) => entry.action)).toEqual(expect.arrayContaining(['price.set']));
    expect(new Set((await entries(operator, '?action=price.set')).map((entry) => entry.action))).toEqual(new Set(['price.set']));
    expect(await operator.get('/audit?action=price.changed')).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^action must be one of /) } });
    const acmeLog = await entries(operator, `?company_id=${acme.company_id}`);
    expect(acmeLog.map((entry) => entry.action)).toContain('company.created');
    expect(acmeLog.filter((entry) => entry.action.startsWith('price'))).toEqual([]);
  });

  it("answers a company's owner and developer their company's entries only, never the platform's or another company's", async () => {
    const owner = await signedIn(people.acmeOwner);
    const key = await owner.post('/keys');
    expect(key.status).toBe(200);
    expect((await owner.delete(`/keys/${String(key.body['id'])}`)).status).toBe(200);
    const globexOwner = await signedIn(people.globexOwner);
    const globexKey = await globexOwner.post('/keys');

    const seen = await entries(owner);
    expect(seen.slice(0, 2)).toEqual([
      { action: 'key.revoked', actor: people.acmeOwner, details: { key_id: key.body['id'], api_key: key.body['api_key'] } },
      { action: 'key.created', actor: people.acmeOwner, details: { key_id: key.body['id'], api_key: key.body['api_key'] } },
    ]);
    const developerSees = await entries(await signedIn(people.acmeDeveloper));
    expect(developerSees).toEqual(seen);
    expect((await entries(owner, '?action=key.revoked')).map((entry) => entry.action)).toEqual(['key.revoked']);

    const anywhere = JSON.stringify([seen, await entries(owner, '?action=price.set')]);
    expect(anywhere).not.toContain(String(globexKey.body['api_key']));
    expect(anywhere).not.toContain('price.set');
    expect(anywhere).not.toContain('operator.created');
    expect((await owner.get(`/audit?company_id=${globex.company_id}`)).status).toBe(404);
  });
});
