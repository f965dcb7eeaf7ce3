import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { ADMIN_PASSWORD, browserSuite, expectAccessible, pick, signIn, startUi, type UiHarness } from '../../support/ui-browser';

/**
 * The definitions pages in Chromium (issue 29, item 5): environments, context fields, segments, strategy types and tag
 * types, each created (and changed) through the UI and checked on the server.
 */
let ui: UiHarness;

/** Opens a definitions page and waits for its heading and a row it must list. */
async function open(page: Page, path: string, heading: string, row: string): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await page.getByRole('table').getByText(row, { exact: true }).first().waitFor();
}

/** Reads the server until what it answers equals `expected` (the UI sends its mutation asynchronously); then asserts it. */
async function serverReaches<T>(read: () => Promise<T>, expected: T): Promise<void> {
  const until = Date.now() + 10_000;
  let value = await read();
  while (JSON.stringify(value) !== JSON.stringify(expected) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  expect(value).toEqual(expected);
}

const dialogNamed = (page: Page, name: string): Locator => page.getByRole('dialog', { name });

browserSuite()('the web UI: definitions', () => {
  beforeAll(async () => {
    ui = await startUi();
    await signIn(ui.page, 'admin', ADMIN_PASSWORD);
    await ui.page.waitForURL(/\/projects$/);
  }, 120_000);
  jest.setTimeout(60_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('creates an environment, switches it off and moves it up', async () => {
    const { page } = ui;
    await open(page, '/admin/environments', 'Environments', 'development');
    await page.getByRole('button', { name: 'New environment' }).click();
    const dialog = dialogNamed(page, 'New environment');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('staging');
    await dialog.getByRole('textbox', { name: 'Type', exact: true }).fill('preproduction');
    await ui.shot('environment-new');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Create environment' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const toggle = page.getByRole('switch', { name: 'staging enabled' });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click();
    const env = async () => (await ui.admin<{ environment: { type: string; enabled: boolean } }>('{ environment(name: "staging") { type enabled } }')).environment;
    await serverReaches(env, { type: 'preproduction', enabled: false });
    await page.getByRole('switch', { name: 'staging enabled', checked: false }).waitFor();

    // Last in the list: one step up puts it before the one that preceded it.
    const names = async () => (await ui.admin<{ environments: Array<{ name: string }> }>('{ environments { name } }')).environments.map((e) => e.name);
    const before = await names();
    expect(before.at(-1)).toBe('staging');
    await page.getByRole('button', { name: 'Move staging up' }).click();
    const expected = [...before.slice(0, -2), 'staging', before.at(-2)!];
    await serverReaches(names, expected);
    await page.getByText('Order saved.').waitFor();
    await ui.shot('environments');
    await expectAccessible(page);
  });

  it('creates a context field with two legal values', async () => {
    const { page } = ui;
    await open(page, '/admin/context-fields', 'Context fields', 'userId');
    await ui.shot('context-fields');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'New context field' }).click();
    const dialog = dialogNamed(page, 'New context field');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('region');
    await dialog.getByLabel('Description', { exact: true }).fill('Where the customer lives');
    await dialog.getByRole('button', { name: 'Add legal value' }).click();
    await dialog.getByRole('button', { name: 'Add legal value' }).click();
    await dialog.getByRole('textbox', { name: 'Value 1', exact: true }).fill('eu');
    await dialog.getByRole('textbox', { name: 'Description of value 1' }).fill('Europe');
    await dialog.getByRole('textbox', { name: 'Value 2', exact: true }).fill('eu');
    // A repeated value is caught before sending; the second becomes "us".
    await dialog.getByRole('button', { name: 'Create context field' }).click();
    await dialog.getByText('"eu" is already in the list.').waitFor();
    await dialog.getByRole('textbox', { name: 'Value 2', exact: true }).fill('us');
    await ui.shot('context-field-new');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Create context field' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'region Where the customer lives' }).waitFor();
    const { contextField } = await ui.admin<{ contextField: unknown }>('{ contextField(name: "region") { description legalValues { value description } } }');
    expect(contextField).toEqual({ description: 'Where the customer lives', legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us', description: null }] });
  });

  it('creates a segment with a constraint on that field, shows where it is used, and shows the refusal to delete it', async () => {
    const { page } = ui;
    await page.goto('/admin/segments');
    await page.getByRole('heading', { level: 1, name: 'Segments' }).waitFor();
    await page.getByRole('button', { name: 'New segment' }).click();
    const dialog = dialogNamed(page, 'New segment');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('EU customers');
    await dialog.getByRole('button', { name: 'Add constraint' }).click();
    await pick(page, 'Context field', /^region/, dialog);
    await pick(page, 'Values', /^eu/, dialog);
    await page.keyboard.press('Escape');
    await ui.shot('segment-new');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Create segment' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'EU customers', exact: true }).waitFor();
    const { segments } = await ui.admin<{ segments: Array<{ id: number; name: string; project: string | null; constraints: unknown[] }> }>(
      '{ segments { id name project constraints { contextName operator values inverted } } }');
    expect(segments).toEqual([{ id: expect.any(Number), name: 'EU customers', project: null, constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'], inverted: false }] }]);

    // A flag's strategy uses it: the list says so, opens the flag, and a delete is refused in the service's words.
    await ui.admin('mutation { createFeature(input: { project: "default", name: "eu-banner" }) { name } }');
    await ui.admin('mutation($input: AddFeatureStrategyInput!) { addFeatureStrategy(input: $input) { id } }',
      { input: { project: 'default', feature: 'eu-banner', environment: 'development', name: 'default', segments: [segments[0].id] } });
    await page.reload();
    await page.getByText('1 flag in 1 project').waitFor();
    await page.getByRole('button', { name: 'Show flags using EU customers' }).click();
    await page.getByRole('link', { name: 'eu-banner' }).waitFor();
    await ui.shot('segments');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Delete EU customers' }).click();
    const confirm = dialogNamed(page, 'Delete segment EU customers?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    const refusal = confirm.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.innerText()).toMatch(/InvalidOperationError[\s\S]*used by 1 strategy/);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await ui.admin<{ segments: unknown[] }>('{ segments { id } }')).segments).toHaveLength(1);
  });

  it('creates a custom strategy type with a parameter, deprecates and reactivates it', async () => {
    const { page } = ui;
    await open(page, '/admin/strategies', 'Strategy types', 'Built in');
    await page.getByRole('button', { name: 'New strategy type' }).click();
    const dialog = dialogNamed(page, 'New strategy type');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('by-tenant');
    await dialog.getByLabel('Description', { exact: true }).fill('On for the listed tenants');
    await dialog.getByRole('button', { name: 'Add parameter' }).click();
    await dialog.getByRole('textbox', { name: 'Parameter name' }).fill('tenants');
    await pick(page, 'Parameter type', 'List (comma-separated)', dialog);
    await dialog.getByRole('checkbox', { name: /Required/ }).check();
    await ui.shot('strategy-new');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Create strategy type' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const strategy = async () => (await ui.admin<{ strategy: { deprecated: boolean; parameters: unknown[] } }>(
      '{ strategy(name: "by-tenant") { deprecated description parameters { name type required } } }')).strategy;
    expect(await strategy()).toEqual({ deprecated: false, description: 'On for the listed tenants', parameters: [{ name: 'tenants', type: 'list', required: true }] });

    await page.getByRole('button', { name: 'Deprecate by-tenant' }).click();
    await page.getByRole('button', { name: 'Reactivate by-tenant' }).waitFor();
    expect((await strategy()).deprecated).toBe(true);
    await ui.shot('strategies');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Reactivate by-tenant' }).click();
    await page.getByRole('button', { name: 'Deprecate by-tenant' }).waitFor();
    expect((await strategy()).deprecated).toBe(false);
    // The default strategy cannot be deprecated, so it is not offered; built-in types are not editable.
    expect(await page.getByRole('button', { name: 'Deprecate default', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Edit flexibleRollout' }).count()).toBe(0);
  });

  it('creates a tag type and deletes it', async () => {
    const { page } = ui;
    await open(page, '/admin/tag-types', 'Tag types', 'simple');
    await page.getByRole('button', { name: 'New tag type' }).click();
    const dialog = dialogNamed(page, 'New tag type');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('team');
    await dialog.getByLabel('Description', { exact: true }).fill('The team that owns the flag');
    await dialog.getByRole('button', { name: 'Create tag type' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'team', exact: true }).waitFor();
    const tagTypes = async () => (await ui.admin<{ tagTypes: Array<{ name: string; description: string | null }> }>('{ tagTypes { name description } }')).tagTypes;
    expect(await tagTypes()).toContainEqual({ name: 'team', description: 'The team that owns the flag' });
    await ui.shot('tag-types');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Delete team' }).click();
    const confirm = dialogNamed(page, 'Delete tag type team?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'team', exact: true }).waitFor({ state: 'detached' });
    expect((await tagTypes()).map((t) => t.name)).not.toContain('team');
  });

  it('shows a Viewer the definitions without the controls to change them', async () => {
    await ui.admin('mutation($input: CreateUserInput!) { createUser(input: $input) { id } }', { input: { username: 'viewer-vic', password: 'Flagdeck-Ui-Person-7!', rootRole: '3' } });
    const context = await ui.newContext();
    const page = await context.newPage();
    await signIn(page, 'viewer-vic', 'Flagdeck-Ui-Person-7!');
    await page.waitForURL(/\/projects$/);
    await open(page, '/admin/segments', 'Segments', 'EU customers');
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('button', { name: 'New segment' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Edit EU customers' }).count()).toBe(0);
    await open(page, '/admin/environments', 'Environments', 'staging');
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('button', { name: /^Move / }).count()).toBe(0);
    expect(await page.getByRole('switch', { name: 'staging enabled' }).isDisabled()).toBe(true);
    await context.close();
    expect(ui.seen.elsewhere).toEqual([]);
    expect(ui.seen.consoleErrors).toEqual([]);
  });
});
