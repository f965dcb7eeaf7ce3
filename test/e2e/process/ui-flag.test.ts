import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, browserSuite, eventually, expectAccessible, signIn, startUi, type UiHarness } from '../../support/ui-browser';

/**
 * The flag page in Chromium: an admin switches the flag, edits its metadata and tags, reorders, disables and deletes
 * strategies, clones, archives and revives it, and reads its events, each change checked on the server; a Viewer sees
 * it read-only; an Editor's edit in an environment guarded by change requests becomes a change of their draft.
 */
let ui: UiHarness;
const PASSWORD = 'Flag-Page-Test-9!';

interface StrategyRow { id: string; title: string | null; disabled: boolean; sortOrder: number }
interface FeatureState {
  feature: {
    description: string | null; stale: boolean; impressionData: boolean; archived: boolean;
    tags: Array<{ type: string; value: string }>;
    environments: Array<{ name: string; enabled: boolean; strategies: StrategyRow[] }>;
  };
}

const readFlag = async (name: string) => (await ui.admin<FeatureState>(`query ($name: String!) { feature(name: $name) {
  description stale impressionData archived tags { type value }
  environments { name enabled strategies { id title disabled sortOrder } } } }`, { name })).feature;
const env = async (name: string, environment: string) => (await readFlag(name)).environments.find((e) => e.name === environment)!;


async function createFlag(name: string) {
  await ui.admin(`mutation ($name: String!) { createFeature(input: {project: "default", name: $name, description: "first words"}) { name } }`, { name });
  for (const [title, rollout] of [['First rollout', '50'], ['Second rollout', '20']] as const) {
    await ui.admin(`mutation ($input: AddFeatureStrategyInput!) { addFeatureStrategy(input: $input) { id } }`, {
      input: {
        project: 'default', feature: name, environment: 'development', name: 'flexibleRollout', title,
        parameters: { rollout, stickiness: 'userId', groupId: name },
        constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice', 'bob'], inverted: title === 'Second rollout', caseInsensitive: true }],
        variants: title === 'First rollout' ? [] : [{ name: 'wide', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"w":2}' } }],
      },
    });
  }
  await ui.admin(`mutation ($input: SetFeatureVariantsInput!) { setFeatureVariants(input: $input) { name } }`, {
    input: {
      project: 'default', feature: name, environments: ['development'],
      variants: [
        { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'b' } },
        { name: 'green', weight: 500, weightType: 'variable', stickiness: 'default' },
      ],
    },
  });
}

async function createUser(username: string, rootRole: string) {
  await ui.admin(`mutation ($input: CreateUserInput!) { createUser(input: $input) { id } }`, { input: { username, rootRole, password: PASSWORD, email: `${username}@example.com` } });
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });

