import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphql } from '../../gql';
import { until } from '../../support/until';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 44, flag lifecycle, through both doors with real SDK metrics reports: initial at creation, pre-live when
 * switched on outside production, live once reported in production, completed as kept or discarded (and taken back),
 * archived; the warning for a discarded flag still reported; the stages' times; validation and permissions.
 */
let app: TestApp;
const F = '/api/admin/projects/default/features';
const L = (name: string) => `${F}/${name}/lifecycle`;
const tokens: Record<string, string> = {};


/** An SDK's metrics report for `feature` with the client token of `environment`. */
async function report(feature: string, environment: 'development' | 'production'): Promise<void> {
  const start = new Date();
  const res = await app.post('/api/client/metrics', {
    appName: 'lifecycle-app', instanceId: 'lifecycle-1',
    bucket: { start: start.toISOString(), stop: new Date(start.getTime() + 10_000).toISOString(), toggles: { [feature]: { yes: 3, no: 1 } } },
  }, { token: tokens[environment] });
  expect(res.status).toBe(202);
}
const stagesOf = async (name: string) => ((await app.get(L(name))).body as Array<{ stage: string }>).map((s) => s.stage);

const Lifecycle = graphql(`
  query LifecycleOfFeature($name: String!) {
    feature(name: $name) {
      name
      potentiallyStale
      environments { name lifecycleStage }
      lifecycle { stage enteredStageAt trafficAfterDiscard potentiallyStale stages { stage enteredAt leftAt durationMs status statusValue } }
    }
    project(id: "default") { lifecycleCounts { initial preLive live completed archived discardedWithTraffic } }
  }
`);
const Complete = graphql(`
  mutation CompleteFeatureLifecycle($input: CompleteFeatureInput!) { completeFeature(input: $input) { stage stages { stage status statusValue } } }
`);
const Uncomplete = graphql(`
  mutation UncompleteFeatureLifecycle($input: FeatureRefInput!) { uncompleteFeature(input: $input) { stage } }
`);

beforeAll(async () => {
  app = await startTestApp({ metricsFlushMs: 50 });
  for (const environment of ['development', 'production'] as const) {
    const res = await app.post('/api/admin/api-tokens', { tokenName: `lc-${environment}`, type: 'client', environment, projects: ['default'] });
    tokens[environment] = res.body.secret;
  }
});
afterAll(async () => { await app.close(); });

describe('stages entered by what happens to a flag', () => {
  it('goes initial → pre-live (switched on in development) → live (reported in production) → completed → archived', async () => {
    expect((await app.post(F, { name: 'lc-walk' })).status).toBe(201);
    const created = await app.get(L('lc-walk'));
    expect(created.status).toBe(200);
    expect(created.body).toEqual([{ stage: 'initial', enteredStageAt: expect.any(String) }]);

    expect((await app.post(`${F}/lc-walk/environments/development/on`)).status).toBe(200);
    expect(await stagesOf('lc-walk')).toEqual(['initial', 'pre-live']);
    // Switching on in production is not pre-live by itself; nor is entering a stage twice anything new.
    expect((await app.post(`${F}/lc-walk/environments/development/off`)).status).toBe(200);
    expect((await app.post(`${F}/lc-walk/environments/development/on`)).status).toBe(200);
    expect(await stagesOf('lc-walk')).toEqual(['initial', 'pre-live']);

    await report('lc-walk', 'production');
    await until(async () => (await stagesOf('lc-walk')).includes('live'), 'live after a production report');
    const live = (await app.gql(Lifecycle, { name: 'lc-walk' })).body.data!.feature!;
    expect(live.lifecycle.stage).toBe('live');
    expect(live.lifecycle.stages.map((s) => [s.stage, s.leftAt === null])).toEqual([['initial', false], ['preLive', false], ['live', true]]);
    for (const s of live.lifecycle.stages) expect(s.durationMs).toBeGreaterThanOrEqual(0);
    expect(live.lifecycle.stages[0].leftAt).toBe(live.lifecycle.stages[1].enteredAt);
    expect(Object.fromEntries(live.environments.map((e) => [e.name, e.lifecycleStage]))).toEqual({ development: 'preLive', production: 'live' });

    const completed = await app.post(`${L('lc-walk')}/complete`, { status: 'kept', statusValue: 'variant-b' });
    expect(completed.status).toBe(200);
    expect(completed.body.map((s: any) => s.stage)).toEqual(['initial', 'pre-live', 'live', 'completed']);
    expect(completed.body[3]).toMatchObject({ status: 'kept', statusValue: 'variant-b' });
    const [event] = await app.events('feature-completed');
    expect(event).toMatchObject({ featureName: 'lc-walk', project: 'default', data: { status: 'kept', statusValue: 'variant-b' } });

    expect((await app.del(`${F}/lc-walk`)).status).toBe(202);
    expect(await stagesOf('lc-walk')).toEqual(['initial', 'pre-live', 'live', 'completed', 'archived']);
  });

  it('a first report in production enters pre-live and live at once; one elsewhere pre-live only', async () => {
    for (const name of ['lc-prod', 'lc-dev']) expect((await app.post(F, { name })).status).toBe(201);
    await report('lc-prod', 'production');
    await report('lc-dev', 'development');
    await until(async () => (await stagesOf('lc-prod')).length === 3 && (await stagesOf('lc-dev')).length === 2, 'stages from reports');
    const prod = (await app.get(L('lc-prod'))).body;
    expect(prod.map((s: any) => s.stage)).toEqual(['initial', 'pre-live', 'live']);
    expect(prod[1].enteredStageAt).toBe(prod[2].enteredStageAt);
    expect(await stagesOf('lc-dev')).toEqual(['initial', 'pre-live']);
  });
});

