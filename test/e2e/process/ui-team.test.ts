import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import type { BrowserContext, Page } from 'playwright-core';
import { NAV } from '../../../web/src/layout/navigation';
import { acceptInvite, inviteUser } from '../../support/ui-access';
import { accessibilityViolations, ADMIN_PASSWORD, browserSuite, eventually, signIn, startUi, type UiHarness } from '../../support/ui-browser';
import { approveAndApply, draftBanner, enableChangeRequests, environmentRegion, proposeStrategyEdit, sendToReview } from '../../support/ui-change-requests';
import { exportAndImport } from '../../support/ui-data';
import { createClientToken, withSdk } from '../../support/ui-integrations';

/**
 * Issue 29's acceptance, as a new team works: the admin invites Nina, who sets her password from the link and is
 * signed in; the project turns change requests on for production; Nina's edit of a production strategy becomes a
 * draft she sends to review; the admin, in his own browser, approves and applies it; a client token made on the token
 * page serves the flag to the official SDK; and a project's export is imported into another project. Then every page
 * of the app is visited through its navigation: each loads its own code when first opened, and none has a serious or
 * critical axe-core violation.
 */
let ui: UiHarness;
let nina: { context: BrowserContext; page: Page };
const NINA_PASSWORD = 'Nina-Sets-Her-Own-9!';
const PROJECT = 'storefront';
const FLAG = 'new-checkout';
const LEGACY = 'legacy-shop';

interface Env { name: string; enabled: boolean; strategies: Array<{ title: string | null; parameters: Record<string, string> }> }
const flagIn = async (name: string) => (await ui.admin<{ feature: { project: string; environments: Env[] } | null }>(
  `query ($name: String!) { feature(name: $name) { project environments { name enabled strategies { title parameters } } } }`, { name })).feature;


