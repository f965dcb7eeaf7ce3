import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import type { Locator } from 'playwright-core';
import { ADMIN_PASSWORD, browserSuite, expectAccessible, signIn, startUi, type UiHarness } from '../../support/ui-browser';

/**
 * The strategy form, the constraint editor and the variants editor of a flag's page, in Chromium: a gradual rollout
 * with constraints saved as typed, client-side checks that stop a bad save, a refusal of the service shown on the field
 * it names, and flag variants whose weights always add up to 100%.
 */
let ui: UiHarness;
const FLAG = 'checkout-v2';

interface StoredStrategy {
  name: string;
  title: string | null;
  disabled: boolean;
  parameters: Record<string, string>;
  constraints: Array<{ contextName: string; operator: string; values: string[]; value: string | null; caseInsensitive: boolean; inverted: boolean }>;
  variants: unknown[];
}
interface StoredVariant { name: string; weight: number; weightType: string; stickiness: string; payload: { type: string; value: string } | null }

const readFlag = async () => {
  const data = await ui.admin<{ feature: { environments: Array<{ environment: string; strategies: StoredStrategy[]; variants: StoredVariant[] }> } }>(
    `query($name: String!) { feature(name: $name) { environments { environment
      strategies { name title disabled parameters variants { name } constraints { contextName operator values value caseInsensitive inverted } }
      variants { name weight weightType stickiness payload { type value } } } } }`, { name: FLAG });
  return data.feature.environments.find((e) => e.environment === 'development')!;
};

/** A text field (inputs of Select, MultiSelect and TagsInput included) by its label. */
const field = (scope: Locator, name: string) => scope.getByRole('textbox', { name, exact: true });

/** Chooses an option of a Mantine Select (or MultiSelect) by its visible text. */
async function choose(select: Locator, option: string | RegExp) {
  await select.click();
  await ui.page.getByRole('option', { name: option }).first().click();
}

/** A screenshot tall enough for the whole dialog (a modal scrolls within the viewport). */
async function tallShot(name: string) {
  await ui.page.setViewportSize({ width: 1400, height: 1900 });
  await ui.shot(name);
  await ui.page.setViewportSize({ width: 1400, height: 900 });
}

