import type { Page } from 'playwright-core';

export interface ClientTokenOptions {
  name: string;
  environment: string;
  /** Project ids; absent or empty for every project. */
  projects?: string[];
  /** Leave the dialog open on the secret (for a screenshot); by default it is closed with "Done". */
  keepOpen?: boolean;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Creates a client API token through `/admin/api-tokens` as a person would ("New API token", Name, Client type,
 * projects, environment, "Create") and returns the secret read from the "Secret" field shown once. The page must be
 * signed in as someone who may create client tokens.
 */
export async function createClientToken(page: Page, { name, environment, projects = [], keepOpen = false }: ClientTokenOptions): Promise<string> {
  await page.goto('/admin/api-tokens');
  await page.getByRole('heading', { level: 1, name: 'API tokens' }).waitFor();
  await page.getByRole('button', { name: 'New API token' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API token' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await dialog.getByRole('radio', { name: /^Client/ }).check();
  for (const project of projects) {
    await dialog.getByRole('textbox', { name: 'Projects', exact: true }).click();
    // An option reads "Name (id)", or the id alone when the name is the id.
    await page.getByRole('option', { name: new RegExp(`(^|\\()${escapeRegExp(project)}\\)?$`) }).click();
  }
  // A click elsewhere in the dialog closes the projects list (Escape could close the dialog itself).
  if (projects.length > 0) await dialog.getByRole('textbox', { name: 'Name', exact: true }).click();
  await dialog.getByRole('textbox', { name: 'Environment', exact: true }).click();
  await page.getByRole('option', { name: environment, exact: true }).click();
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  const secretField = dialog.getByRole('textbox', { name: 'Secret', exact: true });
  await secretField.waitFor();
  const secret = await secretField.inputValue();
  if (!keepOpen) {
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }
  return secret;
}
