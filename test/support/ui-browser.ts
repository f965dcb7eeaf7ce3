import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { spawnService, type ServiceProcess } from './service-process';
import { describeWhen } from './skip';

/**
 * The web UI in a real browser: the service (src/main.ts, embedded database in a folder of its own) serving the built
 * UI (dist/web, rebuilt first when web/ is newer), and headless Chromium (Debian's package, driven by
 * playwright-core) with every request to another host refused, as if offline. Each test file starts its own.
 *
 * Skipped, saying so (test/support/skip.ts), when Chromium is not installed, unless FLAGDECK_REQUIRE_BROWSER is set (.ci/run
 * sets it): then a missing Chromium fails.
 */
const ROOT = path.resolve(__dirname, '../..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const SHOTS = path.join(ROOT, 'test-results', 'ui');
export const ADMIN_TOKEN = '*:*.ui-browser-admin-token';
export const ADMIN_PASSWORD = 'Flagdeck-Ui-Test-1!';

/** Why the browser suites are skipped on a machine without Chromium. */
export const NO_CHROMIUM = `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;

/**
 * The `describe` of a browser suite: jest's when Chromium is here; otherwise one that skips the suite saying why, and
 * with FLAGDECK_REQUIRE_BROWSER (CI requires it) a failing test besides.
 */
export function browserSuite(): (name: string, block: () => void) => void {
  if (!hasChromium && process.env.FLAGDECK_REQUIRE_BROWSER) {
    const { it } = require('@jest/globals') as typeof import('@jest/globals');
    it('finds Chromium (FLAGDECK_REQUIRE_BROWSER is set)', () => {
      throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH`);
    });
  }
  return describeWhen(hasChromium, NO_CHROMIUM);
}

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'gql' || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

/**
 * Builds the UI when dist/web is missing or older than web/ (a test must never run a stale UI). The generated documents
 * (web/src/gql) are left out: they change only with the schema, and what the bundle holds of them (the documents'
 * text) comes from web/src itself.
 */
export function ensureUiBuilt(): void {
  const index = path.join(ROOT, 'dist', 'web', 'index.html');
  const sources = newest(path.join(ROOT, 'web'));
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.js'), '--web-only'], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`the web UI did not build:\n${run.stdout}\n${run.stderr}`);
}

export interface UiHarness {
  service: ServiceProcess;
  base: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** What the pages did that a test should see: requests to other hosts, console errors (CSP violations included). */
  seen: { elsewhere: string[]; consoleErrors: string[] };
  /** A GraphQL request with the admin token, for setting things up and checking what the UI did. */
  admin<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>): Promise<T>;
  /** A new browser context (its own cookies), offline like the first. */
  newContext(): Promise<BrowserContext>;
  shot(name: string, page?: Page): Promise<void>;
  close(): Promise<void>;
}

/** Starts the service and Chromium. `env` adds to the service's environment. */
export async function startUi(env: Record<string, string> = {}): Promise<UiHarness> {
  ensureUiBuilt();
  mkdirSync(SHOTS, { recursive: true });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flagdeck-ui-'));
  const service = await spawnService({ DATA_DIR: path.join(dir, 'data'), INIT_ADMIN_API_TOKENS: ADMIN_TOKEN, INIT_ADMIN_PASSWORD: ADMIN_PASSWORD, ...env });
  const base = `http://127.0.0.1:${service.port}`;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  const seen = { elsewhere: [] as string[], consoleErrors: [] as string[] };
  const newContext = async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, baseURL: base });
    await context.route((url) => url.origin !== base, (route) => {
      seen.elsewhere.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    context.on('page', (p) => watch(p));
    return context;
  };
  const watch = (p: Page) => {
    p.on('console', (m) => {
      // A refused request is the page's business (the test checks what it shows); anything else is a fault.
      if (m.type() === 'error' && !/Failed to load resource: the server responded with a status of (4\d\d)/.test(m.text())) seen.consoleErrors.push(m.text());
    });
    p.on('pageerror', (e) => seen.consoleErrors.push(String(e)));
  };
  const context = await newContext();
  const page = await context.newPage();
  const admin = async <T,>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
    const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: ADMIN_TOKEN }, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as { data?: T; errors?: unknown[] };
    if (body.errors?.length) throw new Error(`GraphQL refused: ${JSON.stringify(body.errors)}`);
    return body.data as T;
  };
  return {
    service, base, browser, context, page, seen, admin, newContext,
    shot: async (name, p = page) => { await p.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true }); },
    close: async () => {
      await browser.close().catch(() => undefined);
      service.kill();
      await service.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the login page, as a person would. */
export async function signIn(page: Page, username: string, password: string, path = '/login'): Promise<void> {
  await page.goto(path);
  await page.getByRole('textbox', { name: 'Username or email' }).fill(username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** axe-core's serious and critical violations on the page as it is now (none expected). */
export async function accessibilityViolations(page: Page): Promise<Array<{ id: string; impact: string; nodes: string[] }>> {
  // The page at rest: scrolled to the top (text under the sticky header reads as low contrast) and every dialog,
  // notification and dropdown fully faded in (one mid-transition is a contrast failure of the animation, not of the page).
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => [...document.querySelectorAll('.mantine-Notification-root, .mantine-Modal-content, .mantine-Modal-overlay, .mantine-Popover-dropdown')]
    .every((n) => getComputedStyle(n.parentElement ?? n).opacity === '1' && getComputedStyle(n).opacity === '1'));
  const axePath = require.resolve('axe-core/axe.min.js');
  // Injected through the protocol, not a <script> element: the page's CSP rightly refuses inline and foreign scripts.
  await page.evaluate(require('node:fs').readFileSync(axePath, 'utf8') as string);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
}

/** Asserts the page has no serious or critical accessibility violation. */
export async function expectAccessible(page: Page): Promise<void> {
  const { expect } = require('@jest/globals') as typeof import('@jest/globals');
  expect(await accessibilityViolations(page)).toEqual([]);
}

/** Chooses an option of a Mantine Select or MultiSelect by the field's label (its options open in a portal of the page). */
export async function pick(page: Page, label: string, option: string | RegExp, scope: Pick<Page, 'getByRole'> = page): Promise<void> {
  await scope.getByRole('textbox', { name: label, exact: true }).click();
  await page.getByRole('option', typeof option === 'string' ? { name: option, exact: true } : { name: option }).first().click();
}

/** Adds an option to a Mantine MultiSelect, then leaves it (Tab): its list stays open over the fields below otherwise. */
export async function pickMany(page: Page, label: string, option: string, scope: Pick<Page, 'getByRole'> = page): Promise<void> {
  await pick(page, label, option, scope);
  await page.keyboard.press('Tab');
}

/** Polls until `check` holds of what `read` answers (the page, the service and SDKs work asynchronously). */
export async function eventually<T>(read: () => T | Promise<T>, check: (value: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > until) throw new Error(`not reached: ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
