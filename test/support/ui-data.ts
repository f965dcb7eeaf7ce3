import type { Locator, Page } from 'playwright-core';
import { pick } from './ui-browser';

/**
 * The export → import round trip as a person does it in the web UI (issue 29, item 7): on the source project's flag
 * list, tick the flags (or every shown flag), Export from one environment and take the JSON the dialog shows; on the
 * target project's import page, paste it, choose the environment, Validate, read the per-flag diff, then Import.
 * The caller checks the result on the server.
 */

export interface ExportImportResult {
  /** The JSON the export dialog showed (and the import page was given). */
  json: string;
  /** The flags the validation listed, with what it said would happen to each (create, update, unchanged). */
  validated: Array<{ feature: string; action: string }>;
}

/** The export dialog of a project's flag list, open, with `flags` ticked (every shown flag when none are named). */
export async function openExport(page: Page, fromProject: string, flags?: string[]): Promise<Locator> {
  await page.goto(`/projects/${encodeURIComponent(fromProject)}`);
  await page.getByRole('table', { name: 'Flags' }).waitFor();
  if (flags) {
    for (const flag of flags) await page.getByRole('checkbox', { name: `Select ${flag}`, exact: true }).check();
  } else {
    await page.getByRole('checkbox', { name: 'Select all shown' }).check();
  }
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Export flags' });
  await dialog.waitFor();
  return dialog;
}

/** In an open export dialog: exports from `env` and gives the JSON shown. */
export async function exportFrom(page: Page, dialog: Locator, env: string): Promise<string> {
  await pick(page, 'Environment', env, dialog);
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  const field = dialog.getByRole('textbox', { name: 'Export JSON' });
  await field.waitFor();
  return field.inputValue();
}

/** On the target's import page (open): pastes `json`, validates for `env`, and waits for the per-flag diff. */
export async function validateImport(page: Page, json: string, env: string): Promise<Array<{ feature: string; action: string }>> {
  await page.getByRole('textbox', { name: 'Export JSON' }).fill(json);
  await pick(page, 'Environment', env);
  await page.getByRole('button', { name: 'Validate' }).click();
  await page.getByRole('heading', { level: 2, name: 'Validation' }).waitFor();
  const cards = page.locator('section[aria-labelledby^="import-flag-"]');
  const validated: Array<{ feature: string; action: string }> = [];
  for (const card of await cards.all()) {
    const feature = (await card.getByRole('heading', { level: 3 }).innerText()).trim();
    const action = (await card.locator('.mantine-Badge-root').innerText()).trim();
    validated.push({ feature, action });
  }
  return validated;
}

export interface ExportImportOptions {
  /** The flags to tick on the source's list (default: "Select all shown"). */
  flags?: string[];
  /**
   * Runs between the export and the import. Flag names are unique across projects, so importing into another project
   * of the same instance is refused while the flags still exist in the source: remove them here (a move), or import
   * into another instance.
   */
  beforeImport?: (json: string) => Promise<void>;
}

/**
 * Exports flags of `fromProject` from `env` and imports them into `toProject`'s `env` through the validate → diff →
 * import page. Resolves once the page says it imported; throws with the page's words when validation or import refuse.
 */
export async function exportAndImport(page: Page, fromProject: string, toProject: string, env: string, options: ExportImportOptions = {}): Promise<ExportImportResult> {
  const dialog = await openExport(page, fromProject, options.flags);
  const json = await exportFrom(page, dialog, env);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await options.beforeImport?.(json);

  await page.goto(`/projects/${encodeURIComponent(toProject)}/import`);
  await page.getByRole('heading', { level: 1, name: /^Import into / }).waitFor();
  const validated = await validateImport(page, json, env);
  const importButton = page.getByRole('button', { name: 'Import', exact: true });
  // The page offers Import only for a payload the service accepts: otherwise say what it objected to.
  if (!(await importButton.count())) throw new Error(`the validation refused the import: ${await page.locator('main').innerText()}`);
  await importButton.click();
  const done = page.getByRole('link', { name: `Open project ${toProject}` });
  const refused = page.getByText(/^Refused: /);
  await done.or(refused).first().waitFor();
  if (await refused.count()) throw new Error(`the import was refused: ${await refused.first().locator('xpath=../..').innerText()}`);
  return { json, validated };
}
