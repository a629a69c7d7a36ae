// Headless Chromium for the console's end-to-end specs: Debian's `chromium` (installed by
// .ci/run) driven by playwright-core, a fresh profile per run, every page looked at as a person
// would at desktop and phone width: a screenshot under test-results/ and an axe-core check.
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const CHROMIUM = process.env['CHROMIUM_PATH'] || '/usr/bin/chromium';
/** Without the background-networking flags Chromium keeps calling Google's hosts, refused here. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 375, height: 740 } } as const;
const SCREENSHOTS = join(__dirname, '..', '..', '..', '..', 'test-results', 'dashboard');
/** What the browser logs for a refusal the console expects and shows: signing in with a wrong password (401) or while locked (429). */
const SIGN_IN_REFUSAL = /Failed to load resource: the server responded with a status of (401|429)\b/;
const SIGN_IN = /\/dashboard\/api\/session$/;

export interface ConsoleBrowser {
  context: BrowserContext;
  page: Page;
  /** Errors the pages logged or threw, other than the refusals the console shows itself. */
  errors: string[];
  close(): Promise<void>;
}

export async function openBrowser(): Promise<ConsoleBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'mp-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: WIDTHS.desktop,
    reducedMotion: 'reduce',
  });
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (message) => {
      const expected = SIGN_IN_REFUSAL.test(message.text()) && SIGN_IN.test(message.location().url);
      if (message.type() === 'error' && !expected) errors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  };
  context.on('page', watch);
  const page = context.pages()[0] ?? (await context.newPage());
  watch(page);
  return {
    context,
    page,
    errors,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface AxeFinding {
  page: string;
  width: number;
  id: string;
  impact: string | null | undefined;
  targets: string[];
}

/**
 * Looks at the page as it is now at both widths: a screenshot of each, and axe-core's serious
 * and critical findings (returned; a spec expects none).
 */
export async function lookAt(page: Page, name: string): Promise<AxeFinding[]> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const findings: AxeFinding[] = [];
  for (const [label, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${label}-${size.width}.png`), fullPage: true });
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    for (const violation of result.violations) {
      if (violation.impact === 'serious' || violation.impact === 'critical') {
        findings.push({
          page: name,
          width: size.width,
          id: violation.id,
          impact: violation.impact,
          targets: violation.nodes.map((node) => node.target.join(' ')),
        });
      }
    }
  }
  await page.setViewportSize(WIDTHS.desktop);
  return findings;
}
