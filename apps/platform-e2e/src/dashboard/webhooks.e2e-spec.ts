// The console's Webhooks page in headless Chromium against the real stack (gateway, dispatcher,
// SMSC simulator, webhook-notifier posting to real HTTP receivers; the retry schedule scaled down
// to seconds): an owner reveals the signing secret and rotates it, after which a webhook carries
// two signatures, one per secret; a receiver that answers 500 until the schedule gives up leaves
// dead letters, listed under Dead letters (in the URL) with every attempt's response code, and
// Resend delivers one with the same webhook-id. Every view is looked at at desktop and phone
// width and checked with axe-core.
import { admin, answering, eventually, startStack, startWebhookReceiver, type RunningStack, type WebhookReceiver } from '@mp/testing';
import { verifyWebhook } from '@mp/webhooks';
import type { Page } from 'playwright-core';
import { ApiClient, createCompany, type Company } from '../support/api-client';
import { lookAt, openBrowser, WIDTHS, type AxeFinding, type ConsoleBrowser } from './browser';

jest.setTimeout(300_000);

const PASSWORD = 'owner passphrase 4';
/** Run in the page: nothing wider than the window. */
const FITS = 'document.documentElement.scrollWidth <= window.innerWidth';

describe('the console’s Webhooks page', () => {
  let stack: RunningStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let company: Company;
  let receiver: WebhookReceiver;
  let rotatedSecret: string;
  const ownerEmail = `webhooks-owner-${Date.now()}@acme.test`;
  const findings: AxeFinding[] = [];
  const consoleUrl = (path = '') => `${stack.gatewayUrl}/dashboard/${path}`;
  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );

  async function sendWithWebhook(webhookUrl: string): Promise<string> {
    const sent = await api.post<{ data: { message_id: string } }>('/sms/send', { to: '+33698700102', message: 'Parcel shipped', webhook_url: webhookUrl });
    expect(sent.status).toBe(200);
    return sent.body.data.message_id;
  }

  /** The delivery's card once the log shows it (the page polls while deliveries are retried; a reload is the reader's way). */
  async function waitForCard(name: string): Promise<void> {
    const card = page.getByRole('article', { name });
    for (let attempt = 0; attempt < 30; attempt += 1) {
      if (await card.count()) return;
      await page.waitForTimeout(1_000);
      if (attempt % 5 === 4) await page.reload();
    }
    await card.first().waitFor({ timeout: 5_000 });
  }

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
    company = await createCompany('Acme Webhooks', '10');
    await admin(['user:create', '--company', company.company_id, '--role', 'owner', '--email', ownerEmail, '--password', PASSWORD]);
    receiver = await startWebhookReceiver();
    stack = await startStack({
      apps: ['gateway', 'sms-dispatcher', 'smsc-simulator', 'webhook-notifier'],
      env: { WEBHOOK_RETRY_SCALE: '0.0001', WEBHOOK_TIMEOUT_MS: '2000' },
    });
    browser = await openBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await receiver?.close();
  });

  it('signs in to the Webhooks page, its log empty and its secret hidden', async () => {
    await page.goto(consoleUrl('webhooks'));
    await page.getByLabel('Email', { exact: true }).fill(ownerEmail);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/webhooks');
    await page.getByRole('link', { name: 'Webhooks', exact: true }).waitFor();
    await page.getByText('No webhooks yet').waitFor();
    await page.getByLabel('Signing secret, hidden').waitFor();
    expect(await page.getByText(company.webhook_secret).count()).toBe(0);
    findings.push(...(await lookAt(page, 'webhooks-empty')));
  });

  it('reveals the secret, and rotates it so that webhooks carry a signature with each secret', async () => {
    await page.getByRole('button', { name: 'Reveal' }).click();
    const field = page.getByRole('textbox', { name: 'Signing secret' });
    await field.waitFor();
    expect(await field.inputValue()).toBe(company.webhook_secret);
    findings.push(...(await lookAt(page, 'webhooks-secret-revealed')));
    expect(await fitsPhone()).toBe(true);

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await dialog.getByText('every webhook carries two signatures', { exact: false }).waitFor();
    await dialog.getByLabel('1 hour').check();
    findings.push(...(await lookAt(page, 'webhooks-rotate-dialog')));
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByText('The secret it replaced also signs until', { exact: false }).waitFor();
    rotatedSecret = await field.inputValue();
    expect(rotatedSecret).toMatch(/^whsec_/);
    expect(rotatedSecret).not.toBe(company.webhook_secret);

    const messageId = await sendWithWebhook(receiver.url);
    const requests = await eventually(
      () => receiver.received.filter((r) => r.body.includes(messageId)),
      (list) => list.length === 2,
    );
    for (const request of requests) {
      expect(request.headers['webhook-signature']?.split(' ')).toHaveLength(2);
      for (const secret of [rotatedSecret, company.webhook_secret])
        expect(verifyWebhook({ secrets: [secret], headers: request.headers, body: request.body })).toBe(true);
    }
    await page.reload();
    await waitForCard('message.delivered webhook, delivered');
    findings.push(...(await lookAt(page, 'webhooks-log')));
  });

  it('lists dead letters with every attempt, and Resend delivers one with the same webhook-id', async () => {
    const failing = await startWebhookReceiver();
    failing.answer = answering(500);
    try {
      await sendWithWebhook(failing.url);
      await page.getByText('Dead letters', { exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get('status') === 'dead');
      await waitForCard('message.sent webhook, dead letter');
      const card = page.getByRole('article', { name: 'message.sent webhook, dead letter' });
      await card.getByRole('button', { name: 'Show attempts' }).click();
      const attempts = card.getByRole('list', { name: 'Attempts of the message.sent webhook' }).getByRole('listitem');
      await attempts.first().waitFor();
      expect(await attempts.count()).toBe(13);
      expect(await attempts.filter({ hasText: 'HTTP 500' }).count()).toBe(13);
      findings.push(...(await lookAt(page, 'webhooks-dead-letters')));
      expect(await fitsPhone()).toBe(true);

      const deliveryId = failing.received.find((r) => r.body.includes('"message.sent"'))?.headers['webhook-id'];
      failing.answer = answering(204);
      await card.getByRole('button', { name: /^Resend/ }).click();
      await page.getByText('message.sent: attempt 14 is on its way.').waitFor();
      const resent = await eventually(
        () => failing.received.filter((r) => r.headers['webhook-id'] === deliveryId),
        (list) => list.length === 14,
      );
      expect(resent).toHaveLength(14);
      expect(verifyWebhook({ secrets: [rotatedSecret], headers: resent[13].headers, body: resent[13].body })).toBe(true);

      await page.getByText('Delivered', { exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get('status') === 'delivered');
      await waitForCard('message.sent webhook, delivered');
      const delivered = page.getByRole('article', { name: 'message.sent webhook, delivered' }).filter({ hasText: failing.url });
      await delivered.getByRole('button', { name: 'Show attempts' }).click();
      await delivered.getByText('HTTP 204', { exact: true }).waitFor();
      await delivered.getByText('attempt 14 (resend)', { exact: false }).waitFor();
      findings.push(...(await lookAt(page, 'webhooks-resent')));
    } finally {
      await failing.close();
    }
  });

  it('found no serious accessibility problem and no browser error on any view', () => {
    expect(findings).toEqual([]);
    expect(browser.errors).toEqual([]);
  });
});
