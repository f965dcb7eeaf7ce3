import type { Locator, Page } from 'playwright-core';

/**
 * Steps of the change-request flow as a person takes them in the web UI, for the browser tests (ui-change-requests
 * and the whole-team test). Each step waits until the page shows its outcome; checking the server is the caller's.
 */

/** The project settings page: change requests on for `environment` with `approvals` approvals, saved. */
export async function enableChangeRequests(page: Page, project: string, environment: string, approvals: number): Promise<void> {
  await page.goto(`/projects/${encodeURIComponent(project)}/settings`);
  const toggle = page.getByRole('switch', { name: `Change requests in ${environment}` });
  await toggle.waitFor();
  // Under load a click can land while the page is still settling and be lost: switch it on until it holds, before and
  // after filling the approvals, then save only once the row has something to save.
  const switchOn = async () => {
    for (let tries = 0; tries < 5 && !(await toggle.isChecked()); tries += 1) {
      await toggle.click();
      await page.waitForTimeout(100);
    }
  };
  // Saved: the row is read again from the service and nothing is left to save. A CI run under load once saved it
  // switched off (a click landing as the row re-rendered): the saved row must show it on, else it is set again.
  for (let round = 0; round < 3; round += 1) {
    await switchOn();
    await page.getByRole('textbox', { name: `Approvals needed in ${environment}` }).fill(String(approvals));
    await switchOn();
    const save = page.getByRole('button', { name: `Save change requests for ${environment}`, disabled: false });
    await save.waitFor();
    await save.click();
    await page.getByRole('button', { name: `Save change requests for ${environment}`, disabled: true }).waitFor();
    if (await toggle.isChecked()) return;
  }
  throw new Error(`change requests in ${environment} would not stay switched on`);
}

/** The region of one environment on a flag page. */
export const environmentRegion = (page: Page, environment: string): Locator => page.getByRole('region', { name: environment, exact: true });

/**
 * On a flag page: the draft banner of `environment` once it counts `changes` changes; returns the draft's number.
 */
export async function draftBanner(page: Page, environment: string, changes: number): Promise<number> {
  const link = environmentRegion(page, environment).getByRole('link', { name: new RegExp(`^Draft #\\d+: ${changes} changes?$`) });
  await link.waitFor();
  return Number(/#(\d+)/.exec(await link.innerText())![1]);
}

/**
 * On a flag page: edits the strategy titled `strategy` in `environment` through its form (`edit` fills the dialog)
 * and adds the edit to the user's draft ("Add to draft").
 */
export async function proposeStrategyEdit(page: Page, environment: string, strategy: string, edit: (dialog: Locator) => Promise<void>): Promise<void> {
  await environmentRegion(page, environment).getByRole('button', { name: `Edit ${strategy}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit strategy' });
  await edit(dialog);
  await dialog.getByRole('button', { name: 'Add to draft' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** The heading of request `id`'s page ("Change request #3", or "#3 <its new title>"). */
export const requestHeading = (page: Page, id: number): Locator => page.getByRole('heading', { level: 1, name: new RegExp(`(^#${id} |#${id}$)`) });

/** A change request's page, loaded. */
export async function openRequest(page: Page, project: string, id: number): Promise<void> {
  await page.goto(`/projects/${encodeURIComponent(project)}/change-requests/${id}`);
  await requestHeading(page, id).waitFor();
}

/** Clicks one of the request page's buttons and waits for the state the page then shows. */
export async function moveRequest(page: Page, button: 'Send to review' | 'Approve' | 'Reject' | 'Apply', state: string): Promise<void> {
  await page.getByRole('button', { name: button, exact: true }).click();
  await requestState(page, state);
}

/** Waits until the request page shows `state` as the request's state. */
export async function requestState(page: Page, state: string): Promise<void> {
  await page.locator('main').getByText(state, { exact: true }).first().waitFor();
}

/** The author sends their request to review from its page. */
export async function sendToReview(page: Page, project: string, id: number): Promise<void> {
  await openRequest(page, project, id);
  await moveRequest(page, 'Send to review', 'In review');
}

/** A reviewer who may apply approves the request, then applies it (with one approval needed). */
export async function approveAndApply(page: Page, project: string, id: number): Promise<void> {
  await openRequest(page, project, id);
  await moveRequest(page, 'Approve', 'Approved');
  await moveRequest(page, 'Apply', 'Applied');
}

/**
 * Schedules an Approved request with the date-time picker: the day `day` of the month after the current one (always
 * in the future), at the picker's default time, then "Schedule".
 */
export async function scheduleRequest(page: Page, day = 15): Promise<Date> {
  await page.getByRole('button', { name: /^(Apply at|Move the apply to)/ }).click();
  await page.getByRole('button', { name: 'Next month' }).click();
  const now = new Date();
  const target = new Date(now.getFullYear(), now.getMonth() + 1, day, 9, 0);
  const label = `${day} ${target.toLocaleString('en-US', { month: 'long' })} ${target.getFullYear()}`;
  await page.getByRole('button', { name: label, exact: true }).click();
  await page.getByRole('button', { name: 'Set this date and time' }).click();
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await requestState(page, 'Scheduled');
  return target;
}
