import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { InMemStorageProvider, Unleash, UnleashEvents } from 'unleash-client';
import { ADMIN_PASSWORD, ADMIN_TOKEN, browserSuite, eventually, expectAccessible, pick, signIn, startUi, type UiHarness } from '../../support/ui-browser';

/**
 * Finding flags (issue 44, items 3 and 4) in Chromium: the Ctrl+K palette jumps to a flag of another project from a
 * fragment of its name; the Flags page lists every project's flags and filters by lifecycle, in the address; a name
 * the official Node SDK asks for that no flag has shows on the unknown-flags page, and "Create this flag" creates it.
 */
let ui: UiHarness;

const exists = async (name: string) => ui.admin(`query ($name: String!) { feature(name: $name) { name project } }`, { name })
  .then((r) => (r as { feature: { project: string } }).feature.project, (e: Error) => {
    if (/NotFoundError/.test(e.message)) return null;
    throw e;
  });

browserSuite()('the web UI: finding flags', () => {
  beforeAll(async () => {
    // Metrics written every 100 ms, so an SDK's report shows at once.
    ui = await startUi({ CLIENT_METRICS_FLUSH_MS: '100' });
    await ui.admin(`mutation { a: createProject(input: { id: "alpha", name: "Alpha" }) { id } b: createProject(input: { id: "beta", name: "Beta" }) { id } }`);
    for (const [project, name] of [['alpha', 'alpha-one'], ['alpha', 'alpha-two'], ['beta', 'beta-checkout-flow']]) {
      await ui.admin(`mutation ($input: CreateFeatureInput!) { createFeature(input: $input) { name } }`, { input: { project, name } });
    }
    // Switched on outside production: pre-live.
    await ui.admin(`mutation { setFeatureEnvironmentEnabled(input: { project: "alpha", feature: "alpha-one", environment: "development", enabled: true }) { enabled } }`);
    await signIn(ui.page, 'admin', ADMIN_PASSWORD);
    await ui.page.waitForURL(/\/projects$/);
  }, 120_000);
  jest.setTimeout(60_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('Ctrl+K finds a flag of another project by a fragment of its name and opens it', async () => {
    const { page } = ui;
    await page.goto('/projects/alpha');
    await page.getByRole('link', { name: 'alpha-one' }).waitFor();
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Go to' });
    const search = dialog.getByRole('searchbox', { name: 'Search' });
    await search.waitFor();
    await search.fill('checkout-fl');
    const option = dialog.getByRole('option', { name: /beta-checkout-flow/ });
    await option.waitFor();
    expect(await dialog.getByRole('option').count()).toBe(1);
    await expectAccessible(page);
    await ui.shot('find-palette');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/projects\/beta\/features\/beta-checkout-flow$/);
    await page.getByRole('heading', { name: 'beta-checkout-flow' }).first().waitFor();
  });

  it('the Flags page lists every project’s flags and filters them by lifecycle, in the address', async () => {
    const { page } = ui;
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Flags', exact: true }).click();
    await page.waitForURL(/\/flags$/);
    const table = page.getByRole('table', { name: 'Every flag' });
    for (const name of ['alpha-one', 'alpha-two', 'beta-checkout-flow']) await table.getByRole('link', { name }).waitFor();
    await pick(page, 'Lifecycle', 'Pre-live');
    await page.waitForURL(/lifecycle=preLive/);
    await eventually(() => table.getByRole('row').count(), (n) => n === 2, 'one flag row under the header');
    await table.getByRole('link', { name: 'alpha-one' }).waitFor();
    await expectAccessible(page);
    await ui.shot('find-flags-page');
    // The address alone gives the same list.
    await page.goto('/flags?lifecycle=initial&project=alpha');
    await table.getByRole('link', { name: 'alpha-two' }).waitFor();
    expect(await table.getByRole('row').count()).toBe(2);
  });

  it('the flag page shows the lifecycle, marks a flag completed as discarded, and the project warns when SDKs still report it', async () => {
    const { page } = ui;
    await page.goto('/projects/alpha/features/alpha-one');
    const card = page.getByRole('region', { name: 'Lifecycle' });
    await card.getByText('Pre-live', { exact: true }).first().waitFor();
    await card.getByRole('button', { name: 'Mark completed' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mark completed' });
    await dialog.getByRole('radio', { name: /Discarded/ }).check();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Mark completed' }).click();
    await card.getByRole('button', { name: 'Undo completed' }).waitFor();
    const read = () => ui.admin<{ feature: { lifecycle: { stage: string; stages: Array<{ stage: string; status: string | null }> } } }>(
      `{ feature(name: "alpha-one") { lifecycle { stage stages { stage status } } } }`);
    expect((await read()).feature.lifecycle.stages.at(-1)).toEqual({ stage: 'completed', status: 'discarded' });
    await expectAccessible(page);
    await ui.shot('find-lifecycle');

    // An SDK still reports it: the flag page and its project say its code is still in use.
    const token = await fetch(`${ui.base}/api/admin/api-tokens`, {
      method: 'POST', headers: { authorization: ADMIN_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ tokenName: 'find-metrics', type: 'client', environment: 'development', projects: ['alpha'] }),
    }).then((r) => r.json() as Promise<{ secret: string }>);
    const start = new Date();
    const sent = await fetch(`${ui.base}/api/client/metrics`, {
      method: 'POST', headers: { authorization: token.secret, 'content-type': 'application/json' },
      body: JSON.stringify({ appName: 'find-metrics', instanceId: 'm-1', bucket: { start: start.toISOString(), stop: new Date(start.getTime() + 1000).toISOString(), toggles: { 'alpha-one': { yes: 1, no: 0 } } } }),
    });
    expect(sent.status).toBe(202);
    await eventually(() => ui.admin<{ feature: { lifecycle: { trafficAfterDiscard: boolean } } }>(`{ feature(name: "alpha-one") { lifecycle { trafficAfterDiscard } } }`),
      (r) => r.feature.lifecycle.trafficAfterDiscard, 'the warning');
    await page.goto('/projects/alpha');
    await page.getByRole('alert').filter({ hasText: 'Discarded flags still in use' }).waitFor();
    await page.goto('/projects/alpha/features/alpha-one');
    await card.getByText('Discarded, yet still in use').waitFor();
  });

  it('a name the Node SDK asks for that no flag has shows on the unknown-flags page, and "Create this flag" creates it', async () => {
    const { page } = ui;
    const token = await fetch(`${ui.base}/api/admin/api-tokens`, {
      method: 'POST', headers: { authorization: ADMIN_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ tokenName: 'find-sdk', type: 'client', environment: 'development', projects: ['*'] }),
    }).then((r) => r.json() as Promise<{ secret: string }>);
    const sdk = new Unleash({
      url: `${ui.base}/api`, appName: 'find-sdk', customHeaders: { Authorization: token.secret }, metricsInterval: 200,
      refreshInterval: 60_000, storageProvider: new InMemStorageProvider(), skipInstanceCountWarning: true,
    });
    try {
      await new Promise<void>((resolve, reject) => { sdk.once(UnleashEvents.Synchronized, () => resolve()); sdk.once(UnleashEvents.Error, reject); });
      expect(sdk.isEnabled('checkout-typo')).toBe(false);
      await eventually(() => ui.admin<{ unknownFlags: Array<{ name: string }> }>(`{ unknownFlags { name } }`),
        (r) => r.unknownFlags.some((u) => u.name === 'checkout-typo'), 'the SDK’s report of the unknown name');
    } finally {
      sdk.destroy();
    }
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Unknown flags' }).click();
    const row = page.getByRole('row', { name: /checkout-typo/ });
    await row.getByText('find-sdk').waitFor();
    await expectAccessible(page);
    await ui.shot('find-unknown-flags');
    await row.getByRole('button', { name: 'Create this flag' }).click();
    const dialog = page.getByRole('dialog', { name: 'New flag' });
    expect(await dialog.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('checkout-typo');
    await pick(page, 'Project', 'Beta', dialog);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Create flag' }).click();
    await page.waitForURL(/\/projects\/beta\/features\/checkout-typo$/);
    expect(await exists('checkout-typo')).toBe('beta');
    await page.goBack();
    await page.getByText('No SDK reported a flag that does not exist.').waitFor();
  });
});
