import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { ADMIN_PASSWORD, browserSuite, signIn, startUi, type UiHarness } from '../../support/ui-browser';

/**
 * The daily loop of issue 28, walked as a new user would, through the UI only (the admin token only reads what the
 * service stored): sign in with the admin password, create a project and a flag, add a gradual rollout with a
 * constraint, switch it on, see it enabled in the playground for a matching context and disabled for another, and see
 * the events of all that appear live in the event log opened in another tab beforehand.
 */
let ui: UiHarness;
const PROJECT = 'daily-loop';
const FLAG = 'new-checkout';

const field = (scope: Locator | Page, name: string) => scope.getByRole('textbox', { name, exact: true });
async function choose(page: Page, select: Locator, option: string): Promise<void> {
  await select.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
const eventItems = (page: Page) => page.getByRole('list', { name: 'Events' }).locator(':scope > li');

browserSuite()('the web UI: the daily loop', () => {
  jest.setTimeout(120_000);
  beforeAll(async () => {
    ui = await startUi();
  }, 120_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('sign in, create a project and a flag, roll it out with a constraint, switch it on, evaluate it, and watch the log', async () => {
    const { page } = ui;
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/projects$/);

    // The event log, open in another tab from the start: what follows must appear there without a reload.
    const log = await ui.context.newPage();
    await log.goto('/history');
    await log.getByRole('heading', { level: 1, name: 'Event log' }).waitFor();
    await log.getByRole('status').filter({ hasText: /^Live$/ }).waitFor({ timeout: 15_000 });

    // A project.
    await page.getByRole('button', { name: 'New project' }).click();
    const projectDialog = page.getByRole('dialog', { name: 'New project' });
    await projectDialog.getByLabel('Name').fill('Daily loop');
    await projectDialog.getByLabel('Id').fill(PROJECT);
    await projectDialog.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('link', { name: 'Daily loop' }).click();
    await page.getByRole('heading', { level: 1, name: 'Daily loop' }).waitFor();

    // A flag: its page opens once it is created.
    await page.getByRole('button', { name: 'New flag' }).click();
    const flagDialog = page.getByRole('dialog', { name: 'New flag' });
    await flagDialog.getByLabel('Name').fill(FLAG);
    await flagDialog.getByRole('button', { name: 'Create flag' }).click();
    await page.getByRole('heading', { level: 1, name: FLAG }).waitFor();
    await ui.shot('daily-loop-new-flag');

    // A gradual rollout to half of the users, only for alice and carol.
    const development = page.getByRole('region', { name: 'development' });
    await development.getByRole('button', { name: 'Add strategy' }).click();
    const strategyDialog = page.getByRole('dialog', { name: 'Add strategy' });
    expect(await field(strategyDialog, 'Strategy type').inputValue()).toBe('Gradual rollout');
    await field(strategyDialog, 'Rollout percentage').fill('100');
    await strategyDialog.getByRole('button', { name: 'Add constraint' }).click();
    const constraint = strategyDialog.getByRole('group', { name: 'Constraint 1' });
    await choose(page, field(constraint, 'Context field'), 'userId');
    for (const user of ['alice', 'carol']) {
      await field(constraint, 'Values').fill(user);
      await field(constraint, 'Values').press('Enter');
    }
    await strategyDialog.getByRole('button', { name: 'Save' }).click();
    await strategyDialog.waitFor({ state: 'detached' });

    // On in development.
    await page.getByRole('switch', { name: 'Enabled in development' }).click();
    await ui.shot('daily-loop-flag');

    const stored = await ui.admin<{ feature: { environments: Array<{ environment: string; enabled: boolean; strategies: Array<{ name: string; parameters: Record<string, string>; constraints: Array<{ contextName: string; operator: string; values: string[] }> }> }> } }>(
      'query($n: String!) { feature(name: $n) { environments { environment enabled strategies { name parameters constraints { contextName operator values } } } } }', { n: FLAG });
    // The switch's answer may still be on its way when the admin reads: wait for it.
    let dev = stored.feature.environments.find((e) => e.environment === 'development')!;
    for (let i = 0; i < 50 && !dev.enabled; i++) {
      await new Promise((r) => setTimeout(r, 100));
      dev = (await ui.admin<typeof stored>('query($n: String!) { feature(name: $n) { environments { environment enabled strategies { name parameters constraints { contextName operator values } } } } }', { n: FLAG }))
        .feature.environments.find((e) => e.environment === 'development')!;
    }
    expect(dev.enabled).toBe(true);
    expect(dev.strategies).toEqual([{ name: 'flexibleRollout', parameters: expect.objectContaining({ rollout: '100', groupId: FLAG }), constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice', 'carol'] }] }]);

    // The playground: alice gets it, bob does not.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Playground' }).click();
    await page.getByRole('heading', { level: 1, name: 'Playground' }).waitFor();
    await choose(page, field(page, 'Environment'), 'development');
    const row = page.getByRole('list', { name: 'Results' }).locator(`li[data-flag="${FLAG}"]`);
    await field(page, 'userId').fill('alice');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await row.waitFor();
    expect(await row.innerText()).toMatch(/\benabled\b/);
    expect(await row.innerText()).not.toMatch(/\bdisabled\b/);
    await field(page, 'userId').fill('bob');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    // The row is replaced by the new answer (its text content runs words together: read what a person sees).
    for (let i = 0; i < 100 && !/\bdisabled\b/.test(await row.innerText()); i++) await page.waitForTimeout(100);
    expect(await row.innerText()).toMatch(/\bdisabled\b/);
    await ui.shot('daily-loop-playground');

    // Everything done above is in the log, which was never reloaded.
    const wanted = ['feature-environment-enabled', 'feature-strategy-add', 'feature-created', 'project-created'];
    await eventItems(log).filter({ hasText: 'feature-environment-enabled' }).filter({ hasText: FLAG }).first().waitFor({ timeout: 10_000 });
    const shown = (await eventItems(log).allInnerTexts()).join('\n');
    for (const type of wanted) expect(shown).toContain(type);
    await ui.shot('daily-loop-history', log);
    expect(ui.seen.consoleErrors).toEqual([]);
    expect(ui.seen.elsewhere).toEqual([]);
  });
});
