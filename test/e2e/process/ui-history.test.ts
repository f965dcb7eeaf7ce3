import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { ADMIN_PASSWORD, browserSuite, eventually, expectAccessible, pick, signIn, startUi, type UiHarness } from '../../support/ui-browser';

/**
 * Issue 43 item 5 in Chromium: a flag changed three times (its description, a strategy, its switch in development) shows
 * each change in its History tab; "View as of" shows the flag as it was, read-only; "Revert to this version" lists what
 * it will change, brings the flag back, and says what it did; the playground "As of" an instant between the changes
 * evaluates the flag as it was then; the event log links each event of the flag to its version.
 */
let ui: UiHarness;
const FLAG = 'time-travel';
const FIRST = 'Before any change';
const SECOND = 'After the first change';

interface Version { version: number; createdAt: string; events: Array<{ id: number; type: string }> }
const versions = async () => (await ui.admin<{ feature: { versions: Version[] } }>(
  'query ($name: String!) { feature(name: $name) { versions { version createdAt events { id type } } } }', { name: FLAG })).feature.versions;
const readFlag = async () => (await ui.admin<{ feature: { description: string | null; environments: Array<{ name: string; enabled: boolean; strategies: unknown[] }> } }>(
  'query ($name: String!) { feature(name: $name) { description environments { name enabled strategies { id } } } }', { name: FLAG })).feature;

/** A full-page screenshot from the top (the fixed header otherwise lands mid-page). */
async function shot(name: string): Promise<void> {
  await ui.page.evaluate(() => window.scrollTo(0, 0));
  await ui.shot(name);
}

