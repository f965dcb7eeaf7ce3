import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import type { BrowserContext, Page } from 'playwright-core';
import {
  approveAndApply, draftBanner, enableChangeRequests, environmentRegion, moveRequest, openRequest, proposeStrategyEdit, requestHeading, requestState, scheduleRequest, sendToReview,
} from '../../support/ui-change-requests';
import { ADMIN_PASSWORD, browserSuite, expectAccessible, signIn, startUi, type UiHarness } from '../../support/ui-browser';

/**
 * Change requests in Chromium (issue 29, item 1): the admin turns them on for production on the project settings
 * page; an Editor (a project Member) edits a production strategy and switches the flag, which become changes of
 * their draft; they send it to review; the admin, in another browser context, previews, comments, approves and
 * applies it, and the flag on the server shows the change. Then a second request is scheduled and the list shows
 * open and closed requests; a third loses a discarded change, shows its conflict with a direct change, and a stale approval is refused in the
 * service's words.
 */
let ui: UiHarness;
let editor: BrowserContext;
let rita: Page;
const PASSWORD = 'Change-Request-Ui-5!';
const PROJECT = 'shop';
const FLAG = 'checkout';

interface Strategy { id: string; title: string | null; parameters: Record<string, string> }
interface Requests {
  changeRequests: Array<{
    id: number; title: string; state: string; environment: string; createdBy: { username: string };
    features: Array<{ name: string; changes: Array<{ action: string; payload: Record<string, unknown> }> }>;
    comments: Array<{ text: string; createdBy: { username: string } }>;
    approvals: Array<{ username: string }>;
    schedule: { scheduledAt: string; status: string } | null;
  }>;
}

const production = async () => (await ui.admin<{ feature: { environments: Array<{ name: string; enabled: boolean; strategies: Strategy[] }> } }>(
  `{ feature(name: "${FLAG}") { environments { name enabled strategies { id title parameters } } } }`)).feature.environments.find((e) => e.name === 'production')!;
const requests = async () => (await ui.admin<Requests>(`{ changeRequests(project: "${PROJECT}") {
  id title state environment createdBy { username } features { name changes { action payload } } comments { text createdBy { username } } approvals { username }
  schedule { scheduledAt status } } }`)).changeRequests;

