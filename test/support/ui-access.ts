import type { BrowserContext, Page } from 'playwright-core';
import { pick } from './ui-browser';

/**
 * Steps of the access-control pages (issue 29, item 2) for browser tests: inviting a user on /admin/users and
 * accepting the invitation in another browser context. Shared by ui-access.test.ts and the whole-team test.
 */

export interface Invitee {
  name: string;
  email: string;
  /** The root role's name as the form lists it (Admin, Editor, Viewer or a custom root role). */
  role: string;
}

/**
 * On /admin/users (signed in as an admin): "New user", the form filled, "Create user"; answers the invite link the
 * dialog then shows in its "Invite link" field (after `whileShown`, if given), and closes the dialog.
 */
export async function inviteUser(page: Page, who: Invitee, { whileShown }: { whileShown?: () => Promise<void> } = {}): Promise<string> {
  if (!new URL(page.url()).pathname.startsWith('/admin/users')) await page.goto('/admin/users');
  await page.getByRole('button', { name: 'New user' }).click();
  const dialog = page.getByRole('dialog', { name: 'New user' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(who.name);
  await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill(who.email);
  await pick(page, 'Root role', who.role, dialog);
  await dialog.getByRole('button', { name: 'Create user' }).click();
  const field = dialog.getByRole('textbox', { name: 'Invite link' });
  await field.waitFor();
  const link = await field.inputValue();
  // A test's look at the dialog with the link (a screenshot, an accessibility check) before it closes for good.
  await whileShown?.();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'hidden' });
  return link;
}

/**
 * Opens an invite link in `context` (a browser of its own), sets the password on the set-password page, and waits
 * until that page has signed the person in (the app's navigation shows). The link's path and query are opened at the
 * context's base: the link carries the service's configured public URL, which a test service on a random port does
 * not know.
 */
export async function acceptInvite(context: BrowserContext, link: string, password: string): Promise<Page> {
  const page = await context.newPage();
  const url = new URL(link);
  await page.goto(url.pathname + url.search);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
  return page;
}