browserSuite()('the web UI: strategy form, constraint editor and variants editor', () => {
  beforeAll(async () => {
    ui = await startUi();
    await ui.admin(`mutation { createFeature(input: {project: "default", name: "${FLAG}", type: "release"}) { name } }`);
    // A stickiness-enabled field with legal values, to see both offered.
    await ui.admin(`mutation { createContextField(input: {name: "tenant", stickiness: true, legalValues: [{value: "acme", description: "Acme Inc."}, {value: "globex"}]}) { name } }`);
  }, 180_000);
  jest.setTimeout(90_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('adds a gradual rollout at 40% with a userId IN constraint and a DATE_AFTER constraint, as typed', async () => {
    const { page } = ui;
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/projects$/);
    await page.goto(`/projects/default/features/${FLAG}`);
    await page.getByRole('heading', { level: 1, name: FLAG }).waitFor();
    await page.getByRole('region', { name: 'development' }).getByRole('button', { name: 'Add strategy' }).click();
    const dialog = page.getByRole('dialog');
    await field(dialog, 'Strategy type').waitFor();
    expect(await field(dialog, 'Strategy type').inputValue()).toBe('Gradual rollout');
    // Deprecated types are not offered for a new strategy.
    await field(dialog, 'Strategy type').click();
    const types = await page.getByRole('option').allInnerTexts();
    expect(types).toEqual(expect.arrayContaining(['Gradual rollout', 'Standard', 'IPs', 'Hosts']));
    expect(types.join()).not.toMatch(/UserIDs|gradualRollout|deprecated/);
    await page.getByRole('option', { name: 'Gradual rollout' }).click();

    await field(dialog, 'Rollout percentage').fill('40');
    expect(await dialog.getByRole('slider', { name: 'Rollout' }).getAttribute('aria-valuenow')).toBe('40');
    expect(await field(dialog, 'Group id').inputValue()).toBe(FLAG);
    await field(dialog, 'Stickiness').click();
    expect(await page.getByRole('option').allInnerTexts()).toEqual(['default', 'userId', 'sessionId', 'random', 'tenant']);
    await page.getByRole('option', { name: 'userId' }).click();

    await dialog.getByRole('button', { name: 'Add constraint' }).click();
    const first = dialog.getByRole('group', { name: 'Constraint 1' });
    expect(await field(first, 'Context field').inputValue()).toBe('userId');
    const values = field(first, 'Values');
    await values.fill('u1');
    await values.press('Enter');
    await values.fill('u2');
    await values.press('Enter');

    await dialog.getByRole('button', { name: 'Add constraint' }).click();
    const second = dialog.getByRole('group', { name: 'Constraint 2' });
    await choose(field(second, 'Context field'), 'currentTime');
    await choose(field(second, 'Operator'), /DATE_AFTER/);
    await second.getByRole('button', { name: 'Date and time', exact: true }).click();
    await page.getByRole('button', { name: 'Next month' }).click();
    const next = new Date();
    const day = new Date(next.getFullYear(), next.getMonth() + 1, 15);
    const dayLabel = `15 ${day.toLocaleString('en-GB', { month: 'long' })} ${day.getFullYear()}`;
    await page.getByRole('button', { name: dayLabel }).click();
    await page.getByRole('button', { name: 'Set date and time' }).click();
    expect(await second.getByRole('button', { name: 'Date and time', exact: true }).innerText()).toMatch(/^\d{4}-\d{2}-15 00:00$/);

    // A tenant constraint shows the field's legal values to choose from.
    await dialog.getByRole('button', { name: 'Add constraint' }).click();
    const third = dialog.getByRole('group', { name: 'Constraint 3' });
    await choose(field(third, 'Context field'), 'tenant');
    await field(third, 'Values').click();
    expect(await page.getByRole('option').allInnerTexts()).toEqual([expect.stringMatching(/^acme\s+Acme Inc\.$/), 'globex']);
    await page.getByRole('option', { name: 'globex' }).click();
    await dialog.getByRole('heading', { name: 'Constraints' }).click();
    await tallShot('constraint-editor');
    await expectAccessible(page);

    // A semver that is not one is caught on the field and stops the save.
    await choose(field(third, 'Operator'), /SEMVER_EQ/);
    await field(third, 'Version').fill('v1.2');
    await third.getByText('"v1.2" is not a semantic version', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Some fields need attention').waitFor();
    expect((await readFlag()).strategies).toEqual([]);
    await dialog.getByRole('button', { name: 'Remove constraint 3' }).click();

    // The service refuses what it knows better (a legal value list set meanwhile): its words, on the field they name.
    await ui.admin(`mutation { addLegalValue(input: {contextField: "userId", value: "u9"}) { name } }`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const refusal = dialog.getByRole('alert').filter({ hasText: 'Refused' });
    await refusal.waitFor();
    expect(await refusal.innerText()).toMatch(/not specified as a legal value.*"u1", "u2"/s);
    await first.getByText('not specified as a legal value', { exact: false }).waitFor();
    await tallShot('strategy-form-refused');
    await ui.admin(`mutation { removeLegalValue(input: {contextField: "userId", value: "u9"}) { name } }`);

    await tallShot('strategy-form');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const [strategy] = (await readFlag()).strategies;
    expect(strategy).toEqual({
      name: 'flexibleRollout', title: null, disabled: false, variants: [],
      parameters: { rollout: '40', stickiness: 'userId', groupId: FLAG },
      constraints: [
        { contextName: 'userId', operator: 'IN', values: ['u1', 'u2'], value: null, caseInsensitive: false, inverted: false },
        { contextName: 'currentTime', operator: 'DATE_AFTER', values: [], value: day.toISOString(), caseInsensitive: false, inverted: false },
      ],
    });
    expect(ui.seen.consoleErrors).toEqual([]);
  });

  it('edits flag variants whose weights always add up to 100%, and checks a JSON payload before sending', async () => {
    const { page } = ui;
    await page.getByRole('region', { name: 'development' }).getByRole('button', { name: 'Edit variants in development' }).click();
    const dialog = page.getByRole('dialog');
    for (let i = 0; i < 3; i++) await dialog.getByRole('button', { name: 'Add variant' }).click();
    const names = ['blue', 'green', 'red'];
    for (const [i, name] of names.entries()) await dialog.getByRole('group', { name: `Variant ${i + 1}` }).getByRole('textbox', { name: 'Name' }).fill(name);
    const status = dialog.getByRole('status');
    expect(await status.innerText()).toBe('Total: 100% · blue 33.4%, green 33.3%, red 33.3%');
    const red = dialog.getByRole('group', { name: 'Variant 3: red' });
    await red.getByText('Fixed').click();
    await field(red, 'Weight').fill('20');
    expect(await status.innerText()).toBe('Total: 100% · blue 40%, green 40%, red 20%');

    const blue = dialog.getByRole('group', { name: 'Variant 1: blue' });
    await choose(field(blue, 'Payload type'), 'JSON');
    await field(blue, 'Payload value').fill('{"color": ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await blue.getByText('Not valid JSON', { exact: false }).waitFor();
    expect((await readFlag()).variants).toEqual([]);

    await field(blue, 'Payload value').fill('{"color": "#00f"}');
    await expectAccessible(page);
    await tallShot('variants-editor');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const stored = (await readFlag()).variants;
    expect(stored.map((v) => [v.name, v.weight, v.weightType])).toEqual([['blue', 400, 'variable'], ['green', 400, 'variable'], ['red', 200, 'fix']]);
    expect(stored.reduce((sum, v) => sum + v.weight, 0)).toBe(1000);
    expect(stored[0].payload).toEqual({ type: 'json', value: '{"color": "#00f"}' });
    expect(ui.seen.consoleErrors).toEqual([]);
    expect(ui.seen.elsewhere).toEqual([]);
  });
});