describe('completing', () => {
  it('warns when a discarded flag is still reported, counts it in its project, and can be taken back', async () => {
    expect((await app.post(F, { name: 'lc-gone' })).status).toBe(201);
    await report('lc-gone', 'production');
    await until(async () => (await stagesOf('lc-gone')).includes('live'), 'live');
    const done = await app.gql(Complete, { input: { project: 'default', feature: 'lc-gone', status: 'discarded' } });
    expect(done.body.errors).toBeUndefined();
    expect(done.body.data!.completeFeature).toMatchObject({ stage: 'completed', stages: expect.arrayContaining([{ stage: 'completed', status: 'discarded', statusValue: null }]) });
    let read = (await app.gql(Lifecycle, { name: 'lc-gone' })).body.data!;
    expect(read.feature!.lifecycle.trafficAfterDiscard).toBe(false);
    const before = read.project!.lifecycleCounts;

    await new Promise((r) => setTimeout(r, 10));
    await report('lc-gone', 'production');
    read = await until(async () => {
      const d = (await app.gql(Lifecycle, { name: 'lc-gone' })).body.data!;
      return d.feature!.lifecycle.trafficAfterDiscard && d;
    }, 'the warning');
    expect(read.project!.lifecycleCounts.discardedWithTraffic).toBe(before.discardedWithTraffic + 1);

    // Completing again with another status changes the status, not when it was completed.
    const enteredAt = read.feature!.lifecycle.enteredStageAt;
    const kept = await app.post(`${L('lc-gone')}/complete`, { status: 'kept' });
    expect(kept.body.find((s: any) => s.stage === 'completed')).toEqual({ stage: 'completed', status: 'kept', enteredStageAt: enteredAt });
    expect((await app.events('feature-completed')).filter((e) => e.featureName === 'lc-gone')).toHaveLength(2);
    // The same again changes nothing and writes no event.
    await app.post(`${L('lc-gone')}/complete`, { status: 'kept' });
    expect((await app.events('feature-completed')).filter((e) => e.featureName === 'lc-gone')).toHaveLength(2);

    const undone = await app.gql(Uncomplete, { input: { project: 'default', feature: 'lc-gone' } });
    expect(undone.body.data!.uncompleteFeature.stage).toBe('live');
    expect((await app.events('feature-uncompleted')).filter((e) => e.featureName === 'lc-gone')).toHaveLength(1);
    expect((await app.post(`${L('lc-gone')}/uncomplete`)).status).toBe(200);
    expect((await app.events('feature-uncompleted')).filter((e) => e.featureName === 'lc-gone')).toHaveLength(1);
  });

  it('refuses a bad body with a 400, an unknown flag with a 404 and a viewer with a 403, changing nothing', async () => {
    expect((await app.post(F, { name: 'lc-bad' })).status).toBe(201);
    for (const [body, path] of [[{ status: 'maybe' }, 'status'], [{}, 'status'], [{ status: 'kept', statusValue: 'x'.repeat(201) }, 'statusValue'], [{ status: 'kept', extra: 1 }, 'extra']] as const) {
      const res = await app.post(`${L('lc-bad')}/complete`, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ name: 'ValidationError', details: [expect.objectContaining({ path })] });
    }
    expect((await app.post(`${L('lc-nope')}/complete`, { status: 'kept' })).status).toBe(404);
    expect((await app.get(L('lc-nope'))).status).toBe(404);
    expect((await app.get(`/api/admin/projects/other/features/lc-bad/lifecycle`)).status).toBe(404);

    await app.post('/api/admin/user-admin', { username: 'lc-viewer', password: 'Lifecycle-Pass-42', rootRole: 'Viewer' });
    const login = await app.post('/auth/simple/login', { username: 'lc-viewer', password: 'Lifecycle-Pass-42' }, { token: null });
    const viewer = { token: null, headers: { cookie: (login.headers.get('set-cookie') ?? '').split(';')[0], 'content-type': 'application/json' } };
    const refused = await app.post(`${L('lc-bad')}/complete`, { status: 'kept' }, viewer);
    expect(refused.status).toBe(403);
    expect(refused.body.name).toBe('NoAccessError');
    expect((await app.get(L('lc-bad'), viewer)).status).toBe(200);
    expect(await stagesOf('lc-bad')).toEqual(['initial']);
  });
});
