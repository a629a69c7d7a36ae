import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import {
  ACCOUNTS_ENTITIES,
  accountsRepositories,
  AccountsService,
  ApplicationRepository,
  CatalogService,
  catalogRepositories,
  InvalidArgumentError,
  NotFoundError,
  TemplateRepository,
} from './index';

const PEPPER = 'integration-pepper-'.padEnd(40, 'x');

/** The dashboard's changes of applications and templates (PostgreSQL): scoped to a company, each with its audit entry. */
describe('application and template changes (PostgreSQL)', () => {
  let db: DataSource;
  let accounts: AccountsService;
  let catalog: CatalogService;
  const audit = async (companyId: string) =>
    (await db.query(`SELECT action, details FROM audit_entries WHERE company_id = $1 ORDER BY id`, [companyId])) as {
      action: string;
      details: Record<string, unknown>;
    }[];

  beforeAll(async () => {
    db = await openTestDataSource('test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), PEPPER);
    catalog = new CatalogService(db, catalogRepositories(db));
  });
  afterAll(() => db.destroy());

  it('creates an application with settings and changes its name and settings for its company only, audited', async () => {
    const acme = await accounts.createCompany({ name: 'Acme Changes', balance: '0' });
    const other = await accounts.createCompany({ name: 'Other Changes', balance: '0' });
    const { appid } = await accounts.createApplication(acme.company_id, 'Shop', null, { otp_validity_minutes: '5', allowed_countries: 'gb' });
    const changed = await accounts.changeCompanyApplication(acme.company_id, appid, { name: 'Shop EU', settings: { otp_prefix_limit_per_hour: '7' } }, null);
    expect(changed).toMatchObject({ app_name: 'Shop EU', settings: { otp_validity_minutes: 5, allowed_countries: ['GB'], otp_prefix_limit_per_hour: 7 } });
    const listed = await new ApplicationRepository(db).listForCompany(acme.company_id);
    expect(listed.map((app) => [app.name, app.settings])).toEqual([
      ['default', {}],
      ['Shop EU', { otp_validity_minutes: 5, allowed_countries: ['GB'], otp_prefix_limit_per_hour: 7 }],
    ]);
    await expect(accounts.changeCompanyApplication(other.company_id, appid, { name: 'Mine', settings: {} }, null)).rejects.toThrow(NotFoundError);
    await expect(accounts.changeCompanyApplication(acme.company_id, appid, { name: 'default', settings: {} }, null)).rejects.toThrow(InvalidArgumentError);
    await expect(accounts.createApplication(acme.company_id, 'Bad', null, { otp_validity_minutes: '0' })).rejects.toThrow(/from 1 to 60/);
    expect((await new ApplicationRepository(db).listForCompany(acme.company_id)).map((app) => app.name)).toEqual(['default', 'Shop EU']);
    expect((await audit(acme.company_id)).slice(1)).toEqual([
      { action: 'application.created', details: { appid, name: 'Shop', settings: { otp_validity_minutes: 5, allowed_countries: ['GB'] } } },
      { action: 'settings.changed', details: { appid, application: { name: 'Shop EU', otp_prefix_limit_per_hour: 7 } } },
    ]);
  });

  it('removes a translation or a whole template, only through the application that has it, audited', async () => {
    const acme = await accounts.createCompany({ name: 'Acme Templates', balance: '0' });
    const other = await accounts.createCompany({ name: 'Other Templates', balance: '0' });
    const scope = { companyId: acme.company_id, appid: acme.appid };
    const { template_id: id } = await catalog.createTemplate({ appid: acme.appid, text: 'Code {{otp}}' }, scope);
    await catalog.translateTemplate({ template: String(id), lang: 'fr', text: 'Votre code {{otp}}' }, scope);
    await expect(
      catalog.translateTemplate({ template: String(id), lang: 'de', text: 'x' }, { companyId: other.company_id, appid: other.appid }),
    ).rejects.toThrow(NotFoundError);
    await expect(catalog.createTemplate({ appid: acme.appid, text: 'x' }, { companyId: other.company_id })).rejects.toThrow(NotFoundError);
    await expect(catalog.removeTemplateText({ template: String(id), lang: 'en' }, scope)).rejects.toThrow(InvalidArgumentError);
    expect(await catalog.removeTemplateText({ template: String(id), lang: 'fr' }, scope)).toEqual({ template_id: id, lang: 'fr' });
    await expect(catalog.removeTemplateText({ template: String(id), lang: 'fr' }, scope)).rejects.toThrow(NotFoundError);
    await catalog.translateTemplate({ template: String(id), lang: 'pl', text: 'Kod {{otp}}' }, scope);
    const [application] = await db.query(`SELECT id FROM applications WHERE appid = $1`, [acme.appid]);
    const templates = new TemplateRepository(db);
    expect((await templates.listForApplication(application.id)).map((text) => [text.templateId, text.lang, text.original])).toEqual([
      [id, 'en', true],
      [id, 'pl', false],
    ]);
    expect(await catalog.removeTemplate({ template: String(id) }, scope)).toEqual({ template_id: id, languages: ['en', 'pl'] });
    expect(await templates.listForApplication(application.id)).toEqual([]);
    await expect(catalog.removeTemplate({ template: String(id) }, scope)).rejects.toThrow(NotFoundError);
    expect((await audit(acme.company_id)).slice(1).map((entry) => entry.action)).toEqual([
      'template.created',
      'template.text_set',
      'template.text_removed',
      'template.text_set',
      'template.deleted',
    ]);
    expect(await audit(other.company_id)).toHaveLength(1);
  });
});
