import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { ADMIN_PASSWORD, browserSuite, eventually, expectAccessible, pick, signIn, startUi, type UiHarness } from '../../support/ui-browser';
import { exportAndImport, exportFrom, openExport } from '../../support/ui-data';

/**
 * The data pages in Chromium (issue 29, items 7–9): an export of two flags of one project imported into another
 * through the validate → diff → import page (and a downloaded export file uploaded); archived flags revived and
 * deleted on /archive; an SDK's registration and metrics shown on /applications, the application's page and the
 * flag's usage. Each effect is checked on the server.
 */
let ui: UiHarness;
const SOURCE = 'shop';
const TARGET = 'shop-copy';

interface StrategyState { name: string; title: string | null; parameters: Record<string, string>; constraints: Array<{ contextName: string; operator: string; values: string[] }> }
interface FlagState {
  feature: {
    project: string; archived: boolean;
    environments: Array<{ name: string; enabled: boolean; strategies: StrategyState[]; variants: Array<{ name: string; weight: number }> }>;
  };
}
const readFlag = async (name: string) => (await ui.admin<FlagState>(`query ($name: String!) { feature(name: $name) { project archived
  environments { name enabled strategies { name title parameters constraints { contextName operator values } } variants { name weight } } } }`, { name })).feature;
const exists = async (name: string) => ui.admin(`query ($name: String!) { feature(name: $name) { name } }`, { name }).then(() => true, (e: Error) => {
  if (/NotFoundError/.test(e.message)) return false;
  throw e;
});


async function createFlag(project: string, name: string) {
  await ui.admin(`mutation ($input: CreateFeatureInput!) { createFeature(input: $input) { name } }`, { input: { project, name, description: `${name}, seeded` } });
}

