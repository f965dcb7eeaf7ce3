import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { ADMIN_PASSWORD, browserSuite, expectAccessible, signIn, startUi, type UiHarness } from '../../support/ui-browser';

/**
 * Issue 42: the web UI while the service cannot reach its database. The service's answers are stood in for in the
 * browser (its own refusal, word for word: test/e2e/database-outage.test.ts shows the service giving it): a refused
 * change is shown where it was made, a banner says what is happening instead of a crash or the login page, and the
 * banner goes by itself once `/health/ready` says the database is back.
 */
let ui: UiHarness;

const REFUSAL = {
  data: null,
  errors: [{ message: 'The database is not reachable, so nothing was done; retry later.', extensions: { name: 'ServiceUnavailableError', code: 503, retryAfter: 5 } }],
};

browserSuite()('the web UI with the database away', () => {
  beforeAll(async () => {
    ui = await startUi();
  }, 120_000);
  jest.setTimeout(60_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('shows a refused change where it was made and a banner above the page, which goes once the database is back', async () => {
    const { page } = ui;
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();

    // Every GraphQL request refused, as a service without its database refuses them (the page keeps what it read).
    await page.route('**/graphql', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(REFUSAL) }));
    await page.route('**/health/ready', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"health":"BAD"}' }));

    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Outage');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    const refusal = dialog.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.innerText()).toMatch(/ServiceUnavailableError[\s\S]*database is not reachable/);
    const banner = page.getByRole('status').filter({ hasText: 'The service cannot reach its database' });
    await banner.waitFor();
    expect(await banner.innerText()).toMatch(/changes are refused/);
    await ui.shot('outage-banner');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // The database back: the banner's next check finds it ready, and the page carries on.
    await page.unroute('**/health/ready');
    await page.unroute('**/graphql');
    await banner.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByRole('link', { name: 'Default' }).waitFor();
  });
});
