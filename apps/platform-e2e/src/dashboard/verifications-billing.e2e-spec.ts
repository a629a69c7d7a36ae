// The console's Verifications and Billing pages in headless Chromium against the real stack: an
// OTP sent over the public API, its code read from "the phone" (the SMSC simulator) and verified,
// is counted on the Verifications page; the Billing page shows the balance and the OTP's charge;
// an owner sets the low-balance threshold and the page warns; a developer sees no billing
// settings, even at their address. Both pages screenshotted at desktop and phone width and
// checked with axe-core.
import { eventually, freePort, startStack, type RunningStack } from '@mp/testing';
import type { Page } from 'playwright-core';
import { ApiClient, createCompany, simulatorMessages, type Company } from '../support/api-client';
import { createUser, PASSWORD, uniqueEmail } from '../support/dashboard-client';
import { lookAt, openBrowser, type AxeFinding, type ConsoleBrowser } from './browser';

jest.setTimeout(240_000);

const RECIPIENT = '+4915112349001';

describe('the Verifications and Billing pages', () => {
  let stack: RunningStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let acme: Company;
  let simulatorUrl: string;
  let verificationId: string;
  const ownerEmail = uniqueEmail('billing-owner');
  const developerEmail = uniqueEmail('billing-dev');
  const findings: AxeFinding[] = [];
  const consoleUrl = (path = '') => `${stack.gatewayUrl}/dashboard/${path}`;
  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => acme,
  );

  async function signIn(email: string): Promise<void> {
    await page.goto(consoleUrl('sign-in'));
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  }

  beforeAll(async () => {
    const httpPort = await freePort();
    simulatorUrl = `http://127.0.0.1:${httpPort}`;
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'smsc-simulator'], env: { SMSC_SIMULATOR_PORT: String(httpPort) } });
    acme = await createCompany('Acme Pages', '10');
    await createUser(acme.company_id, ownerEmail);
    await createUser(acme.company_id, developerEmail, 'developer');
    browser = await openBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('sends an OTP over the public API and verifies the code the phone received', async () => {
    const sent = await api.post('/otp/send', { appid: acme.appid, recipient: RECIPIENT });
    expect(sent.status).toBe(200);
    verificationId = String(sent.body['verification_id']);
    const received = await eventually(
      () => simulatorMessages<{ text: string }>(simulatorUrl, RECIPIENT),
      (list) => list.length > 0,
    );
    const code = /(\d{4,8})/.exec(received[0]?.text ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    const verified = await api.post('/otp/verify', { verification_id: verificationId, otp_code: code });
    expect(verified.status).toBe(200);
  });

  it('counts it on the Verifications page: sent 1, verified 1, by channel and country', async () => {
    await signIn(ownerEmail);
    await page.getByRole('link', { name: 'Verifications', exact: true }).click();
    await page.getByRole('heading', { name: 'Verifications', exact: true }).waitFor();
    const sent = page.getByRole('group', { name: 'Sent', exact: true });
    await sent.waitFor();
    expect(await sent.textContent()).toBe('Sent1');
    expect(await page.getByRole('group', { name: 'Verified', exact: true }).textContent()).toBe('Verified1');
    expect(await page.getByRole('group', { name: 'Conversion', exact: true }).textContent()).toBe('Conversion100%');
    await page.getByRole('figure', { name: 'Sent and verified per day' }).getByText('1 sent, 1 verified (100%)', { exact: false }).waitFor();
    await page
      .getByRole('table', { name: /per channel and recipient's country/ })
      .getByRole('row', { name: /SMS DE 1 1 100%/ })
      .waitFor();
    await page.getByText('No recipient has been blocked').waitFor();
    findings.push(...(await lookAt(page, 'verifications')));

    await page.getByRole('textbox', { name: 'Country' }).fill('FR');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No one-time passwords in this range').waitFor();
    expect(new URL(page.url()).search).toBe('?country=FR');
  });

  it('shows the balance and the charge on the Billing page, and exports the ledger as CSV', async () => {
    await page.getByRole('link', { name: 'Billing', exact: true }).click();
    await page.getByRole('heading', { name: 'Billing', exact: true }).waitFor();
    const balance = page.getByRole('group', { name: 'Balance' });
    await balance.getByText('9.99', { exact: false }).waitFor();
    const charge = page.getByRole('row').filter({ hasText: `otp:${verificationId}` });
    await charge.getByText('Charge', { exact: true }).waitFor();
    await page.getByRole('row').filter({ hasText: 'opening balance' }).waitFor();
    await page.getByText('All 2 entries shown.').waitFor();
    findings.push(...(await lookAt(page, 'billing')));

    const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    const csv = await page.request.get(`${stack.gatewayUrl}${href ?? ''}`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-disposition']).toMatch(/^attachment; filename="ledger-acme-pages-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(new RegExp(`,charge,-0\\.0100,9\\.9900,otp:${verificationId},`));
  });

  it('lets the owner set a low-balance threshold, after which the page warns', async () => {
    await page.getByRole('link', { name: 'Billing settings' }).click();
    const field = page.getByLabel('Low-balance warning (EUR)', { exact: false });
    await field.waitFor();
    await field.fill('20');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Billing warns below', { exact: false }).waitFor();
    // The notification fades out; the page is looked at without it.
    await page.getByRole('button', { name: 'Close the notification' }).click();
    await page.getByText('Billing warns below', { exact: false }).waitFor({ state: 'detached' });
    findings.push(...(await lookAt(page, 'billing-settings')));

    await page.getByRole('link', { name: 'Back to Billing' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your balance is low' }).waitFor();
    findings.push(...(await lookAt(page, 'billing-low-balance')));
  });

  it('shows a developer the balance and the ledger but no billing settings, even at their address', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await signIn(developerEmail);
    await page.goto(consoleUrl('billing'));
    await page.getByRole('group', { name: 'Balance' }).getByText('9.99', { exact: false }).waitFor();
    await page
      .getByRole('row')
      .filter({ hasText: `otp:${verificationId}` })
      .waitFor();
    expect(await page.getByRole('link', { name: 'Billing settings' }).count()).toBe(0);
    findings.push(...(await lookAt(page, 'billing-developer')));

    await page.goto(consoleUrl('billing/settings'));
    await page.getByText('Reserved to owners').waitFor();
    expect(await page.getByLabel('Low-balance warning (EUR)', { exact: false }).count()).toBe(0);
    findings.push(...(await lookAt(page, 'billing-settings-developer')));
  });

  it('met no serious or critical accessibility violation and logged no error in the browser', () => {
    expect(findings).toEqual([]);
    expect(browser.errors).toEqual([]);
  });
});