browserSuite()('the web UI: change requests', () => {
  beforeAll(async () => {
    // Scheduled requests are looked for every 200 ms, so a schedule falls due during the test.
    ui = await startUi({ CHANGE_REQUEST_POLL_MS: '200' });
    await ui.admin(`mutation { createProject(input: {id: "${PROJECT}", name: "Shop"}) { id } }`);
    await ui.admin(`mutation { createFeature(input: {project: "${PROJECT}", name: "${FLAG}"}) { name } }`);
    await ui.admin(`mutation ($input: AddFeatureStrategyInput!) { addFeatureStrategy(input: $input) { id } }`, {
      input: { project: PROJECT, feature: FLAG, environment: 'production', name: 'flexibleRollout', title: 'Rollout', parameters: { rollout: '50', stickiness: 'default', groupId: FLAG } },
    });
    // An Editor's root role holds its permissions in the default project only: in this one, they are a Member.
    const { createUser } = await ui.admin<{ createUser: { id: number } }>('mutation($input: CreateUserInput!) { createUser(input: $input) { id } }',
      { input: { username: 'rita', password: PASSWORD, rootRole: 'Editor', email: 'rita@example.com' } });
    await ui.admin('mutation($input: AddProjectAccessInput!) { addProjectAccess(input: $input) { users { id } } }', { input: { project: PROJECT, roles: [5], users: [createUser.id] } });
    editor = await ui.newContext();
    rita = await editor.newPage();
  }, 120_000);
  jest.setTimeout(90_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('drafts an Editor\'s production edits, which another user reviews, approves and applies', async () => {
    const { page } = ui;
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/projects$/);
    await enableChangeRequests(page, PROJECT, 'production', 1);
    const config = await ui.admin<{ changeRequestConfig: Array<{ environment: string; changeRequestsEnabled: boolean; requiredApprovals: number }> }>(
      `{ changeRequestConfig(project: "${PROJECT}") { environment changeRequestsEnabled requiredApprovals } }`);
    expect(config.changeRequestConfig.find((c) => c.environment === 'production')).toEqual({ environment: 'production', changeRequestsEnabled: true, requiredApprovals: 1 });
    expect(config.changeRequestConfig.find((c) => c.environment === 'development')?.changeRequestsEnabled).toBe(false);
    await ui.shot('project-settings');
    await expectAccessible(page);

    // The Editor's strategy edit and switch become changes of their draft; the flag itself does not move.
    await signIn(rita, 'rita', PASSWORD);
    await rita.waitForURL(/\/projects$/);
    await rita.goto(`/projects/${PROJECT}/features/${FLAG}`);
    const prod = environmentRegion(rita, 'production');
    await prod.getByText('Change requests guard production').waitFor();
    await proposeStrategyEdit(rita, 'production', 'Rollout', (dialog) => dialog.getByRole('textbox', { name: 'Rollout percentage', exact: true }).fill('75'));
    const id = await draftBanner(rita, 'production', 1);
    await prod.getByRole('switch', { name: 'Enabled in production' }).click();
    expect(await draftBanner(rita, 'production', 2)).toBe(id);
    expect(await prod.getByRole('switch', { name: 'Enabled in production' }).isChecked()).toBe(false);
    const before = await production();
    expect(before.enabled).toBe(false);
    expect(before.strategies[0].parameters.rollout).toBe('50');
    const [draft] = await requests();
    expect(draft).toMatchObject({ id, state: 'Draft', environment: 'production', createdBy: { username: 'rita' } });
    expect(draft.features[0].changes.map((c) => c.action)).toEqual(['updateStrategy', 'updateEnabled']);
    expect(draft.features[0].changes[0].payload).toMatchObject({ id: before.strategies[0].id, parameters: { rollout: '75' } });
    await ui.shot('flag-draft', rita);
    await expectAccessible(rita);

    // The request's page: each change against the flag now; the author sends it to review and may not approve it.
    await prod.getByRole('link', { name: /^Draft #/ }).click();
    await requestHeading(rita, id).waitFor();
    const diff = rita.getByRole('table', { name: 'Diff: Change strategy “Rollout”' });
    await diff.waitFor();
    expect((await diff.locator('tbody tr').allInnerTexts()).map((r) => r.split('\t').map((c) => c.trim()))).toEqual([['parameters.rollout', '50', '75']]);
    await rita.getByRole('table', { name: 'Diff: Switch on in production' }).waitFor();
    await ui.shot('change-request-draft', rita);
    await expectAccessible(rita);
    await rita.getByRole('button', { name: 'Rename the change request' }).click();
    await rita.getByRole('textbox', { name: 'Title' }).fill('Wider rollout');
    await rita.getByRole('button', { name: 'Save title' }).click();
    await rita.getByRole('heading', { level: 1, name: `#${id} Wider rollout` }).waitFor();
    await moveRequest(rita, 'Send to review', 'In review');
    expect(await rita.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
    expect((await requests())[0]).toMatchObject({ state: 'In review', title: 'Wider rollout' });

    // The admin, in the first browser context: a preview for one context, a comment, then approve and apply.
    await openRequest(page, PROJECT, id);
    await page.getByRole('textbox', { name: 'userId' }).fill('u-1');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByRole('table', { name: 'Preview results' });
    await preview.waitFor();
    expect(await preview.locator('tbody tr td').first().innerText()).toBe(FLAG);
    expect(await preview.locator('tbody tr td:nth-child(3)').first().innerText()).toBe('off');
    await page.getByRole('textbox', { name: 'New comment' }).fill('Looks right to me');
    await page.getByRole('button', { name: 'Add comment' }).click();
    await page.getByRole('article', { name: 'Comment by admin' }).waitFor();
    expect((await requests())[0].comments).toEqual([{ text: 'Looks right to me', createdBy: { username: 'admin' } }]);
    await ui.shot('change-request-review');
    await expectAccessible(page);
    await approveAndApply(page, PROJECT, id);

    const after = await production();
    expect(after.enabled).toBe(true);
    expect(after.strategies[0].parameters.rollout).toBe('75');
    expect((await requests())[0]).toMatchObject({ state: 'Applied', approvals: [{ username: 'admin' }] });
    await ui.shot('change-request-applied');
    await expectAccessible(page);
  });

  it('turns a switch in the flag list into a draft, schedules the approved request, and lists open and closed requests', async () => {
    const { page } = ui;
    await rita.goto(`/projects/${PROJECT}`);
    const toggle = rita.getByRole('switch', { name: `${FLAG} in production`, disabled: false });
    await toggle.waitFor();
    await toggle.click();
    await rita.getByText(/^Added to draft #\d+$/).waitFor();
    const drafted = (await requests()).find((r) => r.state === 'Draft')!;
    expect(drafted.features[0].changes).toEqual([{ action: 'updateEnabled', payload: { enabled: false } }]);
    expect((await production()).enabled).toBe(true);
    await sendToReview(rita, PROJECT, drafted.id);

    await openRequest(page, PROJECT, drafted.id);
    await moveRequest(page, 'Approve', 'Approved');
    const picked = await scheduleRequest(page);
    await page.getByText(/It will be applied at/).waitFor();
    const scheduled = (await requests()).find((r) => r.id === drafted.id)!;
    expect(scheduled.state).toBe('Scheduled');
    expect(scheduled.schedule).toEqual({ scheduledAt: picked.toISOString(), status: 'pending' });
    await ui.shot('change-request-scheduled');
    await expectAccessible(page);
    // Still applied later, not now.
    expect((await production()).enabled).toBe(true);

    await page.goto(`/projects/${PROJECT}/change-requests`);
    const open = page.getByRole('table', { name: 'Open change requests' });
    await open.waitFor();
    expect(await open.locator('tbody tr').count()).toBe(1);
    expect(await open.locator('tbody tr').first().innerText()).toMatch(new RegExp(`#${drafted.id}[\\s\\S]*Scheduled`));
    await ui.shot('change-requests');
    await expectAccessible(page);
    await page.getByText(/^Closed \(1\)$/).click();
    const closed = page.getByRole('table', { name: 'Closed change requests' });
    await closed.waitFor();
    expect(await closed.locator('tbody tr').first().innerText()).toMatch(/Applied/);
  });

  it('discards a change, shows a conflict, and the service\'s refusal next to the button when the request moved meanwhile', async () => {
    const { page } = ui;
    await rita.goto(`/projects/${PROJECT}/features/${FLAG}`);
    await proposeStrategyEdit(rita, 'production', 'Rollout', (dialog) => dialog.getByRole('textbox', { name: 'Rollout percentage', exact: true }).fill('10'));
    const id = await draftBanner(rita, 'production', 1);
    // A deletion proposed, then discarded from the draft on its page.
    await environmentRegion(rita, 'production').getByRole('button', { name: 'Delete Rollout' }).click();
    await rita.getByRole('dialog', { name: 'Delete strategy' }).getByRole('button', { name: 'Add deletion to draft' }).click();
    expect(await draftBanner(rita, 'production', 2)).toBe(id);
    await openRequest(rita, PROJECT, id);
    await rita.getByRole('button', { name: 'Discard change: Delete strategy “Rollout”' }).click();
    await rita.getByRole('article', { name: 'Delete strategy “Rollout”' }).waitFor({ state: 'detached' });
    expect((await requests()).find((r) => r.id === id)!.features[0].changes.map((c) => c.action)).toEqual(['updateStrategy']);
    expect((await production()).strategies).toHaveLength(1);
    await sendToReview(rita, PROJECT, id);
    // Someone who may skip change requests changes the strategy directly: the proposed edit now conflicts.
    const strategy = (await production()).strategies[0];
    await ui.admin('mutation($input: UpdateFeatureStrategyInput!) { updateFeatureStrategy(input: $input) { id } }', {
      input: { project: PROJECT, feature: FLAG, environment: 'production', id: strategy.id, parameters: { ...strategy.parameters, rollout: '20' } },
    });
    await openRequest(page, PROJECT, id);
    await page.getByRole('button', { name: 'Approve', exact: true }).waitFor();
    const conflict = page.getByRole('article', { name: 'Change strategy “Rollout”' }).getByRole('alert');
    expect(await conflict.innerText()).toMatch(/Conflict[\s\S]*was changed after this change was made/);
    // The diff is against the strategy as it is now.
    expect(await page.getByRole('table', { name: 'Diff: Change strategy “Rollout”' }).locator('tbody tr').innerText()).toMatch(/parameters\.rollout\s+20\s+10/);
    await ui.shot('change-request-conflict');
    // The author withdraws it while the admin's page still offers "Approve".
    await openRequest(rita, PROJECT, id);
    await rita.getByRole('button', { name: 'Cancel request' }).click();
    await rita.getByRole('dialog', { name: 'Cancel the change request' }).getByRole('button', { name: 'Cancel request' }).click();
    await requestState(rita, 'Cancelled');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'is Cancelled: it cannot become Approved' });
    await refusal.waitFor();
    await requestState(page, 'Cancelled');
    expect((await requests()).find((r) => r.id === id)!.state).toBe('Cancelled');
    expect(ui.seen.elsewhere).toEqual([]);
    expect(ui.seen.consoleErrors).toEqual([]);
  });

  it('shows why a scheduled apply failed', async () => {
    const { page } = ui;
    // Another admin credential reviews and schedules the admin's own request (an author may not approve it).
    const { createApiToken } = await ui.admin<{ createApiToken: { secret: string } }>('mutation { createApiToken(input: { tokenName: "cr-reviewer", type: "admin" }) { secret } }');
    const asReviewer = async (query: string, variables: Record<string, unknown>) => {
      const res = await fetch(`${ui.base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: createApiToken.secret }, body: JSON.stringify({ query, variables }) });
      const body = (await res.json()) as { errors?: unknown[] };
      expect(body.errors).toBeUndefined();
    };
    const strategy = (await production()).strategies[0];
    const { addChangeRequestChanges: { id } } = await ui.admin<{ addChangeRequestChanges: { id: number } }>(
      'mutation($input: AddChangeRequestChangesInput!) { addChangeRequestChanges(input: $input) { id } }',
      { input: { project: PROJECT, environment: 'production', changes: { action: 'updateStrategy', feature: FLAG, payload: { id: strategy.id, name: 'flexibleRollout', parameters: { ...strategy.parameters, rollout: '35' } } } } });
    const move = 'mutation($input: SetChangeRequestStateInput!) { setChangeRequestState(input: $input) { state } }';
    await ui.admin(move, { input: { project: PROJECT, id, state: 'In review' } });
    await asReviewer(move, { input: { project: PROJECT, id, state: 'Approved' } });
    await asReviewer(move, { input: { project: PROJECT, id, state: 'Scheduled', scheduledAt: new Date(Date.now() + 1500).toISOString() } });
    // Before it falls due, the strategy is changed directly: applying the request would overwrite that change.
    await ui.admin('mutation($input: UpdateFeatureStrategyInput!) { updateFeatureStrategy(input: $input) { id } }', {
      input: { project: PROJECT, feature: FLAG, environment: 'production', id: strategy.id, parameters: { ...strategy.parameters, rollout: '45' } },
    });
    await openRequest(page, PROJECT, id);
    // The page asks again on its own while a schedule is pending, or on reload: reload until the failure shows.
    const failed = page.getByRole('alert').filter({ hasText: 'The scheduled apply failed' });
    for (let i = 0; i < 40 && !(await failed.count()); i++) {
      await new Promise((r) => setTimeout(r, 250));
      if (i % 8 === 7) await page.reload();
    }
    expect(await failed.innerText()).toMatch(new RegExp(`Reason: [\\s\\S]*${strategy.id}[\\s\\S]*changed`));
    expect((await requests()).find((r) => r.id === id)!.schedule).toMatchObject({ status: 'failed' });
    expect((await production()).strategies[0].parameters.rollout).toBe('45');
    await ui.shot('change-request-schedule-failed');
    await expectAccessible(page);
  });
});
