import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 44, `Query.featureIndex`: every active flag in one list, for the Flags page and the command palette. Each entry
 * agrees with what `Feature` says of the same flag (switch, staleness, tags, lifecycle), archived flags are left out,
 * and the list is one statement however many flags there are.
 */
let app: TestApp;

const Index = graphql(`query FeatureIndexAll { featureIndex { name project type description stale potentiallyStale enabled createdAt lastSeenAt tags { type value } stage } }`);
const One = graphql(`query FeatureIndexOne($name: String!) { feature(name: $name) { name project type description stale potentiallyStale enabled createdAt lastSeenAt tags { type value } lifecycle { stage } } }`);

beforeAll(async () => {
  app = await startTestApp();
  expect((await app.post('/api/admin/projects', { id: 'fi-other', name: 'Other' })).status).toBe(201);
  const F = (p: string) => `/api/admin/projects/${p}/features`;
  for (const [project, name, body] of [['default', 'fi-on', {}], ['default', 'fi-stale', { type: 'kill-switch' }], ['fi-other', 'fi-tagged', { description: 'Tagged one' }], ['default', 'fi-gone', {}]] as const) {
    expect((await app.post(F(project), { name, ...body })).status).toBe(201);
  }
  expect((await app.post(`${F('default')}/fi-on/environments/development/on`)).status).toBe(200);
  expect((await app.post('/api/admin/features/fi-stale/stale/on')).status).toBe(200);
  expect((await app.post('/api/admin/features/fi-tagged/tags', { type: 'simple', value: 'checkout' })).status).toBeLessThan(300);
  // Old enough for its type's lifetime (release: 40 days): potentially stale.
  await app.orm.em.fork().execute(`update features set created_at = now() - interval '50 days' where name = 'fi-tagged'`);
  expect((await app.del(`${F('default')}/fi-gone`)).status).toBe(202);
});
afterAll(async () => { await app.close(); });

describe('featureIndex', () => {
  it('lists every active flag by name, each as Feature says it is', async () => {
    app.resetQueryCount();
    const res = await app.gql(Index, {});
    expect(res.body.errors).toBeUndefined();
    expect(app.queries.filter((q) => /\bfrom features f\b/.test(q))).toHaveLength(1);
    const index = res.body.data!.featureIndex;
    expect(index.map((f) => f.name)).toEqual(['fi-on', 'fi-stale', 'fi-tagged']);
    for (const entry of index) {
      const { feature } = (await app.gql(One, { name: entry.name })).body.data!;
      const { lifecycle, ...rest } = feature;
      expect({ ...entry }).toEqual({ ...rest, stage: lifecycle.stage });
    }
    expect(index.find((f) => f.name === 'fi-on')).toMatchObject({ enabled: true, stage: 'preLive' });
    expect(index.find((f) => f.name === 'fi-stale')).toMatchObject({ stale: true, potentiallyStale: false });
    expect(index.find((f) => f.name === 'fi-tagged')).toMatchObject({ project: 'fi-other', potentiallyStale: true, tags: [{ type: 'simple', value: 'checkout' }] });
  });
});
