import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, browserSuite, expectAccessible, pick, signIn, startUi, type UiHarness } from '../../support/ui-browser';
import { seedFlags } from '../../support/ui-seed';

/**
 * The projects page and a project's flag list in Chromium (issue 28, items 4 and 5): creating a project and a flag
 * through the UI, switching a flag on (checked on the server), search and filters, the virtualised list, what a
 * Viewer sees, and an environment guarded by change requests refusing a switch in the service's words.
 */
let ui: UiHarness;
const PASSWORD = 'Flagdeck-Ui-Person-7!';
const PROJECT = 'checkout';
const FLAG = 'checkout-banner';

/** Rows of the flag table in the DOM now (the header row and the spacer rows left out). */
const domRows = (page: Page) => page.locator('[data-testid="flag-scroll"] tbody tr:not([aria-hidden])');
const counter = (page: Page) => page.getByText(/^\d+( of \d+)? flags$/);

/** Resolves once the page has the service's answer on the switches of `n` environments (me.allowed per environment). */
function permissionsAnswered(page: Page, n = 2): Promise<void> {
  let seen = 0;
  return new Promise((resolve) => {
    const on = (r: import('playwright-core').Response) => {
      // The per-environment permission questions (me.allowed with an environment), not the project-wide one.
      const body = r.request().postData() ?? '';
      if (!r.url().endsWith('/graphql') || !body.includes('query Allowed(') || !/"environment":"/.test(body)) return;
      void r.finished().then(() => { if (++seen === n) { page.off('response', on); resolve(); } });
    };
    page.on('response', on);
  });
}

async function person(username: string, rootRole: string): Promise<number> {
  const { createUser } = await ui.admin<{ createUser: { id: number } }>('mutation($input: CreateUserInput!) { createUser(input: $input) { id } }', { input: { username, password: PASSWORD, rootRole } });
  return createUser.id;
}

browserSuite()('the web UI: projects and a project\'s flags', () => {
  beforeAll(async () => {
    ui = await startUi();
  }, 120_000);
  jest.setTimeout(90_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('creates a project and a flag through the UI, lists it, and switches it on in an environment', async () => {
    const { page } = ui;
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/projects$/);
    await page.getByRole('link', { name: 'Default' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await ui.shot('projects');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Id').fill('bad id!');
    expect(await dialog.getByText(/Only letters, digits/).count()).toBe(1);
    await dialog.getByLabel('Name').fill('Checkout');
    await dialog.getByLabel('Id').fill(PROJECT);
    await dialog.getByLabel('Description').fill('The checkout flow');
    await ui.shot('new-project');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: 'Checkout' }).click();
    await page.waitForURL(/\/projects\/checkout$/);
    await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();

    // A second project of the same id is refused in the modal, in the service's words.
    await page.goto('/projects');
    await page.getByRole('button', { name: 'New project' }).click();
    await dialog.getByLabel('Name').fill('Checkout again');
    await dialog.getByLabel('Id').fill(PROJECT);
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await dialog.getByRole('alert').waitFor();
    expect(await dialog.getByRole('alert').innerText()).toMatch(/NameExistsError|already/i);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`/projects/${PROJECT}`);
    await page.getByRole('button', { name: 'New flag' }).click();
    const flagDialog = page.getByRole('dialog', { name: 'New flag' });
    await flagDialog.getByLabel('Name').fill(FLAG);
    await pick(page, 'Type', 'Experiment', flagDialog);
    await flagDialog.getByLabel('Description').fill('Banner on the checkout page');
    await ui.shot('new-flag');
    await expectAccessible(page);
    await flagDialog.getByRole('button', { name: 'Create flag' }).click();
    await page.waitForURL(new RegExp(`/projects/${PROJECT}/features/${FLAG}$`));
    const created = await ui.admin<{ feature: { type: string; description: string } }>(`{ feature(name: "${FLAG}") { type description } }`);
    expect(created.feature).toEqual({ type: 'experiment', description: 'Banner on the checkout page' });

    await page.goto(`/projects/${PROJECT}`);
    await page.getByRole('link', { name: FLAG }).waitFor();
    const toggle = page.getByRole('switch', { name: `${FLAG} in development` });
    expect(await toggle.isChecked()).toBe(false);
    const confirmed = page.waitForResponse((r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('ProjectFlagsSetEnabled'));
    await toggle.click();
    expect((await confirmed).status()).toBe(200);
    expect(await toggle.isChecked()).toBe(true);
    const onServer = await ui.admin<{ feature: { environments: Array<{ name: string; enabled: boolean }> } }>(`{ feature(name: "${FLAG}") { environments { name enabled } } }`);
    expect(onServer.feature.environments).toEqual([{ name: 'development', enabled: true }, { name: 'production', enabled: false }]);
  });

  it('searches, filters by type, tag and state, sorts, and renders only a window of 300+ rows', async () => {
    const { page } = ui;
    await seedFlags(ui.admin, PROJECT, 320, { environments: ['development', 'production'] });
    await page.goto(`/projects/${PROJECT}`);
    await page.getByRole('link', { name: 'flag-0000' }).waitFor();
    await page.getByRole('switch', { name: 'flag-0000 in production', disabled: false }).waitFor();
    expect(await counter(page).innerText()).toBe('321 flags');
    const inDom = await domRows(page).count();
    expect(inDom).toBeGreaterThan(5);
    expect(inDom).toBeLessThan(60);
    expect(await page.getByRole('table', { name: 'Flags' }).getAttribute('aria-rowcount')).toBe('322');
    await ui.shot('project-flags');
    await expectAccessible(page);

    // Scrolling the container brings the last row into the DOM (and the first out of it).
    await page.getByTestId('flag-scroll').evaluate((el) => { el.scrollTop = el.scrollHeight; });
    await page.getByRole('link', { name: 'flag-0319' }).waitFor();
    expect(await page.getByRole('link', { name: 'flag-0000' }).count()).toBe(0);
    await page.getByTestId('flag-scroll').evaluate((el) => { el.scrollTop = 0; });

    const search = page.getByRole('textbox', { name: 'Search flags' });
    await search.fill('flag-000');
    await page.getByText('10 of 321 flags').waitFor();
    expect(await domRows(page).count()).toBe(10);
    await search.fill('');

    await pick(page, 'Type', 'Permission');
    await page.getByText('64 of 321 flags').waitFor();
    // The type is the third cell, after the selection box and the name.
    const types = await domRows(page).locator('td:nth-child(3)').allInnerTexts();
    expect(new Set(types)).toEqual(new Set(['permission']));

    await page.goto(`/projects/${PROJECT}`);
    await pick(page, 'Tag', 'simple:seeded');
    await page.getByText('32 of 321 flags').waitFor();
    await pick(page, 'State', 'Stale');
    // Stale: every 13th seeded flag; with the tag, every flag whose index is a multiple of 130.
    await page.getByText('3 of 321 flags').waitFor();
    expect(await domRows(page).locator('a').allInnerTexts()).toEqual(['flag-0000', 'flag-0130', 'flag-0260']);

    await page.goto(`/projects/${PROJECT}`);
    await pick(page, 'State', 'Enabled somewhere');
    // Seeded flag i is off in both environments never ((i + 0) % 3 and (i + 1) % 3 are not both 0), plus the banner.
    await page.getByText('321 flags').waitFor();
    await page.getByRole('button', { name: 'Sort by name' }).click();
    await page.getByRole('link', { name: 'flag-0319' }).waitFor();
    expect(await domRows(page).first().locator('a').first().innerText()).toBe('flag-0319');
    expect(await page.getByRole('columnheader', { name: /by name/ }).getAttribute('aria-sort')).toBe('descending');
  });

  it('shows a Viewer no "New project" or "New flag", and the switches disabled', async () => {
    await person('viewer-vera', '3');
    const context = await ui.newContext();
    const page = await context.newPage();
    await signIn(page, 'viewer-vera', PASSWORD);
    await page.waitForURL(/\/projects$/);
    const answered = permissionsAnswered(page);
    await page.getByRole('link', { name: 'Checkout' }).click();
    const toggle = page.getByRole('switch', { name: `${FLAG} in development` });
    await toggle.waitFor();
    await answered;
    expect(await toggle.isDisabled()).toBe(true);
    expect(await page.getByRole('switch', { name: `${FLAG} in production` }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'New flag' }).count()).toBe(0);
    await page.goto('/projects');
    await page.getByRole('link', { name: 'Checkout' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('button', { name: 'New project' }).count()).toBe(0);
    await context.close();
  });

  it('says which environments change requests guard, and makes a switch there a change of the user\'s draft', async () => {
    await ui.admin('mutation($input: UpdateChangeRequestConfigInput!) { updateChangeRequestConfig(input: $input) { changeRequestsEnabled } }',
      { input: { project: PROJECT, environment: 'production', changeRequestsEnabled: true } });
    // A project Member may switch flags, but not past change requests (an admin may): their switch goes into a draft.
    const eddie = await person('editor-eddie', '2');
    await ui.admin('mutation($input: AddProjectAccessInput!) { addProjectAccess(input: $input) { users { id } } }', { input: { project: PROJECT, roles: [5], users: [eddie] } });
    const context = await ui.newContext();
    const page = await context.newPage();
    await signIn(page, 'editor-eddie', PASSWORD);
    await page.waitForURL(/\/projects$/);
    await page.goto(`/projects/${PROJECT}`);
    await page.getByText(/Change requests guard production/).waitFor();
    const toggle = page.getByRole('switch', { name: `${FLAG} in production`, disabled: false });
    await toggle.waitFor();
    await toggle.click();
    await page.getByText(/^Added to draft #\d+$/).waitFor();
    expect(await toggle.isChecked()).toBe(false);
    await ui.shot('project-flags-drafted', page);
    const drafts = await ui.admin<{ changeRequests: Array<{ createdBy: { username: string }; features: Array<{ name: string; changes: Array<{ action: string; payload: unknown }> }> }> }>(
      `{ changeRequests(project: "${PROJECT}", state: "Draft") { createdBy { username } features { name changes { action payload } } } }`);
    expect(drafts.changeRequests).toEqual([{ createdBy: { username: 'editor-eddie' }, features: [{ name: FLAG, changes: [{ action: 'updateEnabled', payload: { enabled: true } }] }] }]);
    const onServer = await ui.admin<{ feature: { environments: Array<{ name: string; enabled: boolean }> } }>(`{ feature(name: "${FLAG}") { environments { name enabled } } }`);
    expect(onServer.feature.environments.find((e) => e.name === 'production')?.enabled).toBe(false);
    await context.close();
    expect(ui.seen.elsewhere).toEqual([]);
    expect(ui.seen.consoleErrors).toEqual([]);
  });
});
