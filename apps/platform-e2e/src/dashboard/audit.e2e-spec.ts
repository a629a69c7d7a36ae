// The console's Audit log page in headless Chromium against the real stack (gateway, PostgreSQL,
// Redis): an owner creates an API key and revokes it in the console, then the Audit log page
// (reached from the navigation) shows both changes, newest first, naming the owner; the action
// filter lives in the URL; an operator sees the platform's entries (a price they set) and, from a
// company's page, that company's. Every view is looked at at desktop and phone width and checked with
// axe-core.
import { admin, startStack, type RunningStack } from '@mp/testing';
import type { Page } from 'playwright-core';
import { createCompany, type Company } from '../support/api-client';
import { DashboardClient, PASSWORD as OPERATOR_PASSWORD } from '../support/dashboard-client';
import { lookAt, openBrowser, WIDTHS, type AxeFinding, type ConsoleBrowser } from './browser';

jest.setTimeout(180_000);

const PASSWORD = 'owner passphrase 5';
/** Run in the page: nothing wider than the window. */
const FITS = 'document.documentElement.scrollWidth <= window.innerWidth';

describe('the console’s Audit log page', () => {
  let stack: RunningStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let company: Company;
  let apiKey: string;
  const ownerEmail = `audit-owner-${Date.now()}@acme.test`;
  const operatorEmail = `audit-operator-${Date.now()}@platform.test`;
  const findings: AxeFinding[] = [];
  const consoleUrl = (path = '') => `${stack.gatewayUrl}/dashboard/${path}`;

  /** Whether the page, settled at phone width, needs no sideways scrolling. */
  async function fitsPhone(): Promise<boolean> {
    await page.setViewportSize(WIDTHS.phone);
    // The app shell's navigation slides away when the width crosses its breakpoint: let it finish.
    await page.waitForFunction(FITS, undefined, { timeout: 3_000 }).catch(() => undefined);
    const fits = (await page.evaluate(FITS)) as boolean;
    await page.setViewportSize(WIDTHS.desktop);
    return fits;
  }

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Acme Audit', '10');
    await admin(['user:create', '--company', company.company_id, '--role', 'owner', '--email', ownerEmail, '--password', PASSWORD]);
    await admin(['user:create', '--operator', '--email', operatorEmail, '--password', OPERATOR_PASSWORD]);
    stack = await startStack({ apps: ['gateway'] });
    browser = await openBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('signs in, creates a key and revokes it', async () => {
    await page.goto(consoleUrl('keys'));
    await page.getByLabel('Email', { exact: true }).fill(ownerEmail);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your new API key' });
    await dialog.waitFor();
    apiKey = await dialog.getByLabel('API key', { exact: true }).inputValue();
    expect(apiKey).toMatch(/^mpk_/);
    await dialog.getByRole('button', { name: 'I have stored the secret' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('row').filter({ hasText: apiKey });
    await row.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this API key?' });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await row.waitFor({ state: 'detached' });
  });

  it('shows both changes on the Audit log page, newest first, naming the owner', async () => {
    await page.getByRole('link', { name: 'Audit log', exact: true }).click();
    await page.getByRole('heading', { name: 'Audit log', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/audit');
    const revoked = page.getByRole('row').filter({ hasText: `Key ${apiKey} revoked` });
    const created = page.getByRole('row').filter({ hasText: `Key ${apiKey} created` });
    await revoked.waitFor();
    expect(await revoked.getByText(ownerEmail, { exact: true }).count()).toBe(1);
    expect(await created.getByText(ownerEmail, { exact: true }).count()).toBe(1);
    expect(await revoked.getByText('API key revoked', { exact: true }).count()).toBe(1);
    const rows = await page.getByRole('row').allTextContents();
    const at = (text: string) => rows.findIndex((row) => row.includes(text));
    expect(at(`Key ${apiKey} revoked`)).toBeLessThan(at(`Key ${apiKey} created`));
    expect(rows.some((row) => row.includes('Company Acme Audit created') && row.includes('Admin tool'))).toBe(true);
    findings.push(...(await lookAt(page, 'audit-log')));
    expect(await fitsPhone()).toBe(true);
  });

  it('filters by action, in the URL', async () => {
    await page.getByLabel('Action', { exact: false }).selectOption({ label: 'API key revoked' });
    await page.waitForURL((url) => url.searchParams.get('action') === 'key.revoked');
    await page.getByText('One entry shown.').waitFor();
    expect(
      await page
        .getByRole('row')
        .filter({ hasText: `Key ${apiKey} created` })
        .count(),
    ).toBe(0);
    await page.reload();
    await page
      .getByRole('row')
      .filter({ hasText: `Key ${apiKey} revoked` })
      .waitFor();
    expect(await page.getByLabel('Action', { exact: false }).inputValue()).toBe('key.revoked');
    findings.push(...(await lookAt(page, 'audit-log-filtered')));
  });

  it("shows an operator the platform's entries (a price they set) and, from a company's page, that company's", async () => {
    const prefix = `+98${String(Date.now()).slice(-6)}`;
    const operatorApi = new DashboardClient(() => stack.gatewayUrl);
    expect((await operatorApi.signIn(operatorEmail)).status).toBe(200);
    expect((await operatorApi.request('PUT', '/operator/prices', { prefix, route: 'premium', price: '0.0425' })).status).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.goto(consoleUrl('audit'));
    await page.getByLabel('Email', { exact: true }).fill(operatorEmail);
    await page.getByLabel('Password', { exact: true }).fill(OPERATOR_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText("The platform's own changes", { exact: false }).waitFor();
    const priceRow = page.getByRole('row').filter({ hasText: `Price of ${prefix} premium set to 0.0425 (a new price)` });
    await priceRow.waitFor();
    expect(await priceRow.getByText(operatorEmail, { exact: true }).count()).toBe(1);
    expect(
      await page
        .getByRole('row')
        .filter({ hasText: `Key ${apiKey}` })
        .count(),
    ).toBe(0);
    findings.push(...(await lookAt(page, 'audit-log-operator')));

    await page.goto(consoleUrl(`companies/${company.company_id}`));
    await page.getByRole('link', { name: "The company's audit log" }).click();
    await page.waitForURL((url) => url.searchParams.get('company_id') === company.company_id);
    await page.getByText("Every change of Acme Audit's keys", { exact: false }).waitFor();
    await page
      .getByRole('row')
      .filter({ hasText: `Key ${apiKey} revoked` })
      .waitFor();
    expect(
      await page
        .getByRole('row')
        .filter({ hasText: `Price of ${prefix}` })
        .count(),
    ).toBe(0);
  });

  it('found no serious accessibility problem and no browser error on any view', () => {
    expect(findings).toEqual([]);
    expect(browser.errors).toEqual([]);
  });
});