browserSuite()('the web UI: a flag page', () => {
  beforeAll(async () => {
    ui = await startUi();
    await createFlag('checkout-v2');
    await createUser('vera', 'Viewer');
    await createUser('eddie', 'Editor');
  }, 120_000);
  jest.setTimeout(60_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('lets an admin switch, edit, tag, reorder, disable and delete strategies, and shows the events', async () => {
    const { page } = ui;
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/projects$/);
    await page.goto('/projects/default/features/checkout-v2');
    await heading(page, 'checkout-v2').waitFor();
    const dev = page.getByRole('region', { name: 'development' });
    await dev.getByText('50% of userId, group id checkout-v2').waitFor();
    expect(await dev.getByRole('listitem', { name: 'userId not is one of alice, bob (case-insensitive)' }).count()).toBe(1);
    const variants = await dev.getByRole('table', { name: 'Variants in development' }).locator('tbody tr').allInnerTexts();
    expect(variants.map((r) => r.split('\t').map((c) => c.trim()))).toEqual([['blue', '50%', 'string', 'default'], ['green', '50%', '—', 'default']]);
    await dev.getByText('wide · 100% · json').waitFor();

    // The environment switch.
    await page.getByRole('switch', { name: 'Enabled in development' }).click();
    await eventually(() => env('checkout-v2', 'development'), (e) => e.enabled, 'enabled in development');
    await page.getByRole('switch', { name: 'Enabled in development', checked: true }).waitFor();

    // Description, stale, impression data.
    await page.getByLabel('Description').fill('Checkout, second take');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('switch', { name: 'Stale' }).click();
    await eventually(() => readFlag('checkout-v2'), (f) => f.description === 'Checkout, second take' && f.stale, 'description and stale');
    await page.getByRole('switch', { name: 'Impression data' }).click();
    await eventually(() => readFlag('checkout-v2'), (f) => f.impressionData, 'impression data');

    // A tag added, then removed.
    await page.getByRole('textbox', { name: 'Tag value' }).fill('team-payments');
    await page.getByRole('button', { name: 'Add tag' }).click();
    const remove = page.getByRole('button', { name: 'Remove tag simple:team-payments' });
    await remove.waitFor();
    expect((await readFlag('checkout-v2')).tags).toEqual([{ type: 'simple', value: 'team-payments' }]);
    await remove.click();
    await remove.waitFor({ state: 'detached' });
    expect((await readFlag('checkout-v2')).tags).toEqual([]);

    // The second strategy moved up (with the keyboard), then disabled; the first deleted.
    await page.getByRole('button', { name: 'Move Second rollout up' }).focus();
    await page.keyboard.press('Enter');
    const order = await eventually(() => env('checkout-v2', 'development'), (e) => e.strategies[0]?.title === 'Second rollout', 'second strategy first');
    expect(order.strategies.map((s) => s.title)).toEqual(['Second rollout', 'First rollout']);
    await page.getByRole('button', { name: 'Move Second rollout up' }).and(page.locator('[disabled]')).waitFor();
    // The keyboard user keeps their place: at the top, focus is on the other move button.
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Move Second rollout down');

    await page.getByRole('button', { name: 'Disable Second rollout' }).click();
    await page.getByRole('button', { name: 'Enable Second rollout' }).waitFor();
    expect((await env('checkout-v2', 'development')).strategies.find((s) => s.title === 'Second rollout')!.disabled).toBe(true);

    await page.getByRole('button', { name: 'Delete First rollout' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete strategy' });
    await dialog.getByRole('button', { name: 'Delete strategy' }).click();
    await dialog.waitFor({ state: 'detached' });
    await eventually(() => env('checkout-v2', 'development'), (e) => e.strategies.length === 1, 'one strategy left');

    // "Add strategy" opens the strategy form's dialog (the form itself is tested with the strategy editor).
    await dev.getByRole('button', { name: 'Add strategy' }).click();
    await page.getByRole('dialog', { name: 'Add strategy' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Add strategy' }).waitFor({ state: 'detached' });

    await dev.getByRole('button', { name: 'Edit variants' }).click();
    await page.getByRole('dialog', { name: 'Edit variants' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Edit variants' }).waitFor({ state: 'detached' });

    // The flag's own events, newest first, as the service names them.
    const events = page.getByRole('table', { name: 'Events of the flag' });
    await events.getByText('strategy-order-changed').waitFor();
    const types = await events.locator('tbody tr td:nth-child(2)').allInnerTexts();
    // Newest first: the removal after the reordering after the switch (deleting the last active strategy also
    // switched the environment off, as the service does).
    const at = (type: string) => types.indexOf(type);
    expect(types[0]).toBe('feature-environment-disabled');
    expect(at('feature-strategy-remove')).toBeGreaterThan(-1);
    expect(at('feature-strategy-remove')).toBeLessThan(at('strategy-order-changed'));
    expect(at('strategy-order-changed')).toBeLessThan(at('feature-tagged'));
    expect(at('feature-tagged')).toBeLessThan(at('feature-environment-enabled'));

    await ui.shot('flag');
    await expectAccessible(page);
  });

  it('adds and removes a dependency, lists children, and pages through the events', async () => {
    const { page } = ui;
    await ui.admin(`mutation { createFeature(input: {project: "default", name: "checkout-parent"}) { name } }`);
    for (let i = 0; i < 12; i++) {
      for (const enabled of [true, false]) {
        await ui.admin(`mutation ($enabled: Boolean!) { setFeatureEnvironmentEnabled(input: {project: "default", feature: "checkout-parent", environment: "production", enabled: $enabled}) { enabled } }`, { enabled });
      }
    }
    await page.goto('/projects/default/features/checkout-v2');
    await heading(page, 'checkout-v2').waitFor();
    await page.getByRole('button', { name: 'Add dependency' }).click();
    await page.getByRole('textbox', { name: 'Parent flag' }).click();
    await page.getByRole('option', { name: 'checkout-parent' }).click();
    await page.getByRole('button', { name: 'Save dependency' }).click();
    const removeDependency = page.getByRole('button', { name: 'Remove dependency on checkout-parent' });
    await removeDependency.waitFor();
    const deps = async () => (await ui.admin<{ feature: { dependencies: Array<{ feature: string; enabled: boolean }> } }>(
      `{ feature(name: "checkout-v2") { dependencies { feature enabled } } }`)).feature.dependencies;
    expect(await deps()).toEqual([{ feature: 'checkout-parent', enabled: true }]);

    await page.getByRole('link', { name: 'checkout-parent' }).click();
    await heading(page, 'checkout-parent').waitFor();
    await page.getByRole('link', { name: 'checkout-v2' }).waitFor();
    const rows = page.getByRole('table', { name: 'Events of the flag' }).locator('tbody tr');
    // 24 switches and the creation (the first switch on also added the default strategy): more than a page of 20.
    const counter = page.getByText(/^20 of \d+$/);
    await counter.waitFor();
    const total = Number(/of (\d+)/.exec(await counter.innerText())![1]);
    expect(total).toBeGreaterThan(25);
    expect(await rows.count()).toBe(20);
    await page.getByRole('button', { name: 'Show more' }).click();
    await page.getByText(`${total} of ${total}`).waitFor();
    expect(await rows.count()).toBe(total);
    expect(await page.getByRole('button', { name: 'Show more' }).count()).toBe(0);

    await page.goBack();
    await heading(page, 'checkout-v2').waitFor();
    await removeDependency.click();
    await removeDependency.waitFor({ state: 'detached' });
    expect(await deps()).toEqual([]);
  });

  it('clones the flag, then archives and revives it', async () => {
    const { page } = ui;
    await page.goto('/projects/default/features/checkout-v2');
    await heading(page, 'checkout-v2').waitFor();
    await page.getByRole('button', { name: 'Clone', exact: true }).click();
    const cloneDialog = page.getByRole('dialog', { name: 'Clone checkout-v2' });
    await cloneDialog.getByRole('textbox', { name: 'New name' }).fill('checkout-v3');
    await cloneDialog.getByRole('button', { name: 'Clone flag' }).click();
    await page.waitForURL(/\/projects\/default\/features\/checkout-v3$/);
    await heading(page, 'checkout-v3').waitFor();
    expect((await env('checkout-v3', 'development')).strategies.map((s) => s.title)).toEqual(['Second rollout']);

    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await page.getByRole('dialog', { name: 'Archive checkout-v3' }).getByRole('button', { name: 'Archive flag' }).click();
    const revive = page.getByRole('button', { name: 'Revive' });
    await revive.waitFor();
    expect((await readFlag('checkout-v3')).archived).toBe(true);
    // Archived: read-only.
    expect(await page.getByRole('switch', { name: 'Enabled in development' }).count()).toBe(0);
    await ui.shot('flag-archived');
    await expectAccessible(page);
    await revive.click();
    await page.getByRole('button', { name: 'Archive', exact: true }).waitFor();
    expect((await readFlag('checkout-v3')).archived).toBe(false);
  });

  it('shows a Viewer the same flag with no edit controls', async () => {
    const context = await ui.newContext();
    const page = await context.newPage();
    await signIn(page, 'vera', PASSWORD);
    await page.waitForURL(/\/projects$/);
    await page.goto('/projects/default/features/checkout-v2');
    await heading(page, 'checkout-v2').waitFor();
    const on = (await env('checkout-v2', 'development')).enabled;
    // Exact: the exposure section's changes table may say "Switched off in development" too.
    await page.getByText(on ? 'On in development' : 'Off in development', { exact: true }).waitFor();
    await page.getByText('20% of userId, group id checkout-v2').waitFor();
    await page.getByRole('table', { name: 'Events of the flag' }).waitFor();
    // The exposure chart's range and filters choose what is shown (reading): every other control would edit.
    const exposure = page.getByRole('region', { name: 'Exposure' });
    await exposure.getByRole('textbox', { name: 'Application' }).waitFor();
    for (const role of ['switch', 'textbox', 'combobox'] as const) expect([role, await page.getByRole(role).count() - await exposure.getByRole(role).count()]).toEqual([role, 0]);
    const buttons = await page.getByRole('main').getByRole('button').allInnerTexts();
    // Only reading is left (paging through the events).
    expect(buttons.filter((b) => b !== 'Show more')).toEqual([]);
    await ui.shot('flag-viewer', page);
    await expectAccessible(page);
    await context.close();
  });

  it('makes an Editor\'s switch in a guarded environment a change of their draft', async () => {
    await ui.admin(`mutation { updateChangeRequestConfig(input: {project: "default", environment: "production", changeRequestsEnabled: true, requiredApprovals: 1}) { environment } }`);
    const context = await ui.newContext();
    const page = await context.newPage();
    await signIn(page, 'eddie', PASSWORD);
    await page.waitForURL(/\/projects$/);
    await page.goto('/projects/default/features/checkout-v2');
    await heading(page, 'checkout-v2').waitFor();
    const prod = page.getByRole('region', { name: 'production' });
    await prod.getByText('Change requests guard production').waitFor();
    await prod.getByRole('switch', { name: 'Enabled in production' }).click();
    await prod.getByRole('link', { name: /^Draft #\d+: 1 change$/ }).waitFor();
    expect((await env('checkout-v2', 'production')).enabled).toBe(false);
    const drafts = await ui.admin<{ changeRequests: Array<{ createdBy: { username: string }; features: Array<{ changes: Array<{ action: string }> }> }> }>(
      '{ changeRequests(project: "default", state: "Draft") { createdBy { username } features { changes { action } } } }');
    expect(drafts.changeRequests.map((r) => [r.createdBy.username, r.features[0].changes.map((c) => c.action)])).toEqual([['eddie', ['updateEnabled']]]);
    await page.getByRole('switch', { name: 'Enabled in production', checked: false }).waitFor();
    // The unguarded environment still takes the Editor's edits.
    const wasOn = (await env('checkout-v2', 'development')).enabled;
    await page.getByRole('switch', { name: 'Enabled in development' }).click();
    await eventually(() => env('checkout-v2', 'development'), (e) => e.enabled !== wasOn, 'development switched');
    await ui.shot('flag-change-request-drafted', page);
    await expectAccessible(page);
    expect(ui.seen.elsewhere).toEqual([]);
    expect(ui.seen.consoleErrors).toEqual([]);
    await context.close();
  });
});
