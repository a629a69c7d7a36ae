// What one company's people cannot reach of another's, typed into the address bar or asked of the
// dashboard API with their own session: a developer of Globex opens the addresses of Acme's
// message, application and audit log, the operators' pages and the owners' billing settings, and
// sees nothing of Acme, in headless Chromium against the real gateway.
import { admin, startStack, type RunningStack } from '@mp/testing';
import type { Page } from 'playwright-core';
import { ApiClient, createCompany, type Company } from '../support/api-client';
import { lookAt, openBrowser, type AxeFinding, type ConsoleBrowser } from './browser';

jest.setTimeout(180_000);

const PASSWORD = 'developer passphrase 9';
const ACME_NUMBER = '+447911123987';

describe('one company’s data, out of another’s reach', () => {
  let stack: RunningStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let acme: Company;
  let acmeMessageId: string;
  const stamp = Date.now();
  const developerEmail = `isolation-dev-${stamp}@globex.test`;
  const acmeName = `Acme Isolated ${stamp}`;
  const findings: AxeFinding[] = [];
  const consoleUrl = (path: string) => `${stack.gatewayUrl}/dashboard/${path}`;
  const dashboardApi = (path: string) => `${stack.gatewayUrl}/dashboard/api/${path}`;

  beforeAll(async () => {
    await admin(['db:migrate']);
    acme = await createCompany(acmeName, '5');
    const globex = await createCompany(`Globex Isolated ${stamp}`, '5');
    await admin(['user:create', '--company', globex.company_id, '--role', 'developer', '--email', developerEmail, '--password', PASSWORD]);
    stack = await startStack({ apps: ['gateway'] });
    const sent = await new ApiClient(
      () => stack.gatewayUrl,
      () => acme,
    ).post<{ data: { message_id: string } }>('/sms/send', {
      to: ACME_NUMBER,
      message: 'Acme only',
    });
    expect(sent.status).toBe(200);
    acmeMessageId = sent.body.data.message_id;
    browser = await openBrowser();
    page = browser.page;
    await page.goto(consoleUrl('sign-in'));
    await page.getByLabel('Email', { exact: true }).fill(developerEmail);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Messages', exact: true }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it("shows another company's message as not found, by URL and by API", async () => {
    await page.goto(consoleUrl(`messages/${acmeMessageId}`));
    await page.getByText('Message not found').waitFor();
    expect(await page.getByText(ACME_NUMBER).count()).toBe(0);
    findings.push(...(await lookAt(page, 'isolation-message')));
    const answer = await page.request.get(dashboardApi(`messages/${acmeMessageId}`));
    expect(answer.status()).toBe(404);
    expect(await answer.json()).toEqual({ error: 'Message not found' });
    const log = await page.request.get(dashboardApi(`messages?search=${encodeURIComponent(ACME_NUMBER)}`));
    expect(((await log.json()) as { items: unknown[] }).items).toEqual([]);
  });

  it("shows another company's application as not found, by URL and by API", async () => {
    await page.goto(consoleUrl(`applications/${acme.appid}`));
    await page.getByText('Application not found').waitFor();
    expect(await page.getByText(acme.app_name).count()).toBe(0);
    expect((await page.request.get(dashboardApi(`applications/${acme.appid}`))).status()).toBe(404);
  });

  it("keeps the audit log to the developer's own company, whatever company_id the URL or the API names", async () => {
    await page.goto(consoleUrl(`audit?company_id=${acme.company_id}`));
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByText(acmeName).count()).toBe(0);
    expect(await page.getByText(acme.api_key).count()).toBe(0);
    expect((await page.request.get(dashboardApi(`audit?company_id=${acme.company_id}`))).status()).toBe(404);
  });

  it("sends a developer away from the operators' pages and shows no owner's billing settings", async () => {
    for (const path of ['companies', `companies/${acme.company_id}`, 'prices']) {
      await page.goto(consoleUrl(path));
      await page.waitForURL((url) => !url.pathname.startsWith(`/dashboard/${path.split('/')[0]}`));
      expect(await page.getByText(acmeName).count()).toBe(0);
    }
    expect((await page.request.get(dashboardApi('operator/companies'))).status()).toBe(403);
    await page.goto(consoleUrl('billing/settings'));
    await page
      .getByText(/reserved to owners/i)
      .first()
      .waitFor();
    expect(await page.getByRole('button', { name: /save/i }).count()).toBe(0);
    expect((await page.request.get(dashboardApi('billing/settings'))).status()).toBe(403);
  });

  it('met no serious or critical accessibility violation, and the browser logged only the refusals asked for', () => {
    expect(findings).toEqual([]);
    const refusal = /Failed to load resource: the server responded with a status of 404\b/;
    expect(browser.errors.filter((error) => !refusal.test(error))).toEqual([]);
  });
});
