// The console's Messages and Campaigns pages in headless Chromium against the real stack (the
// gateway, the dispatcher and the SMSC simulator, which answers with delivery receipts): an owner
// makes an API key in the console, sends an SMS with it over the public API, sees it in the log
// as delivered, finds it with the Search field, opens its history, revokes the key and the public
// API refuses it; a campaign's progress and its cancellation; a test message from the console.
// Every page is looked at at desktop and phone width and checked with axe-core.
import { admin, freePort, startStack, type RunningStack } from '@mp/testing';
import type { Page } from 'playwright-core';
import { ApiClient, createCompany, type Company } from '../support/api-client';
import { lookAt, openBrowser, type AxeFinding, type ConsoleBrowser } from './browser';

jest.setTimeout(300_000);

const PASSWORD = 'owner passphrase 3';
const NUMBER = '+447911123654';
const REFERENCE = `console-e2e-${Date.now()}`;

describe('the console’s Messages and Campaigns', () => {
  let stack: RunningStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let company: Company;
  let apiKey: string;
  let apiSecret: string;
  let messageId: string;
  const ownerEmail = `messages-owner-${Date.now()}@acme.test`;
  const findings: AxeFinding[] = [];
  const consoleUrl = (path = '') => `${stack.gatewayUrl}/dashboard/${path}`;
  const publicApi = new ApiClient(() => stack.gatewayUrl);
  const withKey = () => ({ 'X-API-Key': apiKey, 'X-API-Secret': apiSecret, 'Content-Type': 'application/json' });

  /** The log's row (a card at phone width, a table row at desktop width) of the number, once it shows `status`. */
  async function waitForStatus(to: string, status: string): Promise<void> {
    const row = page.getByRole('row').filter({ hasText: to }).filter({ hasText: status });
    for (let attempt = 0; attempt < 20; attempt += 1) {
      if (await row.count()) return;
      // The log reads itself again every few seconds while a message may change; a reload is the reader's way.
      await page.waitForTimeout(1_500);
      if (attempt % 4 === 3) await page.reload();
    }
    await row.first().waitFor({ timeout: 5_000 });
  }

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Acme Messages', '10');
    await admin(['user:create', '--company', company.company_id, '--role', 'owner', '--email', ownerEmail, '--password', PASSWORD]);
    const simulatorPort = await freePort();
    // Credentials are checked at every request: a revoked key is refused at once.
    stack = await startStack({
      apps: ['gateway', 'sms-dispatcher', 'smsc-simulator'],
      env: { AUTH_CACHE_TTL_MS: '0', SMSC_SIMULATOR_PORT: String(simulatorPort) },
    });
    browser = await openBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('signs in, lands on the message log asked for, and shows it empty', async () => {
    await page.goto(consoleUrl('messages'));
    await page.getByLabel('Email', { exact: true }).fill(ownerEmail);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Messages', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/messages');
    for (const name of ['Messages', 'Campaigns', 'API keys']) await page.getByRole('link', { name, exact: true }).waitFor();
    await page.getByText('No messages yet').waitFor();
    findings.push(...(await lookAt(page, 'messages-empty')));
  });

  it('creates an API key in the console and sends an SMS with it that the log shows delivered', async () => {
    await page.getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your new API key' });
    apiKey = await dialog.getByLabel('API key', { exact: true }).inputValue();
    apiSecret = await dialog.getByLabel('API secret', { exact: true }).inputValue();
    await dialog.getByRole('button', { name: 'I have stored the secret' }).click();

    const sent = await fetch(`${stack.gatewayUrl}/sms/send`, {
      method: 'POST',
      headers: withKey(),
      body: JSON.stringify({ to: NUMBER, message: 'Your parcel is on its way', from: 'Acme', reference: REFERENCE }),
    });
    expect(sent.status).toBe(200);
    messageId = ((await sent.json()) as { data: { message_id: string } }).data.message_id;

    await page.getByRole('link', { name: 'Messages', exact: true }).click();
    await waitForStatus(NUMBER, 'delivered');
    findings.push(...(await lookAt(page, 'messages')));
  });

  it('finds the message with the Search field, in the URL, and opens its parts and history', async () => {
    await page.getByLabel('Search', { exact: true }).fill('+44 7911 123');
    await page.getByLabel('Search', { exact: true }).press('Enter');
    await page.waitForURL((url) => url.searchParams.get('search') === '+44 7911 123');
    const link = page.getByRole('link', { name: `Message to ${NUMBER}, delivered` });
    await link.waitFor();
    expect(await page.getByRole('row').count()).toBe(2); // the header and the one match
    findings.push(...(await lookAt(page, 'messages-searched')));

    await page.reload();
    await link.waitFor();
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('+44 7911 123');

    await link.click();
    await page.getByRole('heading', { name: `Message to ${NUMBER}` }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/messages/${messageId}`);
    await page.getByText('Your parcel is on its way').waitFor();
    for (const step of ['Accepted and charged', 'Handed to the carrier (part 1)', 'Delivered (part 1)']) await page.getByText(step, { exact: true }).waitFor();
    await page.getByText('Receipt: DELIVRD').waitFor();
    const times = await page.locator('time').evaluateAll((elements) => elements.map((element) => element.getAttribute('datetime')));
    expect(times.filter((time) => time && !Number.isNaN(Date.parse(time))).length).toBeGreaterThan(3);
    findings.push(...(await lookAt(page, 'message-detail')));
  });

  it('revokes the key in the console, and the public API refuses it', async () => {
    await page.getByRole('link', { name: 'API keys', exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: apiKey });
    await row.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this API key?' });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached' });
    const refused = await fetch(`${stack.gatewayUrl}/sms/send`, { method: 'POST', headers: withKey(), body: JSON.stringify({ to: NUMBER, message: 'Again' }) });
    expect(refused.status).toBe(401);
    await refused.body?.cancel();
  });

  it('sends a test message from the console, charged and listed', async () => {
    await page.getByRole('link', { name: 'Messages', exact: true }).click();
    await page.getByRole('button', { name: 'Send a test message' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Send a test message' });
    await dialog.getByLabel('To', { exact: true }).fill('+44 7911 123457');
    await dialog.getByLabel('Message', { exact: true }).fill('Hello from the console');
    findings.push(...(await lookAt(page, 'messages-test-message')));
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await waitForStatus('+447911123457', 'delivered');
    const balance = await publicApi.as(company).get<{ data: { balance: number } }>('/balance');
    expect(balance.body.data.balance).toBeLessThan(10);
  });

  it('shows a campaign’s progress from its live counters, and cancels its batches not started after a confirmation', async () => {
    const accepted = await publicApi.as(company).post<{ data: { campaign_id: string } }>('/sms/send-bulk', {
      recipients: ['+447911200001', '+447911200002', '+447911200003'],
      message: 'Spring sale',
      from: 'Acme',
      reference: 'spring-sale',
      batch_size: 1,
      delay_between_batches: 600,
    });
    expect(accepted.status).toBe(200);
    const campaignId = accepted.body.data.campaign_id;

    await page.getByRole('link', { name: 'Campaigns', exact: true }).click();
    const card = page.getByRole('article', { name: 'spring-sale' });
    await card.getByRole('progressbar', { name: 'Delivered: 1 of 3' }).waitFor({ timeout: 60_000 });
    await card.getByText('33% done').waitFor();
    findings.push(...(await lookAt(page, 'campaigns')));

    await card.getByRole('link', { name: 'spring-sale' }).click();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/campaigns/${campaignId}`);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel this campaign?' });
    findings.push(...(await lookAt(page, 'campaign-cancel')));
    await confirm.getByRole('button', { name: 'Cancel campaign' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByRole('progressbar', { name: 'Cancelled: 2 of 3' }).waitFor();
    await page.getByText('Finished').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
    findings.push(...(await lookAt(page, 'campaign-detail')));

    const viaPublicApi = await publicApi.as(company).get<{ data: { summary: Record<string, number> } }>(`/sms/campaigns/${campaignId}`);
    expect(viaPublicApi.body.data.summary).toMatchObject({ delivered: 1, cancelled: 2 });
  });

  it('met no serious or critical accessibility violation and logged no error in the browser', () => {
    expect(findings).toEqual([]);
    expect(browser.errors).toEqual([]);
  });
});
