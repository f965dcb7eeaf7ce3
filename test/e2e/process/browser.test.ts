import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { spawnService, type ServiceProcess } from '../../support/service-process';
import { describeWhen } from '../../support/skip';

/**
 * GraphiQL (/graphql) and the REST reference (/docs) in a real browser: the service (src/main.ts, embedded database)
 * and headless Chromium (Debian's `chromium` package, driven by playwright-core) with every request to another host
 * refused, as if offline.
 * - GraphiQL loads and shows the example query and the Authorization placeholder without any 401; a token pasted into
 *   the Headers tab brings docs and completion; the query runs; a reload (GraphiQL keeps the query in the address)
 *   keeps the page, the query and the token.
 * - The reference lists the documented paths; a token entered through Authorize lets "Try it out" call a path, and the
 *   answer shows.
 * Screenshots of each step go to test-results/browser/.
 *
 * Skipped, saying so, when Chromium is not installed (`apt-get install -y chromium`; CHROMIUM_PATH names another),
 * unless FLAGDECK_REQUIRE_BROWSER is set (.ci/run sets it after installing Chromium): then a missing Chromium fails.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.FLAGDECK_REQUIRE_BROWSER) {
  it('finds Chromium (FLAGDECK_REQUIRE_BROWSER is set)', () => {
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH`);
  });
}
const inChromium = describeWhen(hasChromium, `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);

const TOKEN = '*:*.graphiql-browser-admin-token';
const SHOTS = path.resolve(__dirname, '../../../test-results/browser');
const dir = mkdtempSync(path.join(os.tmpdir(), 'flagdeck-browser-'));
let service: ServiceProcess | undefined;
let browser: Browser | undefined;
let context: BrowserContext;
let page: Page;
let base: string;

/** What the page did, for the checks: requests refused for naming another host, HTTP errors, console errors. */
const seen = { elsewhere: [] as string[], httpErrors: [] as string[], consoleErrors: [] as string[], graphqlPosts: [] as Array<{ authorization?: string; body: string }> };

afterAll(async () => {
  await browser?.close();
  service?.kill();
  await service?.exited;
  rmSync(dir, { recursive: true, force: true });
});

