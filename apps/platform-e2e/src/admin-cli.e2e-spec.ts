import { admin, runAdmin } from '@mp/testing';
import { Client } from 'pg';

/** The operators' tool, run as a process exactly as `npm run --silent admin -- …` runs it. */
describe('admin command-line tool', () => {
  let db: Client;

  beforeAll(async () => {
    await admin(['db:migrate']);
    db = new Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
  });
  afterAll(() => db.end());

  it('creates a company and prints exactly one JSON object on one line', async () => {
    const run = await runAdmin(['company:create', '--name', 'Acme', '--balance', '10']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(run.json).toEqual({
      company_id: expect.any(String),
      api_key: expect.stringMatching(/^mpk_/),
      api_secret: expect.any(String),
      appid: expect.stringMatching(/^app_/),
      app_name: 'default',
      webhook_secret: expect.stringMatching(/^whsec_/),
    });
    const { rows } = await db.query(`SELECT balance FROM balances WHERE company_id = $1`, [run.json?.['company_id']]);
    expect(rows).toEqual([{ balance: '10.0000' }]);
  });

  it('runs every operator command with its documented output', async () => {
    const company = await admin(['company:create', '--name', 'Ops', '--balance', '0']);
    const companyId = String(company['company_id']);
    expect(await admin(['app:create', '--company', companyId, '--name', 'Shop'])).toEqual({
      appid: expect.stringMatching(/^app_/),
      app_name: 'Shop',
    });
    const updatedApp = await admin(['app:update', '--appid', String(company['appid']), '--set', 'otp_validity_minutes=5', '--set', 'timezone=Europe/Paris']);
    expect(updatedApp).toMatchObject({ settings: { otp_validity_minutes: 5, timezone: 'Europe/Paris' } });
    expect(await admin(['company:update', '--company', companyId, '--set', 'otp_rate_limit=100', '--set', 'currency=USD'])).toMatchObject({
      otp_rate_limit: 100,
      currency: 'USD',
    });
    const key = await admin(['key:create', '--company', companyId]);
    expect(key).toEqual({ api_key: expect.stringMatching(/^mpk_/), api_secret: expect.any(String) });
    expect(await admin(['key:revoke', '--key', String(key['api_key'])])).toEqual({ revoked: true });
    expect(await admin(['balance:topup', '--company', companyId, '--amount', '2.5'])).toEqual({ balance: 2.5 });
    const template = await admin(['template:create', '--appid', String(company['appid']), '--text', 'Code {{otp}}', '--lang', 'en']);
    expect(Number.isInteger(template['template_id'])).toBe(true);
    expect(await admin(['price:set', '--prefix', '+44', '--route', 'auto', '--price', '0.035'])).toEqual({
      prefix: '+44',
      route: 'auto',
      price: 0.035,
    });
  });

  it.each([
    [['company:create', '--name', 'NoBalance'], /--balance is required/, 2],
    [['company:create', '--name', 'X', '--balance', 'ten'], /balance must be a decimal/, 1],
    [['company:create', '--name', 'X', '--balance', '1', '--colour', 'red'], /Unknown option '--colour'/, 2],
    [['balance:topup', '--company', '00000000-0000-0000-0000-000000000000', '--amount', '1'], /no company/, 1],
    [['price:set', '--prefix', '44', '--route', 'auto', '--price', '1'], /prefix/, 1],
    [['price:set', '--prefix', '+44', '--route', 'gold', '--price', '1'], /route must be one of/, 1],
    [['app:update', '--appid', 'app_missing', '--set', 'timezone=UTC'], /no application/, 1],
    [['key:revoke', '--key', 'mpk_nope'], /no active API key/, 1],
    [['frobnicate'], /unknown command "frobnicate"/, 2],
  ])('refuses %p with a message on stderr and a non-zero exit', async (args, message, code) => {
    const run = await runAdmin(args);
    expect(run.code).toBe(code);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
  });

  it('refuses to start with a message naming a bad variable', async () => {
    const run = await runAdmin(['db:migrate'], { DATABASE_URL: 'mysql://nope' });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('DATABASE_URL');
  });
});
