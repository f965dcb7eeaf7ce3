import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';
import { HistoryRetention } from '../../../src/domain/history/history-retention';
import { createLogger } from '../../../src/logger';

/**
 * Issue 43 through GraphQL: a flag's versions equal REST's, the flag at an instant, the playground as of an instant,
 * revert and its marked events; and the retention that prunes versions past their keeping time.
 */
let app: TestApp;
const F = '/api/admin/projects/default/features';
const instants: string[] = [];
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const Versions = graphql(`query GqlHistoryVersions($name: String!, $first: Int, $before: Int) {
  feature(name: $name) { versions(first: $first, before: $before) {
    version revision createdAt createdBy createdByUserId archived deleted events { id type createdBy createdByUserId createdAt environment } diff { path before after }
  } }
}`);
const At = graphql(`query GqlHistoryAt($project: String!, $feature: String!, $at: DateTime) {
  featureAt(project: $project, feature: $feature, at: $at) { name description enabled environments { name enabled strategies { name parameters } } }
}`);
const Playground = graphql(`query GqlHistoryPlayground($input: PlaygroundInput!) { playground(input: $input) { name isEnabled } }`);
const Revert = graphql(`mutation GqlHistoryRevert($input: RevertFeatureInput!) {
  revertFeature(input: $input) { version changes { action environment payload } drafts { environment changeRequestId } }
}`);
const RevertedEvents = graphql(`query GqlHistoryEvents { events(first: 20) { nodes { type featureName revertOf { featureName version eventId } } } }`);

beforeAll(async () => {
  app = await startTestApp();
  await app.post(F, { name: 'gh', description: 'one' });
  await tick();
  instants.push(new Date().toISOString());
  await app.post(`${F}/gh/environments/development/on`);
  await app.put(`${F}/gh`, { description: 'two' });
  await tick();
  instants.push(new Date().toISOString());
});
afterAll(async () => { await app.close(); });

describe('history in GraphQL', () => {
  it('lists the versions REST lists, paged the same way', async () => {
    const gql = await app.gql(Versions, { name: 'gh' });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data!.feature.versions).toEqual((await app.get(`${F}/gh/versions`)).body.versions);
    const page = await app.gql(Versions, { name: 'gh', first: 1, before: 3 });
    expect(page.body.data!.feature.versions.map((v) => v.version)).toEqual([2]);
  });

  it('answers the flag as it was, and the playground as of an instant', async () => {
    const then = await app.gql(At, { project: 'default', feature: 'gh', at: instants[0] });
    expect(then.body.data!.featureAt).toMatchObject({ name: 'gh', description: 'one', enabled: false });
    const missing = await app.gql(At, { project: 'default', feature: 'gh', at: '2001-01-01T00:00:00Z' });
    expect(missing.body.errors?.[0].extensions.name).toBe('NotFoundError');
    const evaluate = async (at?: string) => (await app.gql(Playground, { input: { environment: 'development', context: { appName: 'a' }, ...(at ? { at } : {}) } }))
      .body.data!.playground.find((f) => f.name === 'gh')?.isEnabled;
    expect([await evaluate(instants[0]), await evaluate(instants[1]), await evaluate()]).toEqual([false, true, true]);
  });

  it('reverts through the mutation, and the events say so', async () => {
    const res = await app.gql(Revert, { input: { project: 'default', feature: 'gh', version: 1 } });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.revertFeature.changes.map((c) => c.action)).toEqual(['updateFeature', 'deleteStrategy']);
    const events = (await app.gql(RevertedEvents)).body.data!.events.nodes.filter((e) => e.revertOf);
    expect(events.map((e) => e.type).sort()).toEqual(['feature-environment-disabled', 'feature-metadata-updated', 'feature-strategy-remove']);
    for (const e of events) expect(e.revertOf).toEqual({ featureName: 'gh', version: 1, eventId: null });
    const denied = await app.gql(Revert, { input: { project: 'default', feature: 'gh', version: 99 } });
    expect(denied.body.errors?.[0].extensions.name).toBe('NotFoundError');
  });
});

describe('retention', () => {
  it('prunes versions past keeping, keeps the last one before the cut, and refuses instants before it', async () => {
    await app.post(F, { name: 'gh-old', description: 'a' });
    await app.put(`${F}/gh-old`, { description: 'b' });
    await app.put(`${F}/gh-old`, { description: 'c' });
    // Versions 1 and 2 a hundred days old, 3 a day old.
    await app.orm.em.fork().execute(`update feature_versions set committed_at = now() - interval '100 days' where feature_name = 'gh-old' and version < 3`);
    await app.orm.em.fork().execute(`update feature_versions set committed_at = now() - interval '1 day' where feature_name = 'gh-old' and version = 3`);
    const gone = await new HistoryRetention(app.orm, 90, createLogger('silent')).prune();
    expect(gone).toBeGreaterThanOrEqual(1);
    expect((await app.get(`${F}/gh-old/versions`)).body.versions.map((v: any) => v.version)).toEqual([3, 2]);
    // An instant after the cut still has the flag as it was then; one before it is refused.
    const afterCut = new Date(Date.now() - 50 * 86_400_000).toISOString();
    expect((await app.get(`${F}/gh-old?at=${afterCut}`)).body.description).toBe('b');
    const beforeCut = await app.get(`${F}/gh-old?at=${new Date(Date.now() - 95 * 86_400_000).toISOString()}`);
    expect([beforeCut.status, beforeCut.body.name, beforeCut.body.details[0].path]).toEqual([400, 'ValidationError', 'at']);
    // Keeping forever prunes nothing.
    expect(await new HistoryRetention(app.orm, 0, createLogger('silent')).prune()).toBe(0);
  });
});