const version = (scope: Page | Locator, n: number) => scope.getByRole('article', { name: `Version ${n}`, exact: true });
/** An item of a diff list, by the path's words (the first item whose text starts with them). */
const change = (list: Locator, path: string) => list.getByRole('listitem').filter({ hasText: new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The instant between the switch going on and the revert (the flag was on for alice in development then). */
let whileOn = '';

browserSuite()('the web UI: a flag\'s history, the flag as it was, reverting, and the playground as of an instant', () => {
  beforeAll(async () => {
    ui = await startUi();
    await ui.admin('mutation ($f: CreateFeatureInput!) { createFeature(input: $f) { name } }', { f: { project: 'default', name: FLAG, description: FIRST } });
    // A little time between changes, so each version has an instant of its own and the playground can name one between.
    await pause(50);
    await ui.admin('mutation ($u: UpdateFeatureInput!) { updateFeature(input: $u) { name } }', { u: { project: 'default', feature: FLAG, description: SECOND } });
    await pause(50);
    await ui.admin('mutation ($s: AddFeatureStrategyInput!) { addFeatureStrategy(input: $s) { id } }', {
      s: {
        project: 'default', feature: FLAG, environment: 'development', name: 'flexibleRollout',
        parameters: { rollout: '100', stickiness: 'default', groupId: FLAG },
        constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }],
      },
    });
    await pause(50);
    await ui.admin('mutation ($e: SetFeatureEnvironmentEnabledInput!) { setFeatureEnvironmentEnabled(input: $e) { enabled } }',
      { e: { project: 'default', feature: FLAG, environment: 'development', enabled: true } });
    await signIn(ui.page, 'admin', ADMIN_PASSWORD);
    await ui.page.waitForURL(/\/projects$/);
  }, 180_000);
  jest.setTimeout(60_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('shows each change in the History tab: when, who, which events, and what changed', async () => {
    const { page } = ui;
    expect((await versions()).map((v) => v.version)).toEqual([4, 3, 2, 1]);
    await page.goto(`/projects/default/features/${FLAG}`);
    await page.getByRole('heading', { level: 1, name: FLAG }).waitFor();
    expect(await page.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('tab', { name: 'History' }).click();
    await page.waitForURL(/[?&]tab=history/);
    await page.getByRole('tab', { name: 'History', selected: true }).waitFor();
    const panel = page.getByRole('tabpanel', { name: 'History' });
    await version(panel, 4).waitFor();

    // Newest first, each with who made it and its events.
    expect(await panel.getByRole('article').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-labelledby')))).toEqual(
      ['version-4-heading', 'version-3-heading', 'version-2-heading', 'version-1-heading']);
    const v4 = version(page, 4);
    expect(squash(await v4.innerText())).toMatch(/Current/);
    expect(squash(await v4.innerText())).toMatch(/by admin/);
    expect(squash(await v4.getByRole('group', { name: 'Events of version 4' }).innerText())).toContain('feature-environment-enabled · development');

    // The three changes, in words.
    const description = change(version(page, 2).getByRole('list', { name: 'Changes in version 2' }), 'description');
    expect(squash(await description.innerText())).toBe(`description changed “${FIRST}” → “${SECOND}”`);
    const strategy = change(version(page, 3).getByRole('list', { name: 'Changes in version 3' }), 'development › strategy flexibleRollout');
    expect(squash(await strategy.innerText())).toBe(`development › strategy flexibleRollout added flexibleRollout: 100% of default, group id ${FLAG} · 1 constraint`);
    const enabled = change(version(page, 4).getByRole('list', { name: 'Changes in version 4' }), 'development › enabled');
    expect(squash(await enabled.innerText())).toBe('development › enabled changed off → on');
    expect(squash(await version(page, 1).innerText())).toMatch(new RegExp(`the flag created release · project default · “${FIRST}” · off everywhere`));

    // Every version but the newest can be brought back.
    expect(await v4.getByRole('button', { name: 'Revert to this version' }).count()).toBe(0);
    for (const n of [3, 2, 1]) expect(await version(page, n).getByRole('button', { name: 'Revert to this version' }).count()).toBe(1);
    await shot('history-tab');
    await expectAccessible(page);
  });

  it('shows the flag as it was at a version, read-only, and comes back to the present', async () => {
    const { page } = ui;
    await page.getByRole('button', { name: 'View as of version 2' }).click();
    const past = page.getByRole('region', { name: `${FLAG} as of version 2` });
    await past.waitFor();
    await past.getByText(SECOND, { exact: true }).waitFor();
    const text = squash(await past.innerText());
    expect(text).toContain('Past · read-only');
    expect(text).toContain('Off in development');
    expect(text).toContain('Off in production');
    expect(squash(await past.getByRole('region', { name: 'development' }).innerText())).toContain('No strategies.');
    // Nothing in it can be changed.
    expect(await past.getByRole('switch').count()).toBe(0);
    expect(await past.getByRole('textbox').count()).toBe(0);
    expect(await past.getByRole('button').allInnerTexts()).toEqual(['Back to the present']);

    // Version 3 had the strategy, still switched off.
    await page.getByRole('button', { name: 'Back to the present' }).click();
    await version(page, 4).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('View as of version 2');
    await page.getByRole('button', { name: 'View as of version 3' }).click();
    const three = page.getByRole('region', { name: `${FLAG} as of version 3` });
    await three.getByRole('article', { name: 'Strategy Gradual rollout' }).waitFor();
    expect(squash(await three.getByRole('region', { name: 'development' }).innerText())).toMatch(/Off in development.*100% of default.*userId is one of alice/);
    await shot('history-as-of');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Back to the present' }).click();
    await version(page, 4).waitFor();
  });

  it('reverts to the first version after listing what it changes, and shows the flag back as it was', async () => {
    const { page } = ui;
    await pause(50);
    whileOn = new Date().toISOString();
    await pause(50);
    await version(page, 1).getByRole('button', { name: 'Revert to this version' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revert to version 1' });
    const changes = dialog.getByRole('list', { name: 'What the revert changes' });
    await changes.waitFor();
    expect(squash(await change(changes, 'description').innerText())).toBe(`description changed “${SECOND}” → “${FIRST}”`);
    expect(squash(await change(changes, 'development › enabled').innerText())).toBe('development › enabled changed on → off');
    expect(squash(await change(changes, 'development › strategy flexibleRollout').innerText()))
      .toBe(`development › strategy flexibleRollout removed flexibleRollout: 100% of default, group id ${FLAG} · 1 constraint`);
    expect(await changes.getByRole('listitem').count()).toBe(3);
    expect(squash(await dialog.innerText())).toMatch(/under change requests gets a draft change request/);
    await shot('history-revert-dialog');
    await expectAccessible(page);

    await dialog.getByRole('button', { name: 'Revert to version 1' }).click();
    await dialog.getByRole('status').filter({ hasText: `${FLAG} is back at version 1` }).waitFor();
    const made = squash(await dialog.getByRole('list', { name: 'Changes made' }).innerText());
    expect(made).toContain('Update the details');
    expect(made).toContain('Delete a strategy in development');
    await shot('history-reverted');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'hidden' });

    // The service has the flag as it was, and so does the page: a new version, made by the revert, and the overview.
    const flag = await readFlag();
    expect(flag.description).toBe(FIRST);
    expect(flag.environments.find((e) => e.name === 'development')).toMatchObject({ enabled: false, strategies: [] });
    await version(page, 5).waitFor();
    expect(squash(await version(page, 5).innerText())).toMatch(/Current/);
    await page.getByRole('tab', { name: 'Overview' }).click();
    await eventually(() => page.getByRole('textbox', { name: 'Description' }).inputValue(), (v) => v === FIRST, 'the description back');
    expect(await page.getByRole('switch', { name: 'Enabled in development' }).isChecked()).toBe(false);
    expect(page.url()).not.toContain('tab=');
  });

  it('evaluates the flag in the playground as it was at an instant between the changes', async () => {
    const { page } = ui;
    await page.goto('/playground');
    await page.getByRole('heading', { level: 1, name: 'Playground' }).waitFor();
    await pick(page, 'Environment', 'development');
    await page.getByRole('textbox', { name: 'userId', exact: true }).fill('alice');
    const row = page.getByRole('list', { name: 'Results' }).locator(`li[data-flag="${FLAG}"]`);

    // Now (reverted): off. As of the instant while it was on: on for alice.
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await row.getByText('disabled', { exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'As of' }).fill(whileOn);
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await row.getByText('enabled', { exact: true }).waitFor();
    expect(squash(await page.getByRole('note').filter({ hasText: 'Evaluated as of an instant' }).innerText())).toContain(whileOn);
    // Before the switch went on (version 3): off.
    const v3 = (await versions()).find((v) => v.version === 3)!;
    await page.getByRole('textbox', { name: 'As of' }).fill(v3.createdAt);
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await row.getByText('disabled', { exact: true }).waitFor();
    await shot('playground-as-of');
    await expectAccessible(page);

    // The advanced form sends it too.
    await page.getByRole('textbox', { name: 'As of' }).fill(whileOn);
    await page.getByRole('switch', { name: /Advanced form/ }).check();
    // It starts with the simple form's environment (development).
    await page.getByRole('button', { name: 'Evaluate' }).click();
    const advanced = page.getByRole('table', { name: 'Advanced results' }).locator(`tr[data-flag="${FLAG}"]`);
    await advanced.first().waitFor();
    expect(squash(await advanced.first().innerText())).toMatch(/\benabled\b/);

    // Nonsense is refused before it is sent.
    await page.getByRole('textbox', { name: 'As of' }).fill('yesterday');
    expect(await page.getByRole('button', { name: 'Evaluate' }).isDisabled()).toBe(true);
    await page.getByText(/Give a date and time such as/).waitFor();
  });

  it('links each event of the flag in the event log to its version, and marks the revert\'s events', async () => {
    const { page } = ui;
    const switchedOn = (await versions()).find((v) => v.version === 4)!.events.find((e) => e.type === 'feature-environment-enabled')!;
    await page.goto(`/history?feature=${FLAG}`);
    await page.getByRole('heading', { level: 1, name: 'Event log' }).waitFor();
    const items = page.getByRole('list', { name: 'Events' }).locator(':scope > li');
    await items.filter({ hasText: 'feature-metadata-updated' }).first().waitFor();
    const reverted = items.filter({ hasText: 'feature-metadata-updated' }).first();
    expect(await reverted.innerText()).toContain('Revert of version 1');
    expect(await items.filter({ hasText: 'Revert of version 1' }).count()).toBeGreaterThanOrEqual(2);
    await expectAccessible(page);

    const link = page.getByRole('link', { name: `View change of event ${switchedOn.id} in the history of ${FLAG}` });
    expect(await link.innerText()).toBe('View change');
    await link.click();
    await page.waitForURL(new RegExp(`/projects/default/features/${FLAG}\\?tab=history#event-${switchedOn.id}$`));
    await page.getByRole('tab', { name: 'History', selected: true }).waitFor();
    await version(page, 4).locator(`#event-${switchedOn.id}`).waitFor();
    expect(await version(page, 4).evaluate((n) => getComputedStyle(n).borderTopWidth)).toBe('2px');
    expect(await version(page, 4).innerText()).toContain(`Made by event ${switchedOn.id}, linked from the event log`);
    await shot('history-from-event-log');
  });

  it('pages a long history with "Load more", and loads older pages to reach a linked event', async () => {
    const { page } = ui;
    const LONG = 'time-travel-long';
    await ui.admin('mutation ($f: CreateFeatureInput!) { createFeature(input: $f) { name } }', { f: { project: 'default', name: LONG } });
    for (let i = 1; i <= 22; i++) {
      await ui.admin('mutation ($u: UpdateFeatureInput!) { updateFeature(input: $u) { name } }', { u: { project: 'default', feature: LONG, description: `take ${i}` } });
    }
    await page.goto(`/projects/default/features/${LONG}?tab=history`);
    await version(page, 23).waitFor();
    const articles = page.getByRole('article', { name: /^Version \d+$/ });
    expect(await articles.count()).toBe(20);
    await page.getByRole('button', { name: 'Load more' }).click();
    await version(page, 1).waitFor();
    expect(await articles.count()).toBe(23);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    // A link to the event that created it (on the second page) loads that page and shows the version.
    const created = (await ui.admin<{ events: { nodes: Array<{ id: number }> } }>(
      'query ($f: EventFilter) { events(first: 1, filter: $f) { nodes { id } } }', { f: { feature: LONG, type: 'feature-created' } })).events.nodes[0];
    await page.goto(`/projects/default/features/${LONG}?tab=history#event-${created.id}`);
    await version(page, 1).getByText(`Made by event ${created.id}, linked from the event log`).waitFor();
    await expectAccessible(page);
    expect(ui.seen.consoleErrors).toEqual([]);
    expect(ui.seen.elsewhere).toEqual([]);
  });
});
