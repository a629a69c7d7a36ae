import { admin, startStack, type RunningStack } from '@mp/testing';
import { ApiClient, createCompany, type Company, type Json } from './support/api-client';
import { createUser, DashboardClient, uniqueEmail } from './support/dashboard-client';

/**
 * The console's applications and templates through the real gateway (PostgreSQL, Redis): create,
 * list and change applications and their OTP settings, templates per language, the preview that
 * answers what POST /sms/estimate answers for the rendered text, another company's 404s, 400s
 * for bad input, and the audit entries each change writes.
 */
describe('dashboard API: applications and templates', () => {
  let stack: RunningStack;
  let acme: Company;
  let globex: Company;
  let owner: DashboardClient;
  let stranger: DashboardClient;
  let operator: DashboardClient;
  const url = () => stack.gatewayUrl;
  const api = new ApiClient(url);

  async function signedIn(email: string): Promise<DashboardClient> {
    const client = new DashboardClient(url);
    expect((await client.signIn(email)).status).toBe(200);
    return client;
  }
  const patch = (client: DashboardClient, path: string, body: unknown) => client.request('PATCH', path, body);
  const put = (client: DashboardClient, path: string, body: unknown) => client.request('PUT', path, body);
  async function auditActions(client: DashboardClient): Promise<Json[]> {
    const page = await client.get('/audit');
    expect(page.status).toBe(200);
    return page.body['items'] as Json[];
  }

  beforeAll(async () => {
    await admin(['db:migrate']);
    // The run's price table is every spec's: +44 is priced at the one value the others give it (sms-send, admin-cli).
    await admin(['price:set', '--prefix', '+44', '--route', 'auto', '--price', '0.035']);
    acme = await createCompany('Acme Apps', '10');
    globex = await createCompany('Globex Apps', '10');
    const acmeOwner = uniqueEmail('apps-owner');
    const globexOwner = uniqueEmail('apps-stranger');
    const operatorEmail = uniqueEmail('apps-operator');
    await createUser(acme.company_id, acmeOwner);
    await createUser(globex.company_id, globexOwner);
    await createUser(null, operatorEmail);
    stack = await startStack({ apps: ['gateway'], env: { AUTH_CACHE_TTL_MS: '0' } });
    owner = await signedIn(acmeOwner);
    stranger = await signedIn(globexOwner);
    operator = await signedIn(operatorEmail);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('creates, lists, reads and changes applications, each change in the audit log with who made it', async () => {
    const listed = await owner.get('/applications');
    expect(listed.status).toBe(200);
    expect(listed.body['items']).toEqual([
      {
        appid: acme.appid,
        name: 'default',
        otp_validity_minutes: 10,
        allowed_countries: null,
        otp_prefix_limit_per_hour: 100,
        timezone: 'UTC',
        created_at: expect.any(String),
      },
    ]);

    const created = await owner.post('/applications', {
      name: 'Shop',
      otp_validity_minutes: 5,
      allowed_countries: ['gb', 'FR'],
      otp_prefix_limit_per_hour: 20,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Shop', otp_validity_minutes: 5, allowed_countries: ['GB', 'FR'], otp_prefix_limit_per_hour: 20 });
    const appid = created.body['appid'] as string;
    expect(appid).toMatch(/^app_[0-9a-f]{20}$/);
    expect((await owner.get(`/applications/${appid}`)).body).toEqual(created.body);

    const changed = await patch(owner, `/applications/${appid}`, { name: 'Shop EU', otp_validity_minutes: 15, allowed_countries: [] });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ appid, name: 'Shop EU', otp_validity_minutes: 15, allowed_countries: null, otp_prefix_limit_per_hour: 20 });
    expect(((await owner.get('/applications')).body['items'] as Json[]).map((item) => item['name'])).toEqual(['default', 'Shop EU']);

    const [renamed, made] = await auditActions(owner);
    expect(made).toMatchObject({
      action: 'application.created',
      actor: { email: expect.stringContaining('apps-owner') },
      details: { appid, name: 'Shop', settings: { otp_validity_minutes: 5, allowed_countries: ['GB', 'FR'], otp_prefix_limit_per_hour: 20 } },
    });
    expect(renamed).toMatchObject({
      action: 'settings.changed',
      details: { appid, application: { name: 'Shop EU', otp_validity_minutes: 15, allowed_countries: null } },
    });
  });

  it('refuses bad input with 400 and an error text, changing nothing', async () => {
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', '/applications', {}, /name is required/],
      ['POST', '/applications', { name: 'X', otp_validity_minutes: 61 }, /otp_validity_minutes/],
      ['POST', '/applications', { name: 'X', otp_validity_minutes: 2.5 }, /otp_validity_minutes must be an integer/],
      ['POST', '/applications', { name: 'X', allowed_countries: ['GBR'] }, /allowed_countries/],
      ['POST', '/applications', { name: 'X', allowed_countries: 'GB' }, /allowed_countries/],
      ['POST', '/applications', { name: 'X', otp_prefix_limit_per_hour: 0 }, /otp_prefix_limit_per_hour/],
      ['POST', '/applications', { name: 'default' }, /already has an application named "default"/],
      ['POST', '/applications', { name: 'X', color: 'red' }, /color is not a known field/],
      ['PATCH', `/applications/${acme.appid}`, { otp_validity_minutes: 0 }, /otp_validity_minutes/],
      ['POST', `/applications/${acme.appid}/templates`, { text: '' }, /text is required/],
      ['POST', `/applications/${acme.appid}/templates`, { text: 'Code {{otp}}', lang: 'English' }, /lang must be a language code/],
      ['POST', `/applications/${acme.appid}/templates`, { text: 'x'.repeat(1601) }, /text must be 1 to 1600 characters/],
      ['PUT', `/applications/${acme.appid}/templates/abc/texts/pt`, { text: 'x' }, /template must be a template id/],
      ['POST', `/applications/${acme.appid}/templates/preview`, { text: 'Code {{otp}}' }, /to is required/],
      ['POST', `/applications/${acme.appid}/templates/preview`, { text: 'Code {{otp}}', to: 'not a number' }, /Invalid phone number format/],
      ['POST', `/applications/${acme.appid}/templates/preview`, { text: 'Code {{otp}}', to: '+447400123456', route: 'fast' }, /route must be one of/],
      ['POST', `/applications/${acme.appid}/templates/preview`, { text: 'Code {{otp}}', to: '+447400123456', custom_vars: { 'a-b': 'x' } }, /custom_vars/],
    ];
    const before = (await auditActions(owner)).length;
    for (const [method, path, body, error] of cases) {
      const answer = await owner.request(method, path, body);
      expect([method, path, answer.status]).toEqual([method, path, 400]);
      expect(answer.body['error']).toMatch(error);
    }
    expect((await auditActions(owner)).length).toBe(before);
    expect(((await owner.get('/applications')).body['items'] as Json[]).map((item) => item['name'])).not.toContain('X');
  });

  it('keeps templates per language: created, translated, replaced, listed, a translation and a template removed, all audited', async () => {
    const base = `/applications/${acme.appid}/templates`;
    const created = await owner.post(base, { text: 'Your {{app_name}} code is {{otp}}' });
    expect(created).toMatchObject({ status: 200, body: { template_id: expect.any(Number), lang: 'en' } });
    const id = created.body['template_id'] as number;
    expect((await put(owner, `${base}/${id}/texts/pt-BR`, { text: 'Seu código {{app_name}}: {{otp}}' })).body).toEqual({
      template_id: id,
      lang: 'pt-BR',
      created: true,
    });
    expect((await put(owner, `${base}/${id}/texts/de`, { text: 'Ihr Code: {{otp}}' })).body).toMatchObject({ created: true });
    expect((await put(owner, `${base}/${id}/texts/de`, { text: 'Code: {{otp}}' })).body).toMatchObject({ created: false });

    const listed = await owner.get(base);
    expect(listed.status).toBe(200);
    expect(listed.body['languages']).toEqual(['de', 'en', 'pt-BR']);
    expect((listed.body['items'] as Json[]).find((item) => item['template_id'] === id)).toEqual({
      template_id: id,
      texts: [
        { lang: 'en', text: 'Your {{app_name}} code is {{otp}}', original: true, created_at: expect.any(String) },
        { lang: 'de', text: 'Code: {{otp}}', original: false, created_at: expect.any(String) },
        { lang: 'pt-BR', text: 'Seu código {{app_name}}: {{otp}}', original: false, created_at: expect.any(String) },
      ],
    });

    expect((await owner.delete(`${base}/${id}/texts/en`)).status).toBe(400);
    expect((await owner.delete(`${base}/${id}/texts/de`)).body).toEqual({ template_id: id, lang: 'de', removed: true });
    expect((await owner.delete(`${base}/${id}/texts/de`)).status).toBe(404);
    const second = (await owner.post(base, { text: 'Kod: {{otp}}', lang: 'pl' })).body['template_id'] as number;
    expect((await owner.delete(`${base}/${second}`)).body).toEqual({ template_id: second, languages: ['pl'], removed: true });
    expect((await owner.get(base)).body['languages']).toEqual(['en', 'pt-BR']);

    const actions = (await auditActions(owner)).slice(0, 6).map((entry) => [entry['action'], entry['details']]);
    expect(actions).toEqual([
      ['template.deleted', { appid: acme.appid, template_id: second, languages: ['pl'] }],
      ['template.created', { appid: acme.appid, template_id: second, lang: 'pl', text: 'Kod: {{otp}}' }],
      ['template.text_removed', { appid: acme.appid, template_id: id, lang: 'de' }],
      ['template.text_set', { appid: acme.appid, template_id: id, lang: 'de', text: 'Code: {{otp}}', created: false }],
      ['template.text_set', { appid: acme.appid, template_id: id, lang: 'de', text: 'Ihr Code: {{otp}}', created: true }],
      ['template.text_set', { appid: acme.appid, template_id: id, lang: 'pt-BR', text: 'Seu código {{app_name}}: {{otp}}', created: true }],
    ]);
  });

  it('previews a template as POST /sms/estimate prices the same text, naming the character that forces UCS-2', async () => {
    const app = await owner.post('/applications', { name: 'Preview', otp_validity_minutes: 7 });
    const appid = app.body['appid'] as string;
    const texts = [
      'Your {{app_name}} code is {{otp}}. It expires in {{expiry_minutes}} minutes.',
      'Twój kod {{app_name}}: {{otp}} – ważny {{expiry_minutes}} min',
      `${'Long text with {{otp}} in it. '.repeat(6)}`,
      `Kod ${'ż'.repeat(70)} {{otp}}`,
      'Hi {{name}}, code {{otp}} 😀',
    ];
    for (const text of texts) {
      const preview = await owner.post(`/applications/${appid}/templates/preview`, { text, lang: 'pl', to: '+447400123456', custom_vars: { name: 'Zoë' } });
      expect([text, preview.status, preview.body]).toEqual([text, 200, expect.anything()]);
      const rendered = preview.body['rendered_text'] as string;
      expect(rendered).not.toContain('{{');
      expect(rendered).toContain('123456');
      const estimate = await api.as(acme).post('/sms/estimate', { to: '+447400123456', message: rendered });
      expect(estimate.status).toBe(200);
      const data = estimate.body['data'] as Json;
      expect(preview.body).toEqual({
        rendered_text: rendered,
        characters: data['characters'],
        encoding: data['encoding'],
        parts: data['parts'],
        ucs2_character: data['first_non_gsm_character'] === null ? null : { character: data['first_non_gsm_character'], position: expect.any(Number) },
        shows_code: true,
        to: '+447400123456',
        route: 'auto',
        price_per_part: expect.stringMatching(/^\d+\.\d{4}$/),
        cost: expect.stringMatching(/^\d+\.\d{4}$/),
        currency: 'EUR',
      });
      expect(Number(preview.body['cost'])).toBe(data['total_cost']);
      expect(Number(preview.body['price_per_part'])).toBe((data['recipients'] as Json[])[0]['price_per_part']);
    }

    const polish = await owner.post(`/applications/${appid}/templates/preview`, { text: texts[1], to: '+447400123456' });
    expect(polish.body).toMatchObject({
      rendered_text: 'Twój kod Preview: 123456 – ważny 7 min',
      encoding: 'UCS-2',
      parts: 1,
      ucs2_character: { character: 'ó', position: 3 },
      price_per_part: '0.0350',
      cost: '0.0350',
    });
    const long = await owner.post(`/applications/${appid}/templates/preview`, { text: texts[3], to: '+447400123456', route: 'premium' });
    expect(long.body).toMatchObject({ encoding: 'UCS-2', parts: 2, ucs2_character: { character: 'ż', position: 5 }, price_per_part: '0.0150', cost: '0.0300' });
    const codeless = await owner.post(`/applications/${appid}/templates/preview`, { text: 'Hello', to: '+447400123456' });
    expect(codeless.body).toMatchObject({ shows_code: false, encoding: 'GSM-7', ucs2_character: null, parts: 1 });
  });

  it("answers another company's applications and templates 404, and lets an operator act by company_id", async () => {
    const base = `/applications/${acme.appid}`;
    const template = (await owner.post(`${base}/templates`, { text: 'Acme {{otp}}' })).body['template_id'] as number;
    const attempts: [string, string, unknown][] = [
      ['GET', base, undefined],
      ['PATCH', base, { name: 'Hijacked' }],
      ['GET', `${base}/templates`, undefined],
      ['POST', `${base}/templates`, { text: 'Mine {{otp}}' }],
      ['POST', `${base}/templates/preview`, { text: 'x {{otp}}', to: '+447400123456' }],
      ['PUT', `${base}/templates/${template}/texts/fr`, { text: 'x {{otp}}' }],
      ['DELETE', `${base}/templates/${template}`, undefined],
      ['GET', `${base}?company_id=${acme.company_id}`, undefined],
    ];
    for (const [method, path, body] of attempts) {
      const answer = await stranger.request(method, path, body);
      expect([method, path, answer.status]).toEqual([method, path, 404]);
      expect(answer.body['error']).toEqual(expect.any(String));
    }
    // Globex's own application, addressed with Acme's template: not found either.
    expect((await put(stranger, `/applications/${globex.appid}/templates/${template}/texts/fr`, { text: 'x {{otp}}' })).status).toBe(404);
    expect((await stranger.get('/applications')).body['items']).toEqual([expect.objectContaining({ appid: globex.appid })]);
    expect((await owner.get(`${base}/templates`)).body['items']).toEqual(expect.arrayContaining([expect.objectContaining({ template_id: template })]));

    expect((await operator.get('/applications')).status).toBe(400);
    const viaOperator = await operator.get(`/applications?company_id=${acme.company_id}`);
    expect((viaOperator.body['items'] as Json[]).map((item) => item['appid'])).toContain(acme.appid);
    expect((await patch(operator, `${base}?company_id=${globex.company_id}`, { name: 'Nope' })).status).toBe(404);
  });

  it('lets a developer edit applications (applications.write), and an OTP sent with the template renders it', async () => {
    const developerEmail = uniqueEmail('apps-developer');
    await createUser(acme.company_id, developerEmail, 'developer');
    const developer = await signedIn(developerEmail);
    const created = await developer.post(`/applications/${acme.appid}/templates`, { text: 'Dev {{otp}}', lang: 'en' });
    expect(created.status).toBe(200);
    const id = created.body['template_id'] as number;
    expect((await put(developer, `/applications/${acme.appid}/templates/${id}/texts/fr`, { text: 'Votre code : {{otp}}' })).status).toBe(200);
    const sent = await api.as(acme).post('/otp/send', { appid: acme.appid, to: '+447400123499', template: id, lang: 'fr' });
    expect([sent.status, sent.body]).toEqual([200, expect.objectContaining({ status: 'success' })]);
  });
});
