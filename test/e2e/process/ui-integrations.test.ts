import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { startReceiver, type Receiver } from '../../support/receiver';
import { createIdp } from '../../support/saml-idp';
import { ADMIN_PASSWORD, browserSuite, eventually, expectAccessible, signIn, startUi, type UiHarness } from '../../support/ui-browser';
import { createClientToken, withSdk } from '../../support/ui-integrations';

/**
 * API tokens, addons and SAML settings in Chromium (issue 29, items 3, 4 and 6): a client token created on the page
 * serves the official Node SDK and is revoked; a webhook addon made with the form receives a flag change, whose
 * delivery shows on the page; the SAML settings are saved. Each effect is checked on the server.
 */
let ui: UiHarness;
let receiver: Receiver;
const PROJECT = 'payments';
const FLAG = 'new-checkout';


const setFlag = (enabled: boolean) => ui.admin(`mutation ($enabled: Boolean!) { setFeatureEnvironmentEnabled(input: {
  project: "${PROJECT}", feature: "${FLAG}", environment: "development", enabled: $enabled }) { enabled } }`, { enabled });

browserSuite()('the web UI: API tokens, addons and SAML settings', () => {
  beforeAll(async () => {
    receiver = await startReceiver();
    // The webhook receiver is on 127.0.0.1; deliveries are looked for often so the test does not wait on them.
    ui = await startUi({ ADDON_ALLOW_PRIVATE_URLS: 'true', ADDON_POLL_MS: '100' });
    await ui.admin(`mutation { createProject(input: {id: "${PROJECT}", name: "Payments"}) { id } }`);
    await ui.admin(`mutation { createFeature(input: {project: "${PROJECT}", name: "${FLAG}"}) { name } }`);
    await setFlag(true);
    await signIn(ui.page, 'admin', ADMIN_PASSWORD);
    await ui.page.waitForURL(/\/projects$/);
  }, 120_000);
  jest.setTimeout(90_000);
  afterAll(async () => {
    await ui?.close();
    await receiver?.close();
  });

  it('creates a client token whose secret serves the Node SDK the flag, then revokes it', async () => {
    const { page } = ui;
    const secret = await createClientToken(page, { name: 'checkout-service', environment: 'development', projects: [PROJECT], keepOpen: true });
    expect(secret).toMatch(/^payments:development\.[0-9a-f]{64}$/);
    const dialog = page.getByRole('dialog', { name: 'New API token' });
    expect(await dialog.getByRole('button', { name: 'Copy', exact: true }).count()).toBe(1);
    expect(await dialog.getByText('customHeaders.Authorization', { exact: false }).count()).toBeGreaterThan(0);
    await ui.shot('api-token-created');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: 'checkout-service', exact: true }).waitFor();
    await ui.shot('api-tokens');
    await expectAccessible(page);

    const listed = await ui.admin<{ apiTokens: Array<{ id: number; tokenName: string; type: string; projects: string[]; environment: string }> }>('{ apiTokens { id tokenName type projects environment } }');
    expect(listed.apiTokens.find((t) => t.tokenName === 'checkout-service')).toMatchObject({ type: 'client', projects: [PROJECT], environment: 'development' });

    // The official SDK, with the secret where the page says it goes, sees the flag on.
    await withSdk(ui.base, secret, 'ui-integrations', (sdk) => expect(sdk.isEnabled(FLAG)).toBe(true));

    // A new expiry, picked in the calendar: the 15th of next month (the picker's time stays 00:00, local).
    await page.getByRole('button', { name: 'Edit expiry of checkout-service' }).click();
    const expiry = page.getByRole('dialog', { name: 'Expiry of checkout-service' });
    await expiry.getByRole('button', { name: 'Expires' }).click();
    await page.getByRole('button', { name: 'Next month' }).click();
    const now = new Date();
    const target = new Date(now.getFullYear(), now.getMonth() + 1, 15);
    await page.getByRole('button', { name: target.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' }), exact: true }).click();
    await page.getByRole('button', { name: 'Set expiry' }).click();
    await expiry.getByRole('button', { name: 'Save expiry' }).click();
    await expiry.waitFor({ state: 'hidden' });
    const expiring = await ui.admin<{ apiTokens: Array<{ tokenName: string; expiresAt: string | null }> }>('{ apiTokens { tokenName expiresAt } }');
    const expiresAt = new Date(expiring.apiTokens.find((t) => t.tokenName === 'checkout-service')!.expiresAt!);
    expect([expiresAt.getFullYear(), expiresAt.getMonth(), expiresAt.getDate()]).toEqual([target.getFullYear(), target.getMonth(), 15]);

    await page.getByRole('button', { name: 'Revoke checkout-service' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke API token' });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'checkout-service', exact: true }).waitFor({ state: 'detached' });
    const after = await ui.admin<{ apiTokens: Array<{ tokenName: string }> }>('{ apiTokens { tokenName } }');
    expect(after.apiTokens.map((t) => t.tokenName)).not.toContain('checkout-service');
    const refused = await fetch(`${ui.base}/api/client/features`, { headers: { authorization: secret } });
    expect(refused.status).toBe(401);
  });

  it('creates a webhook addon with the form; a flag change is delivered and shows on the page; an edit keeps the secret URL', async () => {
    const { page } = ui;
    await page.goto('/admin/addons');
    await page.getByRole('heading', { level: 1, name: 'Addons' }).waitFor();
    await page.getByRole('button', { name: 'New Webhook addon' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Webhook addon' });
    // Nothing filled: the form names what is missing before sending.
    await dialog.getByRole('button', { name: 'Create addon' }).click();
    await dialog.getByText('Webhook URL is required.').waitFor();
    await dialog.getByRole('textbox', { name: 'Webhook URL', exact: true }).fill(`${receiver.url}/flag-hook`);
    await dialog.getByRole('textbox', { name: 'Events', exact: true }).click();
    await page.getByRole('option', { name: 'feature-environment-disabled', exact: true }).click();
    await page.getByRole('option', { name: 'feature-environment-enabled', exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Description', exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Projects', exact: true }).click();
    await page.getByRole('option', { name: `Payments (${PROJECT})` }).click();
    await dialog.getByRole('textbox', { name: 'Description', exact: true }).fill('Flag changes to the release bot');
    await ui.shot('addon-form');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Create addon' }).click();
    await dialog.waitFor({ state: 'hidden' });

    type Addons = { addons: Array<{ id: number; provider: string; parameters: Record<string, string>; events: string[]; projects: string[]; enabled: boolean;
      deliveries: { nodes: Array<{ status: string; eventType: string; attempts: Array<{ statusCode: number | null }> }> } }> };
    const read = () => ui.admin<Addons>('{ addons { id provider parameters events projects enabled deliveries { nodes { status eventType attempts { statusCode } } } } }');
    const [addon] = (await read()).addons;
    expect(addon).toMatchObject({ provider: 'webhook', parameters: { url: '*****' }, projects: [PROJECT], enabled: true });
    expect([...addon.events].sort()).toEqual(['feature-environment-disabled', 'feature-environment-enabled']);

    await setFlag(false);
    const [hook] = await receiver.waitFor(1, 15_000);
    expect(hook.path).toBe('/flag-hook');
    expect(JSON.parse(hook.body)).toMatchObject({ type: 'feature-environment-disabled', featureName: FLAG });
    await eventually(read, (a) => a.addons[0].deliveries.nodes[0]?.status === 'delivered', 'the delivery to be recorded as delivered');
    const row = page.getByRole('table', { name: `Deliveries of Webhook addon ${addon.id}` }).getByRole('row').filter({ hasText: 'feature-environment-disabled' });
    await row.getByText('delivered', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await row.innerText()).toContain('HTTP 200');
    await ui.shot('addons');
    await expectAccessible(page);

    // Edited without retyping it, the secret URL is kept: the next change still reaches the receiver.
    await page.getByRole('button', { name: `Edit Webhook addon ${addon.id}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Webhook addon' });
    expect(await edit.getByRole('textbox', { name: 'Webhook URL', exact: true }).inputValue()).toBe('');
    await edit.getByRole('textbox', { name: 'Description', exact: true }).fill('Flag changes, edited');
    await edit.getByRole('button', { name: 'Save addon' }).click();
    await edit.waitFor({ state: 'hidden' });
    await setFlag(true);
    const both = await receiver.waitFor(2, 15_000);
    expect(both[1].path).toBe('/flag-hook');
    expect(JSON.parse(both[1].body)).toMatchObject({ type: 'feature-environment-enabled' });
    const edited = await ui.admin<{ addon: { description: string; parameters: Record<string, string> } }>(`{ addon(id: ${addon.id}) { description parameters } }`);
    expect(edited.addon).toEqual({ description: 'Flag changes, edited', parameters: { url: '*****' } });

    // Sent again from its row: a new delivery of the same event, under a new idempotency key.
    await page.getByRole('button', { name: /^Redeliver event \d+ \(feature-environment-disabled\)$/ }).click();
    const three = await receiver.waitFor(3, 15_000);
    expect(JSON.parse(three[2].body)).toMatchObject({ type: 'feature-environment-disabled', featureName: FLAG });
    expect(three[2].headers['idempotency-key']).not.toBe(three[0].headers['idempotency-key']);

    // Disabled from its switch, on the server too.
    await page.getByRole('switch', { name: `Webhook addon ${addon.id} enabled` }).click();
    await eventually(read, (a) => a.addons[0].enabled === false, 'the addon to be disabled');
  });

  it('offers a Viewer no token, addon or SAML controls', async () => {
    await ui.admin('mutation { createUser(input: {username: "integrations-viewer", password: "Integrations-Viewer-7!", rootRole: "Viewer"}) { id } }');
    const context = await ui.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, 'integrations-viewer', 'Integrations-Viewer-7!');
      await page.waitForURL(/\/projects$/);
      await page.goto('/admin/api-tokens');
      await page.getByText('You may not create API tokens: ask an admin.').waitFor();
      expect(await page.getByRole('button', { name: 'New API token' }).count()).toBe(0);
      await page.goto('/admin/addons');
      await page.getByRole('heading', { level: 2, name: 'Your addons' }).waitFor();
      expect(await page.getByRole('button', { name: /^New .* addon$/ }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^(Edit|Delete) / }).count()).toBe(0);
      await page.goto('/admin/auth');
      await page.getByText('Only an admin may see and change how people sign in.').waitFor();
      expect(await page.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('saves the SAML settings and shows the service provider URLs to give the identity provider', async () => {
    const { page } = ui;
    const idp = await createIdp();
    await page.goto('/admin/auth');
    await page.getByRole('heading', { level: 1, name: 'Single sign-on' }).waitFor();
    const { samlSettings: before } = await ui.admin<{ samlSettings: { serviceProvider: { entityId: string; acsUrl: string } } }>('{ samlSettings { serviceProvider { entityId acsUrl } } }');
    expect(await page.getByRole('textbox', { name: 'Entity ID (audience)' }).inputValue()).toBe(before.serviceProvider.entityId);
    expect(await page.getByRole('textbox', { name: 'Assertion consumer service URL' }).inputValue()).toBe(before.serviceProvider.acsUrl);
    expect(await page.getByRole('button', { name: 'Copy Metadata URL' }).count()).toBe(1);
    await ui.shot('saml-settings-empty');
    await expectAccessible(page);

    await page.getByRole('switch', { name: 'Enable SAML sign-in' }).check();
    await page.getByRole('textbox', { name: 'Identity provider entity ID' }).fill(idp.entityId);
    await page.getByRole('textbox', { name: 'Single sign-on URL' }).fill(idp.signOnUrl);
    await page.getByRole('textbox', { name: 'X.509 certificate' }).fill(idp.certificate);
    await page.getByRole('switch', { name: 'Create users at their first sign-in' }).check();
    await page.getByRole('textbox', { name: 'Email domains' }).fill('example.com');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const test = page.getByRole('link', { name: 'Test sign-in' });
    await test.waitFor();
    expect(new URL((await test.getAttribute('href'))!).pathname).toBe('/auth/saml/login');
    const { samlSettings } = await ui.admin<{ samlSettings: Record<string, unknown> }>('{ samlSettings { enabled entityId signOnUrl autoCreate emailDomains defaultRootRole } }');
    expect(samlSettings).toEqual({ enabled: true, entityId: idp.entityId, signOnUrl: idp.signOnUrl, autoCreate: true, emailDomains: 'example.com', defaultRootRole: 'Viewer' });
    // The sign-in the link starts is on: the service sends the browser to the identity provider.
    const start = await fetch(`${ui.base}/auth/saml/login`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    expect(start.headers.get('location')).toMatch(/^https:\/\/idp\.example\.test\/sso\?SAMLRequest=/);
    await ui.shot('saml-settings');
    await expectAccessible(page);
    expect(ui.seen.consoleErrors).toEqual([]);
  });
});
