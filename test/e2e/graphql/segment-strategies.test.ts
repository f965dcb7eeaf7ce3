import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Segment.strategies: which feature strategies use a segment, so the segments page can say where one is used (and why
 * deleting it is refused). The same list as GET /api/admin/segments/:id/strategies.
 */
let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

const SegUseCreate = graphql(`mutation SegUseCreate($input: CreateSegmentInput!) { createSegment(input: $input) { id } }`);
const SegUseStrategies = graphql(`
  query SegUseStrategies($id: Int!) {
    segment(id: $id) { usedInFeatures strategies { id featureName project environment strategyName } }
  }
`);
const SegUseAll = graphql(`query SegUseAll { segments { name strategies { featureName environment } } }`);

describe('GraphQL Segment.strategies', () => {
  it('lists the strategies that use a segment, as REST does, and none for an unused one', async () => {
    const used = await app.gql(SegUseCreate, { input: { name: 'beta users', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] } });
    const unused = await app.gql(SegUseCreate, { input: { name: 'nobody' } });
    const id = used.body.data!.createSegment.id;
    const otherId = unused.body.data!.createSegment.id;
    for (const name of ['banner', 'checkout']) {
      expect((await app.post('/api/admin/projects/default/features', { name })).status).toBe(201);
    }
    const strategyIds: string[] = [];
    for (const [feature, env] of [['checkout', 'development'], ['banner', 'production'], ['banner', 'development']]) {
      const res = await app.post(`/api/admin/projects/default/features/${feature}/environments/${env}/strategies`, { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: feature }, segments: [id] });
      expect(res.status).toBe(200);
      strategyIds.push(res.body.id);
    }

    const res = await app.gql(SegUseStrategies, { id });
    expect(res.body.errors).toBeUndefined();
    const { segment } = res.body.data!;
    expect(segment.usedInFeatures).toBe(2);
    // By feature, then environment.
    expect(segment.strategies).toEqual([
      { id: strategyIds[2], featureName: 'banner', project: 'default', environment: 'development', strategyName: 'flexibleRollout' },
      { id: strategyIds[1], featureName: 'banner', project: 'default', environment: 'production', strategyName: 'flexibleRollout' },
      { id: strategyIds[0], featureName: 'checkout', project: 'default', environment: 'development', strategyName: 'flexibleRollout' },
    ]);
    const rest = (await app.get(`/api/admin/segments/${id}/strategies`)).body.strategies;
    expect(segment.strategies.map((s) => ({ id: s.id, featureName: s.featureName, projectId: s.project, environment: s.environment, strategyName: s.strategyName }))).toEqual(rest);

    const none = await app.gql(SegUseStrategies, { id: otherId });
    expect(none.body.data!.segment).toEqual({ usedInFeatures: 0, strategies: [] });
  });

  it('answers for every segment of a list', async () => {
    const res = await app.gql(SegUseAll, {});
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.segments.map((s) => [s.name, s.strategies.length])).toEqual([['beta users', 3], ['nobody', 0]]);
  });
});