browserSuite()('the web UI: a new team\'s first day', () => {
  beforeAll(async () => {
    ui = await startUi();
    const strategy = (project: string, feature: string, environment: string, title: string, rollout: string) => ui.admin(
      'mutation ($input: AddFeatureStrategyInput!) { addFeatureStrategy(input: $input) { id } }',
      { input: { project, feature, environment, name: 'flexibleRollout', title, parameters: { rollout, stickiness: 'default', groupId: feature } } });
    await ui.admin(`mutation { createProject(input: {id: "${PROJECT}", name: "Storefront"}) { id } }`);
    await ui.admin(`mutation { createFeature(input: {project: "${PROJECT}", name: "${FLAG}"}) { name } }`);
    await strategy(PROJECT, FLAG, 'production', 'Gradual', '10');
    await ui.admin(`mutation { setFeatureEnvironmentEnabled(input: {project: "${PROJECT}", feature: "${FLAG}", environment: "production", enabled: true}) { name } }`);
    // The project whose flags move into the storefront by export and import.
    await ui.admin(`mutation { createProject(input: {id: "${LEGACY}", name: "Legacy shop"}) { id } }`);
    for (const name of ['legacy-banner', 'legacy-search']) {
      await ui.admin(`mutation { createFeature(input: {project: "${LEGACY}", name: "${name}", description: "from the old shop"}) { name } }`);
      await strategy(LEGACY, name, 'production', 'Half', '50');
    }
  }, 120_000);
  jest.setTimeout(120_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('invites a user, who sets a password from the link and is signed in', async () => {
    await signIn(ui.page, 'admin', ADMIN_PASSWORD);
    await ui.page.waitForURL(/\/projects$/);
    const link = await inviteUser(ui.page, { name: 'Nina Okafor', email: 'nina@example.com', role: 'Editor' });
    const context = await ui.newContext();
    nina = { context, page: await acceptInvite(context, link, NINA_PASSWORD) };
    const { users } = await ui.admin<{ users: Array<{ email: string | null; rootRole: number; seenAt: string | null }> }>('{ users { email rootRole seenAt } }');
    expect(users.find((u) => u.email === 'nina@example.com')).toMatchObject({ rootRole: 2, seenAt: expect.any(String) });
    await ui.shot('team-nina-signed-in', nina.page);
  });

  it('turns change requests on for production; Nina\'s strategy edit is a draft until the admin approves and applies it', async () => {
    // An Editor's root role holds project permissions in the default project only; here Nina is a project Member.
    const { users } = await ui.admin<{ users: Array<{ id: number; email: string | null }> }>('{ users { id email } }');
    const ninaId = users.find((u) => u.email === 'nina@example.com')!.id;
    await ui.admin('mutation($input: AddProjectAccessInput!) { addProjectAccess(input: $input) { users { id } } }', { input: { project: PROJECT, roles: [5], users: [ninaId] } });
    await enableChangeRequests(ui.page, PROJECT, 'production', 1);

    await nina.page.goto(`/projects/${PROJECT}/features/${FLAG}`);
    await environmentRegion(nina.page, 'production').getByText('Change requests guard production').waitFor();
    await proposeStrategyEdit(nina.page, 'production', 'Gradual', (dialog) => dialog.getByRole('textbox', { name: 'Rollout percentage', exact: true }).fill('40'));
    const id = await draftBanner(nina.page, 'production', 1);
    // Still a draft: the flag has not moved.
    expect((await flagIn(FLAG))!.environments.find((e) => e.name === 'production')!.strategies[0].parameters.rollout).toBe('10');
    await sendToReview(nina.page, PROJECT, id);

    await approveAndApply(ui.page, PROJECT, id);
    expect((await flagIn(FLAG))!.environments.find((e) => e.name === 'production')!.strategies[0].parameters.rollout).toBe('40');
    // Nina's flag page shows the applied change.
    await nina.page.goto(`/projects/${PROJECT}/features/${FLAG}`);
    await environmentRegion(nina.page, 'production').getByText(/40%/).first().waitFor();
    await ui.shot('team-change-applied', nina.page);
  });

  it('creates a client token on the token page, and the official SDK started with it sees the flag', async () => {
    const secret = await createClientToken(ui.page, { name: 'storefront-server', environment: 'production', projects: [PROJECT] });
    await withSdk(ui.base, secret, 'storefront-server', (sdk) => {
      expect(sdk.getFeatureToggleDefinitions().map((t) => t.name)).toEqual([FLAG]);
      expect(sdk.getFeatureToggleDefinition(FLAG)?.strategies?.[0]?.parameters?.rollout).toBe('40');
    });
  });

  it('imports one project\'s export into another through validate, diff and import', async () => {
    const { validated } = await exportAndImport(ui.page, LEGACY, PROJECT, 'production', {
      // Flag names are unique across projects: the old project's flags go once the export is taken (a move).
      beforeImport: async () => {
        await ui.admin(`mutation { archiveFeatures(input: {project: "${LEGACY}", features: ["legacy-banner", "legacy-search"]}) }`);
        await ui.admin(`mutation { deleteFeatures(input: {project: "${LEGACY}", features: ["legacy-banner", "legacy-search"]}) }`);
      },
    });
    expect(validated.map((v) => v.feature).sort()).toEqual(['legacy-banner', 'legacy-search']);
    for (const name of ['legacy-banner', 'legacy-search']) {
      const moved = await flagIn(name);
      expect(moved?.project).toBe(PROJECT);
      expect(moved!.environments.find((e) => e.name === 'production')!.strategies).toEqual([{ title: 'Half', parameters: { rollout: '50', stickiness: 'default', groupId: name } }]);
    }
    await ui.shot('team-imported');
  });

  it('loads each page\'s code when it is first opened, and no page has a serious or critical axe-core violation', async () => {
    const page = await ui.context.newPage();
    const scripts = new Set<string>();
    page.on('request', (r) => { if (r.resourceType() === 'script') scripts.add(r.url()); });
    await page.goto('/projects');
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const visits: Array<{ name: string; open(): Promise<void> }> = NAV.flatMap((section) => section.items).filter((item) => item.to !== '/projects').map((item) => ({
      name: item.to,
      open: () => nav.getByRole('link', { name: item.label, exact: true }).click(),
    }));
    const projectNav = () => page.getByRole('navigation', { name: 'Project pages' });
    visits.push(
      { name: `/projects/${PROJECT}`, open: async () => { await page.goto('/projects'); await page.getByRole('link', { name: 'Storefront' }).click(); } },
      ...['Change requests', 'Import', 'Access', 'Settings'].map((label) => ({ name: `/projects/${PROJECT}/${label.toLowerCase().replace(' ', '-')}`, open: () => projectNav().getByRole('link', { name: label }).click() })),
    );
    const { changeRequests } = await ui.admin<{ changeRequests: Array<{ id: number }> }>(`{ changeRequests(project: "${PROJECT}") { id } }`);
    visits.push({ name: `/projects/${PROJECT}/change-requests/${changeRequests[0].id}`, open: async () => {
      await projectNav().getByRole('link', { name: 'Change requests' }).click();
      // Applied, so among the closed requests.
      await page.getByText(/^Closed \(\d+\)$/).click();
      await page.getByRole('link', { name: new RegExp(`#${changeRequests[0].id}\\b`) }).first().click();
    } });
    let heading = 'Projects';
    for (const visit of visits) {
      const before = scripts.size;
      await visit.open();
      await page.waitForURL((url) => url.pathname === visit.name);
      // The page's own code arrives on its first visit (the old page stays on screen until it has).
      await eventually(() => scripts.size > before, Boolean, `a new script for ${visit.name}`, 10_000).catch(() => undefined);
      expect({ page: visit.name, newScripts: scripts.size > before }).toEqual({ page: visit.name, newScripts: true });
      await page.waitForLoadState('networkidle');
      // React keeps the old page on screen while the new one gets ready: wait for the new page's heading.
      await page.waitForFunction((previous) => {
        const h1 = document.querySelector('main h1');
        return h1 !== null && (h1 as HTMLElement).innerText !== previous && !document.querySelector('main .mantine-Loader-root');
      }, heading);
      heading = await page.locator('main h1').first().innerText();
      await ui.shot(`page${visit.name.replace(/[/:]/g, '-')}`, page);
      expect({ page: visit.name, violations: await accessibilityViolations(page) }).toEqual({ page: visit.name, violations: [] });
    }
    expect(ui.seen.consoleErrors).toEqual([]);
    expect(ui.seen.elsewhere).toEqual([]);
  });
});
