// The web console in headless Chromium against the real stack: an owner signs in, makes an API
// key, the public API accepts it, the owner revokes it and the public API refuses it; the owner
// invites a developer, who joins through the link and sees no owner-only controls; a wrong
// password and a locked account are said plainly. Every page is looked at at desktop and phone
// width (screenshots under test-results/dashboard/) and checked with axe-core.
import { admin, startStack, type RunningStack } from '@mp/testing';
import type { Page } from 'playwright-core';
import { lookAt, openBrowser, type AxeFinding, type ConsoleBrowser } from './browser';

jest.setTimeout(240_000);

const OWNER_PASSWORD = 'owner passphrase 1';
const DEVELOPER_PASSWORD = 'developer passphrase 2';

describe('the web console', () => {
  let stack: RunningStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let companyId: string;
  const ownerEmail = `owner-${Date.now()}@acme.test`;
  const developerEmail = `dev-${Date.now()}@acme.test`;
  const findings: AxeFinding[] = [];
  const consoleUrl = (path = '') => `${stack.gatewayUrl}/dashboard/${path}`;

  async function signIn(email: string, password: string): Promise<void> {
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  beforeAll(async () => {
    // Credentials are checked at every request: a revoked key is refused at once.
    stack = await startStack({ apps: ['gateway'], env: { AUTH_CACHE_TTL_MS: '0' } });
    companyId = String((await admin(['company:create', '--name', 'Acme Console', '--balance', '10'])).company_id);
    await admin(['user:create', '--company', companyId, '--role', 'owner', '--email', ownerEmail, '--password', OWNER_PASSWORD]);
    browser = await openBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('signs an owner in, after a wrong password said plainly, and lands on the page asked for', async () => {
    await page.goto(consoleUrl('keys'));
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    findings.push(...(await lookAt(page, 'sign-in')));

    await signIn(ownerEmail, 'not the password');
    await page.getByRole('alert').filter({ hasText: 'Email or password is wrong' }).waitFor();
    findings.push(...(await lookAt(page, 'sign-in-wrong-password')));

    await signIn(ownerEmail, OWNER_PASSWORD);
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/keys');
    for (const name of ['API keys', 'Team']) await page.getByRole('link', { name, exact: true }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    findings.push(...(await lookAt(page, 'keys')));
  });

  it('creates a key whose secret works on the public API, then revokes it and the API refuses it', async () => {
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your new API key' });
    await dialog.waitFor();
    const apiKey = await dialog.getByLabel('API key', { exact: true }).inputValue();
    const apiSecret = await dialog.getByLabel('API secret', { exact: true }).inputValue();
    expect(apiKey).toMatch(/^mpk_/);
    expect(apiSecret.length).toBeGreaterThan(10);
    await dialog.getByText('This is the only time the secret is shown', { exact: false }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Copy' }).count()).toBe(2);
    findings.push(...(await lookAt(page, 'key-created')));

    const credentials = { 'X-API-Key': apiKey, 'X-API-Secret': apiSecret };
    const accepted = await fetch(`${stack.gatewayUrl}/balance`, { headers: credentials });
    expect(accepted.status).toBe(200);
    expect(((await accepted.json()) as { data: { balance: number } }).data.balance).toBe(10);

    await dialog.getByRole('button', { name: 'I have stored the secret' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('row').filter({ hasText: apiKey });
    await row.waitFor();
    await row.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this API key?' });
    await confirm.waitFor();
    findings.push(...(await lookAt(page, 'key-revoke')));
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await row.waitFor({ state: 'detached' });

    const refused = await fetch(`${stack.gatewayUrl}/balance`, { headers: credentials });
    expect(refused.status).toBe(401);
    await refused.body?.cancel();

    await page.getByText('Revoked', { exact: true }).click();
    await page.getByRole('row').filter({ hasText: apiKey }).waitFor();
    expect(new URL(page.url()).search).toBe('?status=revoked');
  });

  it('lets the owner invite a developer, who joins through the link and sees no owner-only controls', async () => {
    await page.getByRole('link', { name: 'Team', exact: true }).click();
    await page.getByRole('heading', { name: 'Team', exact: true }).waitFor();
    const form = page.getByRole('form', { name: 'Invite a member' });
    await form.getByLabel('Email', { exact: true }).fill(developerEmail);
    await form.getByRole('button', { name: 'Invite' }).click();
    const link = await page.getByLabel('Invitation link', { exact: true }).inputValue();
    expect(link).toMatch(new RegExp(`^${stack.gatewayUrl}/dashboard/invite/.+`));
    findings.push(...(await lookAt(page, 'team-owner')));

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();

    await page.goto(link);
    await page.getByRole('button', { name: 'Set password and sign in' }).waitFor();
    findings.push(...(await lookAt(page, 'invitation')));
    await page.getByLabel('Password', { exact: true }).fill(DEVELOPER_PASSWORD);
    await page.getByLabel('Repeat the password', { exact: true }).fill(DEVELOPER_PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();

    await page.getByRole('link', { name: 'Team', exact: true }).click();
    await page.getByText('Only owners invite or remove members.').waitFor();
    await page.getByRole('cell', { name: ownerEmail }).waitFor();
    expect(await page.getByRole('form', { name: 'Invite a member' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Remove' }).count()).toBe(0);
    findings.push(...(await lookAt(page, 'team-developer')));

    // Nor can the developer invite through the API, with the session's cookie and token.
    const session = (await (await page.request.get(consoleUrl('api/session'))).json()) as { csrf_token: string };
    const answer = await page.request.post(consoleUrl('api/invitations'), {
      headers: { 'x-csrf-token': session.csrf_token },
      data: { email: 'someone@acme.test', role: 'owner' },
    });
    expect(answer.status()).toBe(403);
  });

  it('says how long to wait once an account is locked', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // Five failures within 15 minutes lock the account (one was made above).
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 6 && !statuses.includes(429); attempt += 1) {
      const answered = page.waitForResponse((response) => response.url().endsWith('/dashboard/api/session') && response.request().method() === 'POST');
      await signIn(ownerEmail, `wrong password ${attempt}`);
      statuses.push((await answered).status());
    }
    expect(statuses.at(-1)).toBe(429);
    await page
      .getByRole('alert')
      .filter({ hasText: /try again in \d+ minutes?/i })
      .waitFor();
    findings.push(...(await lookAt(page, 'sign-in-locked')));
  });

  it('shows a page that does not exist as such', async () => {
    await page.goto(consoleUrl('no-such-page'));
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    findings.push(...(await lookAt(page, 'not-found')));
  });

  it('met no serious or critical accessibility violation and logged no error in the browser', () => {
    expect(findings).toEqual([]);
    expect(browser.errors).toEqual([]);
  });
});
