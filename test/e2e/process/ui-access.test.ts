import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { ADMIN_PASSWORD, browserSuite, expectAccessible, pick, pickMany, signIn, startUi, type UiHarness } from '../../support/ui-browser';
import { acceptInvite, inviteUser } from '../../support/ui-access';

/**
 * Access control in Chromium (issue 29, item 2): an admin invites a user, who sets a password from the invite link
 * in a browser of their own and is signed in; a user's root role and a reset link; a group with a member; a custom
 * role with two permissions; a project access grant; a personal access token that works against the admin API; and
 * a signup link. Each step is checked on the server.
 */
let ui: UiHarness;
const PASSWORD = 'Flagdeck-Invited-9!';
const EMAIL = 'grace@example.com';

interface ServerUser { id: number; name: string | null; email: string | null; rootRole: number }
const userByEmail = async (email: string) =>
  (await ui.admin<{ users: ServerUser[] }>('{ users { id name email rootRole } }')).users.find((u) => u.email === email);

browserSuite()('the web UI: access control', () => {
  beforeAll(async () => {
    ui = await startUi();
    await signIn(ui.page, 'admin', ADMIN_PASSWORD);
    await ui.page.waitForURL(/\/projects$/);
  }, 120_000);
  jest.setTimeout(90_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('invites a user with "New user"; the invite link opens the set-password page and the user ends signed in', async () => {
    const { page } = ui;
    await page.goto('/admin/users');
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.getByRole('table', { name: 'Users' }).getByText('admin', { exact: true }).first().waitFor();
    await ui.shot('admin-users');
    await expectAccessible(page);

    const link = await inviteUser(page, { name: 'Grace Hopper', email: EMAIL, role: 'Editor' }, {
      whileShown: async () => { await ui.shot('admin-users-invite-link'); await expectAccessible(page); },
    });
    expect(link).toMatch(/\/new-user\?token=/);
    const created = await userByEmail(EMAIL);
    expect(created).toMatchObject({ name: 'Grace Hopper', rootRole: 2 });

    const context = await ui.newContext();
    const invited = await acceptInvite(context, link, PASSWORD);
    await invited.getByText('Signed in as Grace Hopper').waitFor();
    // An Editor is offered no user administration.
    expect(await invited.getByRole('link', { name: 'Users' }).count()).toBe(0);

    // The profile page: their details, and a password change refused in the service's words next to the form.
    await invited.goto('/profile');
    await invited.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    await invited.getByText(EMAIL).waitFor();
    await invited.getByRole('textbox', { name: 'New password', exact: true }).fill('Another-Pass-4!');
    await invited.getByRole('textbox', { name: 'Confirm new password', exact: true }).fill('Different-Pass-4!');
    await invited.getByRole('button', { name: 'Change password' }).click();
    await invited.getByRole('alert').filter({ hasText: 'must be equal' }).waitFor();
    await ui.shot('profile-refused', invited);
    await expectAccessible(invited);
    await context.close();
  });

  it('changes a user\'s root role and creates a reset-password link shown once', async () => {
    const { page } = ui;
    await page.goto('/admin/users');
    await page.getByRole('button', { name: 'Edit Grace Hopper' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Grace Hopper' });
    await pick(page, 'Root role', 'Viewer', dialog);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await userByEmail(EMAIL))?.rootRole).toBe(3);

    await page.getByRole('button', { name: 'Reset password of Grace Hopper' }).click();
    const reset = page.getByRole('dialog', { name: 'Reset the password of Grace Hopper' });
    await reset.getByRole('button', { name: 'Create reset link' }).click();
    const field = reset.getByRole('textbox', { name: 'Reset link' });
    await field.waitFor();
    expect(await field.inputValue()).toMatch(/\/reset-password\?token=/);
    await ui.shot('admin-users-reset-link');
    await expectAccessible(page);
    await reset.getByRole('button', { name: 'Done' }).click();
  });

  it('creates a group and adds a member', async () => {
    const { page } = ui;
    await page.goto('/admin/groups');
    await page.getByRole('button', { name: 'New group' }).click();
    const dialog = page.getByRole('dialog', { name: 'New group' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Platform');
    await dialog.getByRole('textbox', { name: 'Description', exact: true }).fill('The platform team');
    await dialog.getByRole('textbox', { name: 'SSO groups', exact: true }).fill('platform-devs, platform-ops');
    await dialog.getByRole('button', { name: 'Create group' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Members of Platform' }).click();
    const members = page.getByRole('dialog', { name: 'Members of Platform' });
    await pick(page, 'Add member', 'Grace Hopper', members);
    await members.getByRole('button', { name: 'Add', exact: true }).click();
    await members.getByRole('button', { name: 'Remove Grace Hopper from Platform' }).waitFor();
    await ui.shot('admin-groups-members');
    await expectAccessible(page);
    await members.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { level: 1, name: 'Groups' }).waitFor();
    await ui.shot('admin-groups');
    await expectAccessible(page);

    const { groups } = await ui.admin<{ groups: Array<{ name: string; description: string; mappingsSSO: string[]; users: Array<{ user: { email: string } }> }> }>(
      '{ groups { name description mappingsSSO users { user { email } } } }');
    expect(groups).toEqual([{ name: 'Platform', description: 'The platform team', mappingsSSO: ['platform-devs', 'platform-ops'], users: [{ user: { email: EMAIL } }] }]);
  });

  it('creates a custom project role with two permissions chosen in the picker', async () => {
    const { page } = ui;
    await page.goto('/admin/roles');
    await page.getByRole('table', { name: 'Project roles' }).getByText('Owner', { exact: true }).waitFor();
    await ui.shot('admin-roles');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'New role' }).click();
    const dialog = page.getByRole('dialog', { name: 'New role' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Flag tester');
    await dialog.getByRole('group', { name: 'Project permissions' }).getByRole('checkbox', { name: 'Create feature toggles' }).check();
    await dialog.getByRole('group', { name: 'Environment: development' }).getByRole('checkbox', { name: 'Enable/disable toggles' }).check();
    await ui.shot('admin-roles-new');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Create role' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Edit Flag tester' }).waitFor();

    const { roles } = await ui.admin<{ roles: Array<{ name: string; type: string; permissions: Array<{ name: string; environment: string | null }> }> }>(
      '{ roles { name type permissions { name environment } } }');
    expect(roles.find((r) => r.name === 'Flag tester')).toEqual({
      name: 'Flag tester', type: 'custom',
      permissions: [{ name: 'CREATE_FEATURE', environment: null }, { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' }],
    });
  });

  it('gives a user and a group a role in a project, changes it, and shows who holds what', async () => {
    const { page } = ui;
    await page.goto('/projects/default/access');
    const here = page.getByRole('navigation', { name: 'Project pages' }).getByRole('link', { name: 'Access' });
    await here.waitFor();
    expect(await here.getAttribute('aria-current')).toBe('page');
    await page.getByRole('button', { name: 'Add access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add access' });
    await pickMany(page, 'Users', 'Grace Hopper', dialog);
    await pickMany(page, 'Groups', 'Platform', dialog);
    await pickMany(page, 'Roles', 'Flag tester', dialog);
    await dialog.getByRole('button', { name: 'Add access' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Change roles of Platform' }).waitFor();

    await page.getByRole('button', { name: 'Change roles of Platform' }).click();
    const change = page.getByRole('dialog', { name: 'Roles of Platform' });
    await pickMany(page, 'Project roles', 'Member', change);
    await change.getByRole('button', { name: 'Save' }).click();
    await change.waitFor({ state: 'hidden' });
    await page.getByRole('table', { name: 'Project access' }).getByText('Flag tester, Member').waitFor();
    await ui.shot('project-access');
    await expectAccessible(page);

    const { project } = await ui.admin<{ project: { access: { roles: Array<{ id: number; name: string }>; users: Array<{ email: string | null; roles: number[] }>; groups: Array<{ name: string; roles: number[] }> } } }>(
      '{ project(id: "default") { access { roles { id name } users { email roles } groups { name roles } } } }');
    const id = (name: string) => project.access.roles.find((r) => r.name === name)!.id;
    expect(project.access.users.find((u) => u.email === EMAIL)?.roles).toEqual([id('Flag tester')]);
    expect(project.access.groups.find((g) => g.name === 'Platform')?.roles.sort()).toEqual([id('Flag tester'), id('Member')].sort());
  });

  it('creates a personal access token on /profile whose secret, shown once, works as an Authorization header', async () => {
    const { page } = ui;
    await page.goto('/profile');
    await page.getByRole('button', { name: 'New token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New personal access token' });
    await dialog.getByRole('textbox', { name: 'Description', exact: true }).fill('deploy script');
    await pick(page, 'Expires in', '90 days', dialog);
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const field = dialog.getByRole('textbox', { name: 'Secret' });
    await field.waitFor();
    const secret = await field.inputValue();
    await ui.shot('profile-new-token');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('table', { name: 'Personal access tokens' }).getByText('deploy script').waitFor();
    await ui.shot('profile');
    await expectAccessible(page);

    const res = await fetch(`${ui.base}/api/admin/projects`, { headers: { Authorization: secret } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { projects: Array<{ id: string }> };
    expect(body.projects.map((p) => p.id)).toContain('default');
    const refused = await fetch(`${ui.base}/api/admin/projects`, { headers: { Authorization: `${secret}x` } });
    expect(refused.status).toBe(401);
  });

  it('creates a signup link with a role and expiry, shows its URL to copy, and disables it', async () => {
    const { page } = ui;
    await page.goto('/admin/signup-links');
    await page.getByRole('button', { name: 'New signup link' }).click();
    const dialog = page.getByRole('dialog', { name: 'New signup link' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Contractors');
    await pick(page, 'Root role', 'Editor', dialog);
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const field = dialog.getByRole('textbox', { name: 'Signup link' });
    await field.waitFor();
    expect(await field.inputValue()).toMatch(/\/new-user\?invite=/);
    await dialog.getByRole('button', { name: 'Done' }).click();

    const enabled = page.getByRole('switch', { name: 'Contractors enabled' });
    await enabled.waitFor();
    expect(await enabled.isChecked()).toBe(true);
    await ui.shot('admin-signup-links');
    await expectAccessible(page);
    const saved = page.waitForResponse((r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('AccessUpdateSignupLink'));
    await enabled.click();
    expect((await saved).status()).toBe(200);
    await page.waitForFunction(() => !(document.querySelector('input[aria-label="Contractors enabled"]') as HTMLInputElement | null)?.checked);
    const { publicSignupTokens } = await ui.admin<{ publicSignupTokens: Array<{ name: string; enabled: boolean; role: { name: string } }> }>(
      '{ publicSignupTokens { name enabled role { name } } }');
    expect(publicSignupTokens).toEqual([{ name: 'Contractors', enabled: false, role: { name: 'Editor' } }]);
    expect(ui.seen.elsewhere).toEqual([]);
    expect(ui.seen.consoleErrors).toEqual([]);
  });
});