const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
const editor = (kind: 'operation' | 'headers') => page.locator(`.monaco-editor[data-uri$="${kind === 'operation' ? 'operation.graphql' : 'headers.json'}"]`);
const editorText = async (kind: 'operation' | 'headers') => (await editor(kind).locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
const introspection = () => page.waitForResponse((r) => r.url() === `${base}/graphql` && r.request().method() === 'POST' && (r.request().postData() ?? '').includes('IntrospectionQuery'));

/** `read()` once it passes `check` (or its last value after `timeoutMs`), for an assertion on what the page shows. */
async function eventually<T>(read: () => Promise<T> | T, check: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

inChromium(`GraphiQL in Chromium (${CHROMIUM})`, () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    service = await spawnService({ DATA_DIR: path.join(dir, 'data'), INIT_ADMIN_API_TOKENS: TOKEN });
    base = `http://127.0.0.1:${service.port}`;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    // Offline: anything not from the service is refused (and noted).
    await context.route((url) => url.origin !== base, (route) => {
      seen.elsewhere.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    page = await context.newPage();
    page.on('response', (r) => { if (r.status() >= 400) seen.httpErrors.push(`${r.status()} ${r.request().method()} ${r.url()}`); });
    page.on('console', (m) => { if (m.type() === 'error') seen.consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => seen.consoleErrors.push(`uncaught: ${e.message}`));
    page.on('request', (r) => {
      if (r.url() === `${base}/graphql` && r.method() === 'POST') seen.graphqlPosts.push({ authorization: r.headers().authorization, body: r.postData() ?? '' });
    });
  }, 180_000);

  it('loads offline: the example query and the Authorization placeholder, no request to another host, no 401, no CSP violation', async () => {
    const res = await page.goto(`${base}/graphql`);
    expect(res?.status()).toBe(200);
    await editor('headers').waitFor({ timeout: 60_000 });
    expect(await eventually(() => editorText('operation'), (v) => v.includes('projects { id name environments { environment } }'), 30_000)).toContain('projects { id name environments { environment } }');
    // The Headers tab is the open one, with the placeholder.
    expect(JSON.parse(await editorText('headers'))).toEqual({ Authorization: '<your admin API token>' });
    await page.waitForTimeout(1500); // time for GraphiQL's introspection on load, which the page holds back
    await shot('1-loaded');
    expect(seen.graphqlPosts).toEqual([]);
    expect(await page.locator('.graphiql-response').innerText()).not.toMatch(/AuthenticationRequired|401/);
    expect(seen).toMatchObject({ elsewhere: [], httpErrors: [], consoleErrors: [] });
  }, 120_000);

  it('a token pasted into the Headers tab brings the schema: docs show the types and fields, and the query runs', async () => {
    const schema = introspection();
    await editor('headers').click();
    await page.keyboard.press('Control+A');
    await page.evaluate((text) => navigator.clipboard.writeText(text), JSON.stringify({ Authorization: TOKEN }));
    await page.keyboard.press('Control+V');
    const answer = await schema;
    expect(answer.status()).toBe(200);
    expect(answer.request().headers().authorization).toBe(TOKEN);

    await page.click('[aria-label="Show Documentation Explorer"]');
    const docs = page.locator('.graphiql-doc-explorer');
    expect(await eventually(() => docs.innerText(), (v) => /query:\s*Query/.test(v), 30_000)).toMatch(/query:\s*Query/);
    await docs.getByText('Query', { exact: true }).first().click();
    expect(await eventually(() => docs.innerText(), (v) => /\bprojects\b[\s\S]*\btags\b/.test(v), 30_000)).toMatch(/\bprojects\b[\s\S]*\btags\b/);
    await shot('2-docs');

    await page.click('.graphiql-execute-button');
    const response = page.locator('.graphiql-response');
    expect(await eventually(() => response.innerText(), (v) => v.includes('"Default"'), 30_000)).toContain('"Default"');
    await shot('3-query-ran');
    const ran = seen.graphqlPosts.filter((p) => p.body.includes('projects'));
    expect(ran.map((p) => p.authorization)).toEqual([TOKEN]);
    expect(seen).toMatchObject({ elsewhere: [], httpErrors: [], consoleErrors: [] });
  }, 120_000);

  it('a reload with the query in the address keeps the page, the query and the token (schema fetched with it at once)', async () => {
    await editor('operation').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n# edited in the browser test');
    expect(await eventually(() => new URL(page.url()).searchParams.get('query') ?? '', (v) => v.includes('# edited in the browser test'), 10_000)).toContain('# edited in the browser test');
    const schema = introspection();
    const res = await page.reload();
    expect(res?.status()).toBe(200);
    expect((await schema).status()).toBe(200);
    expect(await eventually(() => editorText('operation'), (v) => v.includes('# edited in the browser test'), 30_000)).toContain('# edited in the browser test');
    expect(JSON.parse(await editorText('headers'))).toEqual({ Authorization: TOKEN });
    await shot('4-reloaded');
    expect(seen).toMatchObject({ elsewhere: [], httpErrors: [], consoleErrors: [] });
  }, 120_000);
});

inChromium(`the REST reference in Chromium (${CHROMIUM})`, () => {
  let docs: Page;
  /** What the reference page did: requests to another host are refused by the context's route (seen.elsewhere). */
  const here = { httpErrors: [] as string[], consoleErrors: [] as string[], apiCalls: [] as Array<{ url: string; authorization?: string }> };
  const docsShot = (name: string) => docs.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });

  beforeAll(async () => {
    docs = await context.newPage();
    docs.on('response', (r) => { if (r.status() >= 400) here.httpErrors.push(`${r.status()} ${r.request().method()} ${r.url()}`); });
    docs.on('console', (m) => { if (m.type() === 'error') here.consoleErrors.push(m.text()); });
    docs.on('pageerror', (e) => here.consoleErrors.push(`uncaught: ${e.message}`));
    docs.on('request', (r) => { if (r.url().startsWith(`${base}/api/`)) here.apiCalls.push({ url: r.url(), authorization: r.headers().authorization }); });
  });

  it('loads offline and lists the documented paths with their permissions', async () => {
    const res = await docs.goto(`${base}/docs`);
    expect(res?.status()).toBe(200);
    await docs.locator('.swagger-ui .info .title').waitFor({ timeout: 60_000 });
    expect(await docs.locator('.swagger-ui .info .title').innerText()).toContain('flagdeck REST API');
    // Every group is listed, closed; opening one shows its paths.
    const tags = docs.locator('#operations-tag-Tags');
    await tags.waitFor({ timeout: 30_000 });
    const groups = await docs.locator('.opblock-tag').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.tag));
    expect(groups).toEqual(expect.arrayContaining(['Addons', 'Change requests', 'Client API', 'Features', 'Playground', 'Projects', 'Tags', 'Users']));
    await tags.click();
    const listTags = docs.locator('#operations-Tags-getApiAdminTags');
    expect(await listTags.locator('.opblock-summary-path').innerText()).toBe('/api/admin/tags');
    await docsShot('5-docs-loaded');
    expect(here).toMatchObject({ httpErrors: [], consoleErrors: [] });
    expect(seen.elsewhere).toEqual([]);
  }, 120_000);

  it('Authorize takes a token, and "Try it out" calls the path with it and shows the answer', async () => {
    await docs.click('.swagger-ui .auth-wrapper .authorize');
    const dialog = docs.locator('.swagger-ui .dialog-ux');
    await dialog.waitFor();
    const apiToken = dialog.locator('.auth-container').filter({ hasText: 'apiToken' });
    await apiToken.locator('input[type=text], input[type=password]').first().fill(TOKEN);
    await apiToken.locator('button.authorize').click();
    await apiToken.locator('button.btn-done').click();

    const op = docs.locator('#operations-Tags-getApiAdminTags');
    await op.locator('.opblock-summary').first().click();
    expect(await op.locator('.opblock-description-wrapper').first().innerText()).toContain('Needs:');
    await op.locator('.try-out__btn').click();
    await op.locator('.execute').click();
    const live = op.locator('.live-responses-table');
    await live.waitFor({ timeout: 30_000 });
    const text = await eventually(() => live.innerText(), (v) => v.includes('"tags"'), 30_000);
    expect(text).toContain('200');
    expect(text).toContain('"tags"');
    await docsShot('6-docs-try-it-out');
    expect(here.apiCalls).toEqual([{ url: `${base}/api/admin/tags`, authorization: TOKEN }]);
    expect(here).toMatchObject({ httpErrors: [], consoleErrors: [] });
    expect(seen.elsewhere).toEqual([]);
  }, 120_000);
});
