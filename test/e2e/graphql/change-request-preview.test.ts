import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';

/** `ChangeRequest.preview(contexts)`: the same answer as REST `POST …/change-requests/:id/preview`, the same errors. */
let app: TestApp;
const P = '/api/admin/projects/gcp';
const fe = (f: string) => `${P}/features/${f}/environments/development`;
let request: number;

async function ok<T = any>(call: Promise<{ status: number; body: T }>, status = 200): Promise<T> {
  const res = await call;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

const GqlCrPreview = graphql(`
  query GqlCrPreview($project: String!, $id: Int!, $contexts: [PlaygroundContextInput!]!) {
    changeRequest(project: $project, id: $id) {
      id
      preview(contexts: $contexts) {
        environment changedCount
        warnings { changeId action feature message }
        features {
          name project reasons
          before { ...GqlCrPreviewConfig }
          after { ...GqlCrPreviewConfig }
          results { context changed before { name isEnabled variant { name enabled } } after { name isEnabled variant { name enabled } } }
        }
      }
    }
  }
  fragment GqlCrPreviewConfig on ChangeRequestPreviewConfiguration {
    enabled
    strategies { id name title disabled featureName sortOrder parameters segmentIds }
    variants { name weight weightType stickiness }
    dependencies { feature enabled variants }
  }
`);

const contexts = Array.from({ length: 200 }, (_, i) => ({ appName: 'gql-preview', userId: `u-${i}` }));

beforeAll(async () => {
  app = await startTestApp();
  await ok(app.post('/api/admin/projects', { id: 'gcp', name: 'GraphQL preview' }), 201);
  for (const f of ['gcp-rollout', 'gcp-child']) await ok(app.post(`${P}/features`, { name: f }), 201);
  const strategy = (await ok(app.post(`${fe('gcp-rollout')}/strategies`, { name: 'flexibleRollout', parameters: { rollout: '10', stickiness: 'default', groupId: 'gcp-rollout' } }))).id;
  await ok(app.put(`${fe('gcp-rollout')}/variants`, [{ name: 'v1', weightType: 'variable', stickiness: 'default' }]));
  await ok(app.post(`${fe('gcp-rollout')}/on`));
  await ok(app.post(`${fe('gcp-child')}/strategies`, { name: 'default' }));
  await ok(app.post(`${fe('gcp-child')}/on`));
  await ok(app.post(`${P}/features/gcp-child/dependencies`, { feature: 'gcp-rollout' }));
  request = (await ok(app.post(`${P}/environments/development/change-requests`, [
    { action: 'updateStrategy', feature: 'gcp-rollout', payload: { id: strategy, parameters: { rollout: '50', stickiness: 'default', groupId: 'gcp-rollout' } } },
  ]))).id;
});
afterAll(async () => { await app.close(); });

const config = (c: any) => c && ({
  enabled: c.enabled,
  strategies: c.strategies.map((s: any) => ({ id: s.id, name: s.name, title: s.title, disabled: s.disabled, featureName: s.featureName, sortOrder: s.sortOrder, parameters: s.parameters, segmentIds: s.segments })),
  variants: c.variants.map((v: any) => ({ name: v.name, weight: v.weight, weightType: v.weightType, stickiness: v.stickiness })),
  dependencies: c.dependencies.map((d: any) => ({ feature: d.feature, enabled: d.enabled, variants: d.variants ?? [] })),
});
const result = (r: any) => r && ({ name: r.name, isEnabled: r.isEnabled, variant: { name: r.variant.name, enabled: r.variant.enabled } });

describe('ChangeRequest.preview', () => {
  it('answers what REST answers', async () => {
    const rest = await ok(app.post(`${P}/change-requests/${request}/preview`, { contexts }));
    const res = await app.gql(GqlCrPreview, { project: 'gcp', id: request, contexts });
    expect(res.body.errors).toBeUndefined();
    const preview = res.body.data!.changeRequest.preview;
    expect(preview).toEqual({
      environment: rest.environment,
      changedCount: rest.changedCount,
      warnings: rest.warnings,
      features: rest.features.map((f: any) => ({
        name: f.name, project: f.project, reasons: f.reasons, before: config(f.before), after: config(f.after),
        results: f.results.map((r: any) => ({ context: r.context, changed: r.changed, before: result(r.before), after: result(r.after) })),
      })),
    });
    // The rollout and the feature depending on it flip for the same contexts.
    expect(preview.features.map((f) => [f.name, f.reasons])).toEqual([['gcp-rollout', ['change']], ['gcp-child', ['parent']]]);
    const flipped = (name: string) => preview.features.find((f) => f.name === name)!.results.filter((r) => r.changed).map((r) => (r.context as { userId: string }).userId);
    expect(flipped('gcp-rollout').length).toBeGreaterThan(40);
    expect(flipped('gcp-child')).toEqual(flipped('gcp-rollout'));
    expect(preview.changedCount).toBe(2 * flipped('gcp-rollout').length);
  });

  it('bad contexts are a ValidationError naming the property; an unknown request a NotFoundError', async () => {
    const bad = await app.gql(GqlCrPreview, { project: 'gcp', id: request, contexts: [{ appName: 'a' }, { appName: 'b', currentTime: 'soon' }] });
    expect(bad.body.errors?.[0].extensions).toMatchObject({ name: 'ValidationError', details: [{ path: 'contexts/1/currentTime' }] });
    const none = await app.gql(GqlCrPreview, { project: 'gcp', id: request, contexts: [] });
    expect(none.body.errors?.[0].extensions).toMatchObject({ name: 'ValidationError', details: [{ path: 'contexts' }] });
    const unknown = await app.gql(GqlCrPreview, { project: 'gcp', id: 999_999, contexts });
    expect(unknown.body.errors?.[0].extensions.name).toBe('NotFoundError');
  });

  it('1000 contexts fit the cost budget', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ appName: 'gql-preview', userId: `m-${i}` }));
    const res = await app.gql(GqlCrPreview, { project: 'gcp', id: request, contexts: many });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.changeRequest.preview.features[0].results).toHaveLength(1000);
  });
});
