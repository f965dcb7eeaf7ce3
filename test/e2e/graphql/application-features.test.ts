import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Application.seenFeatures: the flags an application reported in the last day, as Feature objects (so the application
 * page can link each to its project), batched for a list of applications, and without the names of deleted flags.
 */
let app: TestApp;
let clientToken = '';

const GqlAppSeenFeatures = graphql(`
  query GqlAppSeenFeatures {
    applications { appName seenToggles seenFeatures { name project archived } }
  }
`);

const report = (appName: string, toggles: Record<string, { yes?: number; no?: number }>) => {
  const start = new Date();
  return { appName, instanceId: `${appName}-1`, bucket: { start: start.toISOString(), stop: new Date(start.getTime() + 10_000).toISOString(), toggles } };
};

async function until<T>(check: () => Promise<T | undefined | null | false>, what: string): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const seen = async () => {
  const res = await app.gql(GqlAppSeenFeatures);
  expect(res.body.errors).toBeUndefined();
  return res.body.data!.applications;
};

beforeAll(async () => {
  app = await startTestApp({ metricsFlushMs: 50 });
  expect((await app.post('/api/admin/projects', { id: 'asf-other', name: 'asf-other' })).status).toBe(201);
  for (const [project, name] of [['default', 'asf-a'], ['asf-other', 'asf-b'], ['default', 'asf-gone']]) {
    expect((await app.post(`/api/admin/projects/${project}/features`, { name })).status).toBe(201);
  }
  const token = await app.post('/api/admin/api-tokens', { tokenName: 'asf-client', type: 'client', environment: 'development', projects: ['*'] });
  expect(token.status).toBe(201);
  clientToken = token.body.secret;
});
afterAll(async () => { await app.close(); });

describe('Application.seenFeatures', () => {
  it('gives each reported flag with its project, in one batch for every application, leaving deleted flags out', async () => {
    for (const [appName, toggles] of [
      ['asf-shop', { 'asf-a': { yes: 2 }, 'asf-b': { no: 1 }, 'asf-gone': { yes: 1 } }],
      ['asf-admin', { 'asf-b': { yes: 4 } }],
    ] as const) {
      expect((await app.post('/api/client/metrics', report(appName, toggles), { token: clientToken })).status).toBe(202);
    }
    await until(async () => (await seen()).find((a) => a.appName === 'asf-admin')?.seenToggles.length, 'the flush');

    const byApp = Object.fromEntries((await seen()).map((a) => [a.appName, a]));
    expect(byApp['asf-shop'].seenFeatures).toEqual([
      { name: 'asf-a', project: 'default', archived: false },
      { name: 'asf-b', project: 'asf-other', archived: false },
      { name: 'asf-gone', project: 'default', archived: false },
    ]);
    expect(byApp['asf-admin'].seenFeatures).toEqual([{ name: 'asf-b', project: 'asf-other', archived: false }]);

    // Two applications, one statement for all their flags (besides those of the list, instances and seen names).
    app.resetQueryCount();
    await seen();
    expect(app.queries.filter((q) => /from features\b/.test(q))).toHaveLength(1);

    // Archived, then deleted: the name may still be among the reported ones, but no feature stands for it.
    expect((await app.del('/api/admin/projects/default/features/asf-gone')).status).toBe(202);
    expect((await seen()).find((a) => a.appName === 'asf-shop')!.seenFeatures.find((f) => f.name === 'asf-gone')).toEqual({ name: 'asf-gone', project: 'default', archived: true });
    expect((await app.del('/api/admin/archive/asf-gone')).status).toBe(200);
    const shop = (await seen()).find((a) => a.appName === 'asf-shop')!;
    expect(shop.seenFeatures.map((f) => f.name)).toEqual(['asf-a', 'asf-b']);
  });
});
