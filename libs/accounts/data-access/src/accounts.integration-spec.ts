import { hashApiSecret } from '@mp/auth';
import { LedgerRepository } from '@mp/billing';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import {
  accountsRepositories,
  AccountsService,
  ApiKeyRepository,
  CatalogService,
  catalogRepositories,
  InvalidArgumentError,
  NotFoundError,
  TemplateRepository,
  ACCOUNTS_ENTITIES,
} from './index';

const PEPPER = 'integration-pepper-'.padEnd(40, 'x');

describe('accounts and catalog (PostgreSQL)', () => {
  let db: DataSource;
  let accounts: AccountsService;
  let catalog: CatalogService;

  beforeAll(async () => {
    db = await openTestDataSource('test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), PEPPER);
    catalog = new CatalogService(db, catalogRepositories(db));
  });
  afterAll(() => db.destroy());

  it('creates a company with balance, first application, key pair and webhook secret', async () => {
    const created = await accounts.createCompany({ name: 'Acme', balance: '10' });
    expect(created).toEqual({
      company_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      api_key: expect.stringMatching(/^mpk_/),
      api_secret: expect.any(String),
      appid: expect.stringMatching(/^app_[0-9a-f]{20}$/),
      app_name: 'default',
      webhook_secret: expect.stringMatching(/^whsec_/),
    });
    const ledger = new LedgerRepository(db);
    expect(await ledger.findBalanceWithCurrency(created.company_id)).toEqual({ balance: 100000n, currency: 'EUR' });
    const [entry] = await db.query(`SELECT kind, amount, balance_after FROM ledger_entries WHERE company_id = $1`, [created.company_id]);
    expect(entry).toEqual({ kind: 'topup', amount: '10.0000', balance_after: '10.0000' });
  });

  it('stores the API secret only as its peppered HMAC', async () => {
    const created = await accounts.createCompany({ name: 'Hashco', balance: '0' });
    const key = await new ApiKeyRepository(db).findActiveByKey(created.api_key);
    expect(key?.secretHash.equals(hashApiSecret(created.api_secret, PEPPER))).toBe(true);
    const dump = JSON.stringify(await db.query(`SELECT * FROM api_keys`)) + JSON.stringify(await db.query(`SELECT * FROM companies`));
    expect(dump).not.toContain(created.api_secret);
  });

  it('tops up, and refuses zero, negative, over-precise amounts and unknown companies', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Topper', balance: '1.5' });
    expect(await accounts.topUp(company_id, '0.035')).toEqual({ balance: 1.535 });
    await expect(accounts.topUp(company_id, '0')).rejects.toThrow(InvalidArgumentError);
    await expect(accounts.topUp(company_id, '-3')).rejects.toThrow(InvalidArgumentError);
    await expect(accounts.topUp(company_id, '0.00001')).rejects.toThrow(InvalidArgumentError);
    await expect(accounts.topUp('00000000-0000-0000-0000-000000000000', '1')).rejects.toThrow(NotFoundError);
    await expect(accounts.topUp('not-a-uuid', '1')).rejects.toThrow(NotFoundError);
  });

  it('never lets concurrent debits take the balance below zero', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Racer', balance: '0.5' });
    const ledger = new LedgerRepository(db);
    const attempts = Array.from({ length: 80 }, (_, i) =>
      ledger.apply({ companyId: company_id, kind: 'charge', amount: -100n, reference: `race-${i}` }).then(
        () => 'ok',
        (error: Error) => error.name,
      ),
    );
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(50);
    expect(outcomes.filter((o) => o === 'InsufficientBalanceError')).toHaveLength(30);
    expect(await ledger.findBalance(company_id)).toBe(0n);
  });

  it('applies a movement with a reference once', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Once', balance: '1' });
    const ledger = new LedgerRepository(db);
    await ledger.apply({ companyId: company_id, kind: 'refund', amount: 100n, reference: 'msg-1' });
    await expect(ledger.apply({ companyId: company_id, kind: 'refund', amount: 100n, reference: 'msg-1' })).rejects.toThrow('already exists');
    expect(await ledger.findBalance(company_id)).toBe(10100n);
  });

  it('keeps the ledger append-only', async () => {
    await expect(db.query(`UPDATE ledger_entries SET amount = 0`)).rejects.toThrow(/append-only/);
    await expect(db.query(`DELETE FROM ledger_entries`)).rejects.toThrow(/append-only/);
    await expect(db.query(`TRUNCATE ledger_entries`)).rejects.toThrow(/append-only/);
  });

  it('creates and updates applications with typed settings', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Apps', balance: '0' });
    const app = await accounts.createApplication(company_id, 'Shop');
    expect(app).toEqual({ appid: expect.stringMatching(/^app_/), app_name: 'Shop' });
    await expect(accounts.createApplication(company_id, 'Shop')).rejects.toThrow(/already has/);
    const updated = await accounts.updateApplication(app.appid, { otp_validity_minutes: '5', timezone: 'Europe/Paris' });
    expect(updated.settings).toMatchObject({ otp_validity_minutes: 5, timezone: 'Europe/Paris', otp_prefix_limit_per_hour: 100 });
    const [row] = await db.query(`SELECT settings FROM applications WHERE appid = $1`, [app.appid]);
    expect(row.settings).toEqual({ otp_validity_minutes: 5, timezone: 'Europe/Paris' });
    await expect(accounts.updateApplication(app.appid, { otp_validity_minutes: '99' })).rejects.toThrow(/from 1 to 60/);
    await expect(accounts.updateApplication('app_nope', {})).rejects.toThrow(NotFoundError);
  });

  it('updates company settings', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Settings', balance: '0' });
    expect(await accounts.updateCompany(company_id, { otp_rate_limit: '100', currency: 'usd' })).toEqual({
      company_id,
      name: 'Settings',
      currency: 'USD',
      otp_rate_limit: 100,
    });
  });

  it('creates and revokes keys', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Keys', balance: '0' });
    const pair = await accounts.createKey(company_id);
    const keys = new ApiKeyRepository(db);
    expect(await keys.findActiveByKey(pair.api_key)).not.toBeNull();
    expect(await accounts.revokeKey(pair.api_key)).toEqual({ revoked: true });
    expect(await keys.findActiveByKey(pair.api_key)).toBeNull();
    await expect(accounts.revokeKey(pair.api_key)).rejects.toThrow(NotFoundError);
  });

  it('creates templates with integer ids and sets prices', async () => {
    const { appid } = await accounts.createCompany({ name: 'Catalog', balance: '0' });
    const first = await catalog.createTemplate({ appid, text: 'Your code is {{otp}}' });
    const second = await catalog.createTemplate({ appid, text: 'Votre code est {{otp}}', lang: 'fr' });
    expect(Number.isInteger(first.template_id)).toBe(true);
    expect(second.template_id).toBeGreaterThan(first.template_id);
    await expect(catalog.createTemplate({ appid, text: '' })).rejects.toThrow(InvalidArgumentError);
    await expect(catalog.createTemplate({ appid: 'app_missing', text: 'x' })).rejects.toThrow(NotFoundError);
    expect(await catalog.setPrice({ prefix: '+44', route: 'auto', price: '0.035' })).toEqual({
      prefix: '+44',
      route: 'auto',
      price: 0.035,
    });
    expect(await catalog.setPrice({ prefix: '+44', route: 'auto', price: '0.04' })).toMatchObject({ price: 0.04 });
    const [row] = await db.query(`SELECT price FROM prices WHERE prefix = '+44' AND route = 'auto'`);
    expect(row.price).toBe('0.0400');
    await expect(catalog.setPrice({ prefix: '44', route: 'auto', price: '1' })).rejects.toThrow(/prefix/);
  });

  it('gives a template a text per language: translations added and replaced, found by language with the fallback to en', async () => {
    const { appid } = await accounts.createCompany({ name: 'Polyglot', balance: '0' });
    const other = await accounts.createCompany({ name: 'Monoglot', balance: '0' });
    const [application] = await db.query(`SELECT id FROM applications WHERE appid = $1`, [appid]);
    const templates = new TemplateRepository(db);
    const { template_id: id } = await catalog.createTemplate({ appid, text: 'Your code is {{otp}}' });
    expect(await catalog.translateTemplate({ template: String(id), lang: 'pt', text: 'O seu código é {{otp}}' })).toEqual({
      template_id: id,
      lang: 'pt',
      created: true,
    });
    expect(await catalog.translateTemplate({ template: String(id), lang: 'pt-BR', text: 'Seu código é {{otp}}' })).toMatchObject({ created: true });
    expect(await templates.findText(application.id, id, 'pt')).toEqual({ text: 'O seu código é {{otp}}', lang: 'pt' });
    expect(await templates.findText(application.id, id, 'pt-BR')).toEqual({ text: 'Seu código é {{otp}}', lang: 'pt-BR' });
    expect(await templates.findText(application.id, id, 'fr')).toEqual({ text: 'Your code is {{otp}}', lang: 'en' });

    // The same language again replaces its text; the template's own language replaces its own.
    expect(await catalog.translateTemplate({ template: String(id), lang: 'pt', text: 'Código: {{otp}}' })).toMatchObject({ created: false });
    expect(await catalog.translateTemplate({ template: String(id), lang: 'en', text: 'Code: {{otp}}' })).toMatchObject({ created: false });
    expect(await templates.findText(application.id, id, 'pt')).toEqual({ text: 'Código: {{otp}}', lang: 'pt' });
    expect(await templates.findText(application.id, id, 'de')).toEqual({ text: 'Code: {{otp}}', lang: 'en' });
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM templates WHERE coalesce(translation_of, id) = $1`, [id]);
    expect(n).toBe(3);

    // Without an English text, the text it was created with.
    const { template_id: french } = await catalog.createTemplate({ appid, text: 'Votre code : {{otp}}', lang: 'fr' });
    await catalog.translateTemplate({ template: String(french), lang: 'de', text: 'Ihr Code: {{otp}}' });
    expect(await templates.findText(application.id, french, 'es')).toEqual({ text: 'Votre code : {{otp}}', lang: 'fr' });

    // Only a template's own id is a template, and only for its application.
    const [translation] = await db.query(`SELECT id FROM templates WHERE translation_of = $1 AND lang = 'pt'`, [id]);
    expect(await templates.findText(application.id, translation.id, 'pt')).toBeNull();
    await expect(catalog.translateTemplate({ template: String(translation.id), lang: 'es', text: 'x {{otp}}' })).rejects.toThrow(NotFoundError);
    const [otherApp] = await db.query(`SELECT id FROM applications WHERE appid = $1`, [other.appid]);
    expect(await templates.findText(otherApp.id, id, 'pt')).toBeNull();
    await expect(catalog.translateTemplate({ template: '999999999', lang: 'pt', text: 'x' })).rejects.toThrow(NotFoundError);
    for (const template of ['0', '-1', '1.5', 'abc', '2147483648', '']) {
      await expect(catalog.translateTemplate({ template, lang: 'pt', text: 'x' })).rejects.toThrow(InvalidArgumentError);
    }
    await expect(catalog.translateTemplate({ template: String(id), lang: 'Portuguese', text: 'x' })).rejects.toThrow(InvalidArgumentError);
    await expect(catalog.translateTemplate({ template: String(id), lang: 'pt', text: '' })).rejects.toThrow(InvalidArgumentError);
    await expect(catalog.translateTemplate({ template: String(id), lang: 'pt', text: 'a\u0000b' })).rejects.toThrow(InvalidArgumentError);
  });

  it('seeds the default prices of decisions.md', async () => {
    const rows = await db.query(`SELECT route, price FROM prices WHERE prefix = '+' ORDER BY route`);
    expect(rows).toEqual([
      { route: 'auto', price: '0.0100' },
      { route: 'premium', price: '0.0150' },
      { route: 'standard', price: '0.0100' },
      { route: 'whatsapp', price: '0.0100' },
    ]);
  });
});
