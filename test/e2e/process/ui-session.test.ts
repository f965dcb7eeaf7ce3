import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { createIdp } from '../../support/saml-idp';
import { ADMIN_PASSWORD, browserSuite, expectAccessible, signIn, startUi, type UiHarness } from '../../support/ui-browser';

/**
 * The web UI's frame in Chromium: how it is served (CSP, hashed assets, index.html for UI routes while API paths keep
 * theirs), signing in and out, a session that ends sending the user to /login and back, and the links the service
 * hands out (invitation, reset, invite link) setting a password that then signs in.
 */
let ui: UiHarness;

browserSuite()('the web UI: serving and signing in', () => {
  beforeAll(async () => {
    ui = await startUi();
  }, 120_000);
  jest.setTimeout(60_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('serves the page for UI routes with a CSP of its own host, hashed assets for a year, and leaves API paths alone', async () => {
    const html = { accept: 'text/html' };
    for (const p of ['/', '/login', '/projects/default', '/projects/default/features/x', '/playground', '/history', '/new-user?token=x', '/reset-password?token=x', '/invite/abc', '/no/such/page']) {
      const res = await fetch(`${ui.base}${p}`, { headers: html });
      expect([p, res.status, res.headers.get('content-type')]).toEqual([p, 200, 'text/html; charset=utf-8']);
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'; script-src 'self'; style-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
    const page = await (await fetch(`${ui.base}/`, { headers: html })).text();
    const nonce = /content="([^"]+)"/.exec(page.match(/<meta name="csp-nonce"[^>]*>/)![0])![1];
    expect(nonce).not.toBe('%CSP_NONCE%');
    const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(page)![1];
    const asset = await fetch(`${ui.base}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    // API paths keep their answers, for browsers too.
    expect((await fetch(`${ui.base}/api/admin/projects`, { headers: html })).status).toBe(401);
    expect((await fetch(`${ui.base}/invite/abc/validate`, { headers: html })).status).not.toBe(200);
    expect((await fetch(`${ui.base}/docs`, { headers: html })).headers.get('content-security-policy')).not.toMatch(/nonce/);
    // Not a browser: the JSON 404 as before.
    const plain = await fetch(`${ui.base}/no/such/page`);
    expect([plain.status, ((await plain.json()) as { name: string }).name]).toEqual([404, 'NotFoundError']);
    expect((await fetch(`${ui.base}/assets/nothing-here.js`)).status).toBe(404);
  });

  it('signs in with the admin password, shows the projects, and signs out', async () => {
    const { page } = ui;
    await page.goto('/');
    await page.waitForURL(/\/login\?next=%2F$/);
    await ui.shot('login');
    await expectAccessible(page);
    await page.getByRole('textbox', { name: 'Username or email' }).fill('admin');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toMatch(/password/i);
    await ui.shot('login-refused');
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/projects$/);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    for (const name of ['Projects', 'Playground', 'Event log']) await nav.getByRole('link', { name }).waitFor();
    await page.getByRole('link', { name: 'Default' }).waitFor();
    expect(await page.getByRole('main').count()).toBe(1);
    await ui.shot('projects');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
    await page.goto('/projects');
    await page.waitForURL(/\/login\?next=%2Fprojects/);
    expect(ui.seen.elsewhere).toEqual([]);
    expect(ui.seen.consoleErrors).toEqual([]);
  });

  it('sends a user whose session ended to /login, and back to where they were', async () => {
    const { page, context } = ui;
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/projects$/);
    await page.getByRole('link', { name: 'Default' }).waitFor();
    await context.clearCookies();
    // The next page's data is refused (401): to the login page, remembering where the user was going.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Playground' }).click();
    await page.waitForURL(/\/login\?next=%2Fplayground/);
    await page.getByRole('textbox', { name: 'Username or email' }).fill('admin');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/playground$/);
    await page.getByRole('heading', { level: 1, name: 'Playground' }).waitFor();
  });

  it('a next= the browser would read as another origin (a backslash, a tab, a newline after the first slash) signs in to the projects', async () => {
    // Issue 44: the router refused to go there, and the user stayed on /login although signed in.
    for (const next of ['/\\evil.example/', '/\t/evil.example/', '/\n/evil.example/']) {
      const context = await ui.newContext();
      const page = await context.newPage();
      await signIn(page, 'admin', ADMIN_PASSWORD, `/login?next=${encodeURIComponent(next)}`);
      await page.waitForURL(/\/projects$/);
      await page.getByRole('link', { name: 'Default' }).waitFor();
      await context.close();
    }
    expect(ui.seen.elsewhere).toEqual([]);
  });

  it('an invitation link and a reset link each set a password that then signs in; a used link is refused', async () => {
    const page = await (await ui.newContext()).newPage();
    const created = await ui.admin<{ createUser: { id: number; inviteLink: string } }>(
      'mutation($i: CreateUserInput!) { createUser(input: $i) { id inviteLink } }', { i: { username: 'newcomer', email: 'newcomer@example.com', name: 'New Comer', rootRole: 'Editor' } });
    const invitation = new URL(created.createUser.inviteLink);
    expect(invitation.pathname).toBe('/new-user');
    await page.goto(`${invitation.pathname}${invitation.search}`);
    await page.getByText('newcomer@example.com').waitFor();
    await ui.shot('new-user', page);
    await expectAccessible(page);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('weak');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toMatch(/password/i);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Newcomer-Chose-This-1');
    await page.getByRole('button', { name: 'Set password' }).click();
    // Setting the password signs the newcomer in.
    await page.waitForURL(/\/projects$/);
    await page.getByText('Signed in as New Comer').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);

    const reset = await ui.admin<{ createPasswordResetLink: { resetPasswordUrl: string } }>(
      'mutation { createPasswordResetLink(input: { id: "newcomer" }) { resetPasswordUrl } }');
    const link = new URL(reset.createPasswordResetLink.resetPasswordUrl);
    expect(link.pathname).toBe('/reset-password');
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Newcomer-Reset-This-2');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL(/\/projects$/);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
    await signIn(page, 'newcomer', 'Newcomer-Reset-This-2');
    await page.waitForURL(/\/projects$/);
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByText('This link cannot be used').first().waitFor();
    await ui.shot('reset-password-used', page);
    await page.context().close();
  });

  it('an invite link (at /invite/<secret> and at the /new-user?invite= address the service hands out) signs a person up', async () => {
    const token = await ui.admin<{ createPublicSignupToken: { secret: string; url: string } }>(
      'mutation { createPublicSignupToken(input: { name: "team", expiresAt: "2100-01-01T00:00:00Z" }) { secret url } }');
    const handedOut = new URL(token.createPublicSignupToken.url);
    for (const [i, address] of [`/invite/${token.createPublicSignupToken.secret}`, `${handedOut.pathname}${handedOut.search}`].entries()) {
      const page = await (await ui.newContext()).newPage();
      await page.goto(address);
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Joiner ${i}`);
      await page.getByRole('textbox', { name: 'Email', exact: true }).fill(`joiner${i}@example.com`);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(`Joiner-Password-${i}x!`);
      if (i === 0) {
        await ui.shot('invite-signup', page);
        await expectAccessible(page);
      }
      await page.getByRole('button', { name: 'Sign up' }).click();
      // Signing up signs the person in.
      await page.waitForURL(/\/projects$/);
      await page.getByText(`Signed in as Joiner ${i}`).waitFor();
      await page.context().close();
    }
    const page = await (await ui.newContext()).newPage();
    await page.goto('/invite/not-a-real-secret');
    await page.getByText('This invite link cannot be used').first().waitFor();
    await page.context().close();
    expect(ui.seen.consoleErrors).toEqual([]);
  });

  it('offers "Sign in with SSO" once SAML is enabled, leading to the service\'s SAML login', async () => {
    const page = await (await ui.newContext()).newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('link', { name: 'Sign in with SSO' }).count()).toBe(0);
    const idp = await createIdp();
    await ui.admin('mutation($i: UpdateSamlSettingsInput!) { updateSamlSettings(input: $i) { enabled } }',
      { i: { enabled: true, entityId: idp.entityId, signOnUrl: idp.signOnUrl, certificate: idp.certificate } });
    await page.reload();
    const sso = page.getByRole('link', { name: 'Sign in with SSO' });
    await sso.waitFor();
    expect(await sso.getAttribute('href')).toBe('/auth/saml/login');
    await page.context().close();
  });
});
