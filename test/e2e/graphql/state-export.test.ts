import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';

/** Query.stateExport: the same export as GET /api/admin/state/export (spec endpoint 16), from the same service call. */
let app: TestApp;
let viewerToken: string;

const PASSWORD = 'State-Export-42';
const feature = (project: string, name: string) => `/api/admin/projects/${project}/features/${name}`;
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);

async function must(method: string, path: string, body?: unknown): Promise<any> {
  const res = await app.request(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const GqlStateExportAll = graphql(`
  query GqlStateExportAll($strategies: Boolean! = true, $featureToggles: Boolean! = true, $projects: Boolean! = true, $tags: Boolean! = true, $environments: Boolean! = true) {
    stateExport(strategies: $strategies, featureToggles: $featureToggles, projects: $projects, tags: $tags, environments: $environments) {
      version
      features { name description type project stale createdAt lastSeenAt impressionData archivedAt archived }
      strategies { title name displayName description editable deprecated parameters { name type description required } }
      projects {
        id name description health featureCount memberCount createdAt updatedAt favorite mode defaultStickiness
        featureNaming { pattern example description }
      }
      tagTypes { name description icon }
      tags { type value }
      featureTags { featureName tagType tagValue createdByUserId }
      featureStrategies {
        id featureName projectId environment strategyName title parameters
        constraints { contextName operator values value caseInsensitive inverted }
        variants { name weight weightType stickiness payload { type value } }
        createdAt disabled
      }
      environments { name type sortOrder enabled protected }
      featureEnvironments {
        enabled featureName environment
        variants { name weight weightType stickiness payload { type value } overrides { contextName values } }
      }
      segments {
        id name description project createdBy createdAt usedInProjects usedInFeatures
        constraints { contextName operator values value caseInsensitive inverted }
      }
      featureStrategySegments { featureStrategyId segmentId }
    }
  }
`);

/** REST leaves out what GraphQL answers as null or []: a constraint's `value`, a variant's `payload` and `overrides`, the naming pattern. */
function asGraphql(rest: any): any {
  const constraint = (c: any) => ({ value: null, ...c });
  const variant = (v: any) => ({ payload: null, ...v });
  return {
    ...rest,
    projects: rest.projects.map((p: any) => ({ ...p, featureNaming: { pattern: null, example: null, description: null, ...p.featureNaming } })),
    featureStrategies: rest.featureStrategies.map((s: any) => ({ ...s, constraints: s.constraints.map(constraint), variants: s.variants.map(variant) })),
    featureEnvironments: rest.featureEnvironments.map((e: any) => ({ ...e, variants: e.variants.map((v: any) => ({ overrides: [], ...variant(v) })) })),
    segments: rest.segments.map((s: any) => ({ ...s, constraints: s.constraints.map(constraint) })),
  };
}

beforeAll(async () => {
  app = await startTestApp();
  const viewerId = (await must('POST', '/api/admin/user-admin', { username: 'gse-viewer', password: PASSWORD, rootRole: 'Viewer' })).id;
  const login = await app.post('/auth/simple/login', { username: 'gse-viewer', password: PASSWORD }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  viewerToken = (await app.post('/api/admin/user/tokens', { description: 'gse', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } })).body.secret;

  await must('POST', '/api/admin/strategies', { name: 'gseCustom', parameters: [{ name: 'level', type: 'number', required: true }] });
  await must('POST', '/api/admin/tag-types', { name: 'gse-team' });
  await must('POST', '/api/admin/tags', { type: 'gse-team', value: 'core' });
  const segment = (await must('POST', '/api/admin/segments', {
    name: 'gse-segment', constraints: [{ contextName: 'userId', operator: 'NUM_GT', value: '10' }],
  })).id;
  await must('POST', '/api/admin/projects', { id: 'gse', name: 'GraphQL export' });
  await must('PUT', '/api/admin/projects/gse/settings', { featureNaming: { pattern: 'gse-.*' } });
  await must('POST', '/api/admin/projects/gse/access', { roles: [5], users: [{ id: viewerId }] });
  await must('POST', '/api/admin/projects/gse/features', { name: 'gse-one', description: 'One' });
  await must('POST', `${feature('gse', 'gse-one')}/environments/production/strategies`, {
    name: 'flexibleRollout', parameters: { rollout: '25', stickiness: 'userId', groupId: 'gse-one' },
    constraints: [{ contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['web'], inverted: true }], segments: [segment],
    variants: [{ name: 'a', weightType: 'variable', stickiness: 'default' }, { name: 'b', weightType: 'fix', weight: 200, stickiness: 'default', payload: { type: 'number', value: '2' } }],
  });
  await must('POST', `${feature('gse', 'gse-one')}/environments/development/strategies`, { name: 'gseCustom', parameters: { level: '3' } });
  await must('PUT', `${feature('gse', 'gse-one')}/environments/production/variants`, [
    { name: 'red', weightType: 'variable', stickiness: 'default' },
    { name: 'green', weightType: 'variable', stickiness: 'default', overrides: [{ contextName: 'userId', values: ['1'] }] },
  ]);
  await must('POST', `${feature('gse', 'gse-one')}/environments/production/on`);
  await must('POST', '/api/admin/features/gse-one/tags', { type: 'gse-team', value: 'core' });
  await must('POST', '/api/admin/projects/default/features', { name: 'gse-two', type: 'kill-switch' });
});
afterAll(async () => { await app.close(); });

describe('Query.stateExport', () => {
  it('needs a token (401 AuthenticationRequired) and ADMIN (NoAccessError naming it)', async () => {
    const anonymous = await app.gql(GqlStateExportAll, {}, { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errors![0].extensions).toMatchObject({ name: 'AuthenticationRequired', code: 401 });
    const viewer = await app.gql(GqlStateExportAll, {}, { token: viewerToken });
    expect(viewer.body.data ?? null).toBeNull();
    expect(viewer.body.errors![0].extensions).toMatchObject({ name: 'NoAccessError', code: 403, permissions: ['ADMIN'] });
  });

  it('agrees with the REST export, section by section', async () => {
    const rest = (await app.get('/api/admin/state/export')).body;
    const res = await app.gql(GqlStateExportAll, {});
    expect(res.body.errors).toBeUndefined();
    const data = res.body.data!.stateExport;
    expect(data).toEqual(asGraphql(rest));
    // The data set reaches every section.
    for (const [key, value] of Object.entries(data)) if (key !== 'version') expect({ key, rows: (value as unknown[]).length > 0 }).toEqual({ key, rows: true });
    expect(data.features.map((f) => f.name)).toEqual(['gse-one', 'gse-two']);
    expect(data.projects.find((p) => p.id === 'gse')).toMatchObject({ featureCount: 1, memberCount: 1, featureNaming: { pattern: 'gse-.*', example: null, description: null } });
    expect(data.featureStrategies.map((s) => [s.environment, s.strategyName])).toEqual([['development', 'gseCustom'], ['production', 'flexibleRollout']]);
  });

  it('each argument set false empties its sections as the REST flag does', async () => {
    for (const flag of ['strategies', 'featureToggles', 'projects', 'tags', 'environments'] as const) {
      const rest = (await app.get(`/api/admin/state/export?${flag}=false`)).body;
      const res = await app.gql(GqlStateExportAll, { [flag]: false });
      expect(res.body.errors).toBeUndefined();
      expect({ flag, data: res.body.data!.stateExport }).toEqual({ flag, data: asGraphql(rest) });
    }
    const tagsOnly = (await app.gql(GqlStateExportAll, { featureToggles: false })).body.data!.stateExport;
    expect(tagsOnly.tags.length).toBeGreaterThan(0);
    expect(tagsOnly.featureTags).toEqual([]);
    expect(tagsOnly.segments.length).toBe(1);
    expect(tagsOnly.featureStrategySegments.length).toBe(1);
  });

  it('writes no event', async () => {
    const count = async () => Number((await sql('select count(*)::int as n from events'))[0].n);
    const before = await count();
    expect((await app.gql(GqlStateExportAll, {})).body.errors).toBeUndefined();
    expect(await count()).toBe(before);
  });
});
