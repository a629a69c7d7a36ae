// The console's Applications pages in headless Chromium against the real stack: an owner creates
// an application and a template in Polish, whose live preview names the character that forces
// UCS-2 and shows 2 parts once the text is long; an OTP sent over the public API with that appid,
// template and language reaches the phone (the SMSC simulator) as the preview rendered it, with
// the real code. Every page is looked at at desktop and phone width and checked with axe-core.
import { admin, eventually, freePort, startStack, type RunningStack } from '@mp/testing';
import type { Page } from 'playwright-core';
import { simulatorMessages } from '../support/api-client';
import { lookAt, openBrowser, type AxeFinding, type ConsoleBrowser } from './browser';

jest.setTimeout(240_000);

const PASSWORD = 'owner passphrase 3';
const SHORT_TEXT = 'Twój kod {{app_name}}: {{otp}}';
const LONG_TAIL = ' Ważny {{expiry_minutes}} min. Nie podawaj go nikomu, nawet komuś, kto dzwoni w naszym imieniu.';
const RECIPIENT = '+33612388001';

describe('the console: applications and templates', () => {
  let stack: RunningStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let simulatorUrl: string;
  let company: Record<string, unknown>;
  let appid: string;
  let templateId: number;
  let previewed: string;
  const email = `apps-owner-${Date.now()}@acme.test`;
  const findings: AxeFinding[] = [];
  const consoleUrl = (path = '') => `${stack.gatewayUrl}/dashboard/${path}`;
  const editor = () => page.getByRole('region', { name: 'New template' });

  beforeAll(async () => {
    await admin(['db:migrate']);
    const httpPort = await freePort();
    simulatorUrl = `http://127.0.0.1:${httpPort}`;
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'smsc-simulator'], env: { SMSC_SIMULATOR_PORT: String(httpPort) } });
    // The price table is the run's, shared by every spec: the preview's sample number (+44…) is
    // priced here at the one value the other specs give +44 (sms-send, admin-cli), whichever runs first.
    await admin(['price:set', '--prefix', '+44', '--route', 'auto', '--price', '0.035']);
    company = await admin(['company:create', '--name', 'Acme Applications', '--balance', '10']);
    await admin(['user:create', '--company', String(company['company_id']), '--role', 'owner', '--email', email, '--password', PASSWORD]);
    browser = await openBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('signs in and lists the company’s applications', async () => {
    await page.goto(consoleUrl('applications'));
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Applications', exact: true }).waitFor();
    await page.getByRole('link', { name: 'default', exact: true }).waitFor();
    await page.getByText(String(company['appid'])).waitFor();
    expect(await page.getByRole('link', { name: 'Applications', exact: true }).getAttribute('aria-current')).toBe('page');
    findings.push(...(await lookAt(page, 'applications')));
  });

  it('creates an application with its OTP settings', async () => {
    await page.getByRole('button', { name: 'Create application' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create application' });
    await dialog.getByLabel('Name', { exact: true }).fill('Checkout');
    await dialog.getByLabel('OTP expiry (minutes)').fill('5');
    await dialog.getByLabel('Allowed countries').fill('fr');
    findings.push(...(await lookAt(page, 'application-create')));
    await dialog.getByRole('button', { name: 'Create application' }).click();
    await page.getByRole('heading', { name: 'Checkout', exact: true }).waitFor();
    appid = await page.getByLabel('appid', { exact: true }).inputValue();
    expect(appid).toMatch(/^app_[0-9a-f]{20}$/);
    expect(new URL(page.url()).pathname).toBe(`/dashboard/applications/${appid}`);
    expect(await page.getByLabel('Allowed countries').inputValue()).toBe('FR');
    await page.getByText('No templates yet').waitFor();
    findings.push(...(await lookAt(page, 'application')));
  });

  it('writes a template whose live preview names the UCS-2 character, and 2 parts when long', async () => {
    await page.getByRole('button', { name: 'New template' }).click();
    await editor().waitFor();
    expect(new URL(page.url()).searchParams.get('template')).toBe('new');
    await editor().getByLabel('Language').fill('pl');
    const text = editor().getByLabel('Template text');
    await text.pressSequentially(SHORT_TEXT);
    await editor().getByText('“ó” at position 3 forces UCS-2').waitFor();
    await editor().getByText('Twój kod Checkout: 123456', { exact: true }).waitFor();
    await editor().getByText('1 part', { exact: true }).waitFor();
    await editor().getByText('UCS-2', { exact: true }).waitFor();

    await text.fill(SHORT_TEXT + LONG_TAIL);
    await editor().getByText('2 parts', { exact: true }).waitFor();
    await editor().getByText('0.0700 EUR (2 parts × 0.0350 EUR)').waitFor();
    await editor().getByText('“ó” at position 3 forces UCS-2').waitFor();
    previewed = (await editor().getByTestId('rendered-text').textContent()) ?? '';
    expect(previewed).toBe('Twój kod Checkout: 123456 Ważny 5 min. Nie podawaj go nikomu, nawet komuś, kto dzwoni w naszym imieniu.');
    findings.push(...(await lookAt(page, 'template-editor')));

    await editor().getByRole('button', { name: 'Save template' }).click();
    await editor().waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'pl', selected: true }).waitFor();
    expect(new URL(page.url()).search).toBe('?lang=pl');
    const heading = await page.getByRole('heading', { name: /^Template \d+$/ }).textContent();
    templateId = Number(/\d+/.exec(heading ?? '')?.[0]);
    expect(templateId).toBeGreaterThan(0);
    findings.push(...(await lookAt(page, 'templates')));
  });

  it('an OTP sent over the public API with the appid, template and language reaches the phone as previewed', async () => {
    const sent = await fetch(`${stack.gatewayUrl}/otp/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': String(company['api_key']), 'x-api-secret': String(company['api_secret']) },
      body: JSON.stringify({ appid, recipient: RECIPIENT, template: templateId, lang: 'pl' }),
    });
    expect(sent.status).toBe(200);
    await sent.body?.cancel();
    const received = await eventually(
      () => simulatorMessages<{ text: string }>(simulatorUrl, RECIPIENT),
      (list) => list.length > 0,
    );
    const code = /: (\d{6}) /.exec(received[0]?.text ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect(received[0]?.text).toBe(previewed.replace('123456', code));
  });

  it('met no serious or critical accessibility violation and logged no error in the browser', () => {
    expect(findings).toEqual([]);
    expect(browser.errors).toEqual([]);
  });
});