/** Two flags of the source: a constrained gradual rollout with a strategy variant, and a standard strategy with flag variants. */
async function seedSource() {
  await ui.admin(`mutation { createProject(input: { id: "${SOURCE}", name: "Shop" }) { id } p2: createProject(input: { id: "${TARGET}", name: "Shop copy" }) { id } }`);
  await createFlag(SOURCE, 'shop-checkout');
  await createFlag(SOURCE, 'shop-banner');
  const strategy = `mutation ($input: AddFeatureStrategyInput!) { addFeatureStrategy(input: $input) { id } }`;
  await ui.admin(strategy, {
    input: {
      project: SOURCE, feature: 'shop-checkout', environment: 'development', name: 'flexibleRollout', title: 'EU rollout',
      parameters: { rollout: '40', stickiness: 'userId', groupId: 'shop-checkout' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['ann', 'bo'] }],
      variants: [{ name: 'wide', weight: 1000, weightType: 'variable', stickiness: 'default' }],
    },
  });
  await ui.admin(strategy, { input: { project: SOURCE, feature: 'shop-banner', environment: 'development', name: 'default', parameters: {} } });
  await ui.admin(`mutation ($input: SetFeatureVariantsInput!) { setFeatureVariants(input: $input) { name } }`, {
    input: {
      project: SOURCE, feature: 'shop-banner', environments: ['development'],
      variants: [{ name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default' }, { name: 'green', weight: 500, weightType: 'variable', stickiness: 'default' }],
    },
  });
  await ui.admin(`mutation { setFeatureEnvironmentEnabled(input: { project: "${SOURCE}", feature: "shop-checkout", environment: "development", enabled: true }) { enabled } }`);
}

browserSuite()('the web UI: import and export, archive, applications', () => {
  beforeAll(async () => {
    // Metrics written every 100 ms, so a report shows on the pages at once.
    ui = await startUi({ CLIENT_METRICS_FLUSH_MS: '100' });
    await seedSource();
    await signIn(ui.page, 'admin', ADMIN_PASSWORD);
    await ui.page.waitForURL(/\/projects$/);
  }, 120_000);
  jest.setTimeout(60_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('exports two flags of one project and imports them into another through validate, diff and import', async () => {
    const { page } = ui;
    // The export dialog, looked at before the round trip.
    const dialog = await openExport(page, SOURCE, ['shop-checkout', 'shop-banner']);
    await ui.shot('data-export');
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Flag names are unique across projects: the source's flags are removed once exported (a move between projects).
    const before = { checkout: await readFlag('shop-checkout'), banner: await readFlag('shop-banner') };
    const { json, validated } = await exportAndImport(page, SOURCE, TARGET, 'development', {
      flags: ['shop-checkout', 'shop-banner'],
      beforeImport: async () => {
        const names = `{ project: "${SOURCE}", features: ["shop-checkout", "shop-banner"] }`;
        await ui.admin(`mutation { archiveFeatures(input: ${names}) }`);
        await ui.admin(`mutation { deleteFeatures(input: ${names}) }`);
      },
    });
    expect(JSON.parse(json).features.map((f: { name: string }) => f.name).sort()).toEqual(['shop-banner', 'shop-checkout']);
    expect(validated.sort((a, b) => a.feature.localeCompare(b.feature))).toEqual([{ feature: 'shop-banner', action: 'New' }, { feature: 'shop-checkout', action: 'New' }]);
    await page.getByRole('link', { name: `Open project ${TARGET}` }).waitFor();
    await ui.shot('data-import-done');
    await expectAccessible(page);

    // On the server: both flags now in the target, with the source's strategies, constraints, variants and switch.
    const dev = (f: FlagState['feature']) => f.environments.find((e) => e.name === 'development')!;
    const checkout = await readFlag('shop-checkout');
    const banner = await readFlag('shop-banner');
    expect([checkout.project, banner.project]).toEqual([TARGET, TARGET]);
    expect(dev(checkout).strategies).toEqual([{ name: 'flexibleRollout', title: 'EU rollout', parameters: { rollout: '40', stickiness: 'userId', groupId: 'shop-checkout' }, constraints: [{ contextName: 'userId', operator: 'IN', values: ['ann', 'bo'] }] }]);
    expect(dev(checkout).strategies).toEqual(dev(before.checkout).strategies);
    expect(dev(checkout).enabled).toBe(true);
    expect(dev(banner).strategies.map((s) => s.name)).toEqual(['default']);
    expect(dev(banner).variants).toEqual(dev(before.banner).variants);
    expect(dev(banner).variants.map((v) => v.name)).toEqual(['blue', 'green']);
  });

  it('downloads an export file and uploads it on the import page, whose validation shows what would change', async () => {
    const { page } = ui;
    const dialog = await openExport(page, TARGET);
    await dialog.getByText('The whole project').click();
    await exportFrom(page, dialog, 'development');
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: 'Download' }).click()]);
    const file = await download.path();
    expect(JSON.parse(readFileSync(file, 'utf8')).features).toHaveLength(2);
    expect(download.suggestedFilename()).toMatch(/^flagdeck-shop-copy-development-\d{4}-\d\d-\d\d\.json$/);
    await page.keyboard.press('Escape');
    // Edited since the export: validating the file says what importing it would put back.
    await ui.admin(`mutation { updateFeature(input: { project: "${TARGET}", feature: "shop-banner", description: "edited since" }) { name } }`);

    await page.goto(`/projects/${TARGET}/import`);
    await page.getByRole('textbox', { name: 'Export JSON' }).fill('{"features": [');
    await page.getByText(/^This is not JSON/).waitFor();
    await page.locator('input[type=file]').setInputFiles(file);
    await page.getByText(/^2 flag\(s\) in the export: /).waitFor();
    await pick(page, 'Environment', 'development');
    await page.getByRole('button', { name: 'Validate' }).click();
    const banner = page.getByRole('list', { name: 'Changes to shop-banner' });
    await banner.getByText('description: "edited since" → "shop-banner, seeded"').waitFor();
    await page.getByText('1 updated, 1 unchanged in shop-copy (development).').waitFor();
    await ui.shot('data-import-validate');
    await expectAccessible(page);
    // Validating writes nothing.
    const desc = await ui.admin<{ feature: { description: string } }>(`query { feature(name: "shop-banner") { description } }`);
    expect(desc.feature.description).toBe('edited since');
  });

  it('revives an archived flag, and deletes one and then two for good, on /archive', async () => {
    const { page } = ui;
    for (const name of ['old-a', 'old-b', 'old-c', 'old-d']) await createFlag('default', name);
    await ui.admin(`mutation { archiveFeatures(input: { project: "default", features: ["old-a", "old-b", "old-c", "old-d"] }) }`);
    await page.goto('/archive');
    await page.getByRole('heading', { level: 1, name: 'Archive' }).waitFor();
    await page.getByRole('button', { name: 'Revive old-a' }).waitFor();
    await ui.shot('data-archive');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Revive old-a' }).click();
    await eventually(() => readFlag('old-a'), (f) => !f.archived, 'old-a revived');
    await page.getByRole('button', { name: 'Revive old-a' }).waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Delete old-b' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete old-b' });
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Delete for good' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await exists('old-b')).toBe(false);

    // The search narrows the list; a selection of two goes in one confirmation.
    await page.getByRole('textbox', { name: 'Search archived flags' }).fill('old-');
    await page.getByRole('checkbox', { name: 'Select old-c' }).check();
    await page.getByRole('checkbox', { name: 'Select old-d' }).check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    const both = page.getByRole('dialog', { name: 'Delete 2 flags' });
    await both.getByRole('button', { name: 'Delete for good' }).click();
    await both.waitFor({ state: 'detached' });
    expect([await exists('old-c'), await exists('old-d'), await exists('old-a')]).toEqual([false, false, true]);
    await page.getByText('No archived flag matches this search.').waitFor();
  });

  it('shows an SDK\'s application, its instance and flags, and the flag\'s usage, from its registration and metrics', async () => {
    const { page } = ui;
    const { createApiToken } = await ui.admin<{ createApiToken: { secret: string } }>(
      `mutation { createApiToken(input: { tokenName: "shop-sdk", type: "client", environment: "development", projects: ["*"] }) { secret } }`);
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${ui.base}${path}`, { method: 'POST', headers: { authorization: createApiToken.secret, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect([path, res.status]).toEqual([path, 202]);
    };
    const now = new Date();
    await post('/api/client/register', {
      appName: 'shop-web', instanceId: 'web-1', sdkVersion: 'unleash-client-node:6.12.1', strategies: ['default', 'flexibleRollout'],
      started: now.toISOString(), interval: 15_000,
    });
    await post('/api/client/metrics', {
      appName: 'shop-web', instanceId: 'web-1',
      bucket: { start: new Date(now.getTime() - 10_000).toISOString(), stop: now.toISOString(), toggles: { 'shop-checkout': { yes: 7, no: 3 } } },
    });
    await eventually(() => ui.admin<{ application: { seenToggles: string[] } }>(`query { application(appName: "shop-web") { seenToggles } }`),
      (r) => r.application.seenToggles.includes('shop-checkout'), 'the metrics written');

    await page.goto('/applications');
    await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'shop-web' }) });
    await row.getByText('unleash-client-node:6.12.1').waitFor();
    await ui.shot('data-applications');
    await expectAccessible(page);

    await row.getByRole('link', { name: 'shop-web' }).click();
    await page.getByRole('heading', { level: 1, name: 'shop-web' }).waitFor();
    const instances = page.getByRole('table', { name: 'Instances' });
    await instances.getByText('web-1').waitFor();
    await instances.getByText('15 s').waitFor();
    await page.getByRole('list', { name: 'Flags seen' }).getByRole('link', { name: 'shop-checkout' }).waitFor();
    await page.getByLabel('Description').fill('The shop front end');
    await page.getByRole('textbox', { name: 'URL' }).fill('https://shop.example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await eventually(() => ui.admin<{ application: { description: string | null; url: string | null } }>(`query { application(appName: "shop-web") { description url } }`),
      (r) => r.application.description === 'The shop front end' && r.application.url === 'https://shop.example.com', 'details saved');
    await ui.shot('data-application');
    await expectAccessible(page);

    // The seen flag's link opens its page, whose Usage card shows the counts and the application.
    await page.getByRole('list', { name: 'Flags seen' }).getByRole('link', { name: 'shop-checkout' }).click();
    await page.getByRole('heading', { level: 1, name: 'shop-checkout' }).waitFor();
    const usage = page.getByRole('region', { name: 'Usage' });
    const dev = usage.getByRole('row').filter({ hasText: 'development' });
    await dev.getByText('7 / 3').first().waitFor();
    expect((await dev.innerText()).includes('never')).toBe(false);
    await usage.getByRole('link', { name: 'shop-web' }).waitFor();
    await ui.shot('data-flag-usage');
    await expectAccessible(page);

    // Deleting the application, confirmed.
    await page.goto('/applications/shop-web');
    await page.getByRole('button', { name: 'Delete application' }).click();
    await page.getByRole('dialog', { name: 'Delete shop-web' }).getByRole('button', { name: 'Delete application' }).click();
    await page.waitForURL(/\/applications$/);
    const apps = await ui.admin<{ applications: Array<{ appName: string }> }>(`query { applications { appName } }`);
    expect(apps.applications.map((a) => a.appName)).not.toContain('shop-web');
    expect(ui.seen.consoleErrors).toEqual([]);
    expect(ui.seen.elsewhere).toEqual([]);
  });
});
