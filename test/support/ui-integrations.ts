import type { Page } from 'playwright-core';
import { InMemStorageProvider, Unleash, UnleashEvents } from 'unleash-client';
import { stopSdk } from './sdk-harness';
import { eventually } from './ui-browser';

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

/**
 * Starts the official Node SDK against the service with a client token (where the token page says it goes), waits
 * for its first synchronisation, hands it to `use`, and stops it. An SDK error instead of synchronising fails.
 */
export async function withSdk<T>(base: string, secret: string, appName: string, use: (sdk: Unleash) => T | Promise<T>): Promise<T> {
  const sdk = new Unleash({ url: `${base}/api`, appName, customHeaders: { Authorization: secret }, disableMetrics: true,
    refreshInterval: 500, storageProvider: new InMemStorageProvider(), skipInstanceCountWarning: true });
  const errors: unknown[] = [];
  sdk.on(UnleashEvents.Error, (e) => errors.push(e));
  try {
    let synchronized = false;
    sdk.once(UnleashEvents.Synchronized, () => { synchronized = true; });
    await eventually(() => synchronized || errors.length > 0, Boolean, 'the SDK to synchronize');
    if (errors.length > 0) throw new Error(`the SDK failed: ${errors.map(String).join('; ')}`);
    return await use(sdk);
  } finally {
    stopSdk(sdk);
  }
}
