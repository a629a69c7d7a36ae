// The operators' console in headless Chromium against the real stack (gateway, sms-dispatcher,
// SMSC simulator): an operator made with `admin user:create --operator` sees the queues and the
// dispatcher's bound SMSC bind on the Overview, finds a company, tops it up through `Top up` and
// `Amount`, suspends and restores it after confirmations, adds a price and imports a CSV file;
// then the company's owner signs in and the Billing page shows the new balance. Every page is
// looked at at desktop and phone width (screenshots under test-results/dashboard/) with axe-core.
// Prices are set only for prefixes no other spec prices (+9997…).
import { admin, startStack, type RunningStack } from '@mp/testing';
import type { Page } from 'playwright-core';
import { lookAt, openBrowser, type AxeFinding, type ConsoleBrowser } from './browser';

jest.setTimeout(240_000);

const OPERATOR_PASSWORD = 'operator passphrase 9';
const OWNER_PASSWORD = 'owner passphrase 9';

describe("the operators' console", () => {
  let stack: RunningStack;
  let browser: ConsoleBrowser;
  let page: Page;
  const companyName = `Topped Up ${process.pid}`;
  const operatorEmail = `operator-${Date.now()}@platform.test`;
  const ownerEmail = `owner-${Date.now()}@topped.test`;
  const findings: AxeFinding[] = [];
  const consoleUrl = (path = '') => `${stack.gatewayUrl}/dashboard/${path}`;

  async function signIn(email: string, password: string): Promise<void> {
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  beforeAll(async () => {
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'smsc-simulator'], env: { AUTH_CACHE_TTL_MS: '0' } });
    const companyId = String((await admin(['company:create', '--name', companyName, '--balance', '10'])).company_id);
    await admin(['user:create', '--company', companyId, '--role', 'owner', '--email', ownerEmail, '--password', OWNER_PASSWORD]);
    await admin(['user:create', '--operator', '--email', operatorEmail, '--password', OPERATOR_PASSWORD]);
    browser = await openBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('shows an operator the queue depths and the SMSC binds on the Overview', async () => {
    await page.goto(consoleUrl());
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await signIn(operatorEmail, OPERATOR_PASSWORD);
    await page.getByRole('heading', { name: 'Queue depths' }).waitFor();
    for (const name of ['Overview', 'Companies', 'Prices']) await page.getByRole('link', { name, exact: true }).waitFor();
    await page.getByText('sms.dispatch', { exact: true }).first().waitFor();
    // The dispatcher publishes its binds when they change and every 10 s; the page reads them every 10 s.
    await page.getByText('bound', { exact: true }).first().waitFor({ timeout: 30_000 });
    findings.push(...(await lookAt(page, 'operator-overview')));
  });

  it('tops a company up through Top up and Amount, and suspends and restores it after confirmations', async () => {
    await page.getByRole('link', { name: 'Companies', exact: true }).click();
    await page.getByRole('heading', { name: 'Companies' }).waitFor();
    await page.getByLabel('Search', { exact: true }).fill(companyName);
    await page.waitForURL(/\/dashboard\/companies\?q=/);
    findings.push(...(await lookAt(page, 'operator-companies')));

    await page.getByRole('link', { name: companyName }).click();
    await page.getByRole('heading', { name: companyName }).waitFor();
    await page.getByRole('button', { name: 'Top up' }).click();
    const dialog = page.getByRole('dialog', { name: `Top up ${companyName}` });
    await dialog.getByLabel('Amount', { exact: true }).fill('25.50');
    await dialog.getByLabel('Reference', { exact: true }).fill(`browser-${process.pid}`);
    findings.push(...(await lookAt(page, 'operator-top-up')));
    await dialog.getByRole('button', { name: 'Credit balance' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('35.50', { exact: false }).first().waitFor();
    findings.push(...(await lookAt(page, 'operator-company')));

    await page.getByRole('button', { name: 'Suspend' }).click();
    const confirm = page.getByRole('dialog', { name: `Suspend ${companyName}?` });
    findings.push(...(await lookAt(page, 'operator-suspend')));
    await confirm.getByRole('button', { name: 'Suspend' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByRole('status').filter({ hasText: 'its API keys are refused' }).waitFor();
    await page.getByRole('button', { name: 'Unsuspend' }).click();
    const restore = page.getByRole('dialog', { name: `Unsuspend ${companyName}?` });
    await restore.getByRole('button', { name: 'Unsuspend' }).click();
    await restore.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Suspend' }).waitFor();
  });

  it('adds a price, imports a CSV file and exports the table', async () => {
    await page.getByRole('link', { name: 'Prices', exact: true }).click();
    await page.getByRole('heading', { name: 'Prices' }).waitFor();
    await page.getByRole('button', { name: 'Add price' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add price' });
    await dialog.getByLabel('Prefix', { exact: true }).fill('+99971');
    await dialog.getByLabel('Price', { exact: true }).fill('0.02');
    await dialog.getByRole('button', { name: 'Save price' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('+99971', { exact: true }).waitFor();

    await page
      .getByLabel('Price file (CSV)')
      .setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from('prefix,route,price\n+99972,premium,0.03\n') });
    await page.getByRole('button', { name: 'Import prices' }).click();
    await page.getByRole('status').filter({ hasText: '1 price imported.' }).waitFor();
    await page.getByText('+99972', { exact: true }).waitFor();
    findings.push(...(await lookAt(page, 'operator-prices')));

    const exported = await page.request.get(
      await page.getByRole('link', { name: 'Export CSV' }).evaluate((link) => (link as unknown as { href: string }).href),
    );
    expect(exported.status()).toBe(200);
    const csv = await exported.text();
    expect(csv).toContain('+99971,auto,0.0200\r\n');
    expect(csv).toContain('+99972,premium,0.0300\r\n');
  });

  it("shows the company's owner the new balance on the Billing page", async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.goto(consoleUrl('billing'));
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await signIn(ownerEmail, OWNER_PASSWORD);
    await page.getByRole('group', { name: 'Balance' }).getByText('35.50', { exact: false }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/billing');
  });

  it('found no serious accessibility problem and no browser error', () => {
    expect(findings).toEqual([]);
    expect(browser.errors).toEqual([]);
  });
});
