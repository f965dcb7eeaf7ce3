import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Principal } from '../../../src/domain/access/principal';
import { ROLE_VIEWER } from '../../../src/domain/access/permissions';
import { NoAccessError } from '../../../src/domain/errors';
import { createServices, type Services } from '../../../src/domain/services';
import { startTestApp, type TestApp } from '../../support/harness';

/** The archive round trip (spec endpoint 6): archive, list, revive, delete for good, one at a time and in bulk. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  expect((await app.post('/api/admin/projects', { id: 'other', name: 'Other' })).status).toBe(201);
  for (const [project, name] of [['default', 'arch-a'], ['default', 'arch-b'], ['default', 'arch-c'], ['other', 'elsewhere']]) {
    expect((await app.post(features(project), { name, description: `${name} description` })).status).toBe(201);
  }
  // arch-a gets the works: a strategy with a segment, enabled in development, environment variants, a tag.
  const segment = await app.post('/api/admin/segments', { name: 'beta-users', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] });
  expect(segment.status).toBe(201);
  const strategy = await app.post(`${feature('default', 'arch-a')}/environments/development/strategies`, {
    name: 'flexibleRollout', parameters: { rollout: '30', stickiness: 'default', groupId: 'arch-a' }, segments: [segment.body.id],
  });
  expect(strategy.status).toBe(200);
  expect((await app.post(`${feature('default', 'arch-a')}/environments/development/on`)).status).toBe(200);
  expect((await app.put(`${feature('default', 'arch-a')}/environments/production/variants`, [{ name: 'blue', weightType: 'variable', stickiness: 'default' }])).status).toBe(200);
  expect((await app.post('/api/admin/features/arch-a/tags', { value: 'archivable' })).status).toBe(201);
  // Metrics are not part of this API: mark arch-a as seen in production directly.
  await sql(`update feature_environments set last_seen_at = '2030-01-02T03:04:05.678Z' where feature_name = 'arch-a' and environment = 'production'`);
});
afterAll(async () => { await app.close(); });

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
function features(project: string) { return `/api/admin/projects/${project}/features`; }
function feature(project: string, name: string) { return `${features(project)}/${name}`; }
function sql(query: string, params: unknown[] = []): Promise<any[]> { return app.orm.em.fork().execute(query, params); }
const bulk = (project: string, action: 'archive' | 'revive' | 'delete', body: unknown) => app.post(`/api/admin/projects/${project}/${action}`, body);

const expectError = (res: { status: number; body: any }, status: number, name: string) => {
  expect({ status: res.status, name: res.body?.name }).toEqual({ status, name });
  expect(typeof res.body.id).toBe('string');
  expect(typeof res.body.message).toBe('string');
};
const lastEventId = async (): Promise<number> => (await app.get('/api/admin/events?limit=1')).body.events[0]?.id ?? 0;
const eventsSince = async (id: number): Promise<any[]> => (await app.events()).filter((e) => e.id > id).reverse();
const names = (list: Array<{ name: string }>) => list.map((f) => f.name);
const projectList = async (project = 'default') => names((await app.get(features(project))).body.features);
const archived = async (path = '/api/admin/archive/features') => (await app.get(path)).body.features as any[];

async function snapshot(): Promise<Record<string, unknown>> {
  const tables = ['features', 'feature_environments', 'feature_strategies', 'feature_strategy_segments', 'feature_tags', 'tags', 'feature_dependencies'];
  const out: Record<string, unknown> = {};
  for (const t of tables) out[t] = (await sql(`select to_jsonb(t)::text as row from ${t} t order by 1`)).map((r) => r.row);
  out.events = (await app.get('/api/admin/events?limit=1')).body.totalEvents;
  return out;
}
async function changesNothing<T>(failing: () => Promise<T>): Promise<T> {
  const before = await snapshot();
  const result = await failing();
  expect(await snapshot()).toEqual(before);
  return result;
}
const rowCounts = async (name: string) => (await sql(
  `select (select count(*) from features where name = ?)::int as features,
          (select count(*) from feature_environments where feature_name = ?)::int as environments,
          (select count(*) from feature_strategies where feature_name = ?)::int as strategies,
          (select count(*) from feature_strategy_segments s join feature_strategies fs on fs.id = s.feature_strategy_id where fs.feature_name = ?)::int as segments,
          (select count(*) from feature_tags where feature_name = ?)::int as tags`, [name, name, name, name, name]))[0];

let beforeArchive: any;

describe('archiving a feature', () => {
  it('DELETE on a project feature archives it: 202, no body, feature-archived with the feature tags', async () => {
    beforeArchive = (await app.get(feature('default', 'arch-a'))).body;
    expect(beforeArchive.enabled).toBe(true);
    const since = await lastEventId();
    const res = await app.del(feature('default', 'arch-a'));
    expect(res.status).toBe(202);
    expect(res.body).toBe('');
    expect(await eventsSince(since)).toEqual([{
      id: expect.any(Number), type: 'feature-archived', createdAt: ISO, createdBy: 'admin', createdByUserId: -1337,
      project: 'default', environment: null, featureName: 'arch-a', data: null, preData: null, tags: [{ type: 'simple', value: 'archivable' }],
    }]);
    expect(await projectList()).toEqual(['arch-b', 'arch-c']);
    expectError(await app.get(feature('default', 'arch-a')), 404, 'NotFoundError');
    // The configuration is kept for a revive.
    expect(await rowCounts('arch-a')).toEqual({ features: 1, environments: 2, strategies: 1, segments: 1, tags: 1 });
  });

  it('answers 404 NotFoundError for an unknown feature, an archived one, and one of another project, changing nothing', async () => {
    expectError(await changesNothing(() => app.del(feature('default', 'nope'))), 404, 'NotFoundError');
    expectError(await changesNothing(() => app.del(feature('default', 'arch-a'))), 404, 'NotFoundError');
    expectError(await changesNothing(() => app.del(feature('other', 'arch-b'))), 404, 'NotFoundError');
  });

  it('an archived feature cannot be changed through the project paths (404)', async () => {
    expectError(await changesNothing(() => app.put(feature('default', 'arch-a'), { description: 'x' })), 404, 'NotFoundError');
    expectError(await changesNothing(() => app.post(`${feature('default', 'arch-a')}/environments/development/strategies`, { name: 'default' })), 404, 'NotFoundError');
    expectError(await changesNothing(() => app.post(`${feature('default', 'arch-a')}/environments/development/on`)), 404, 'NotFoundError');
  });
});

describe('listing archived features (spec endpoint 6)', () => {
  it('GET /archive/features answers {version: 2, features} with archived and archivedAt, and the environments last seen', async () => {
    const res = await app.get('/api/admin/archive/features');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['features', 'version']);
    expect(res.body.version).toBe(2);
    expect(res.body.features).toEqual([{
      name: 'arch-a', type: 'release', description: 'arch-a description', project: 'default', stale: false, impressionData: false,
      createdAt: beforeArchive.createdAt, archivedAt: ISO, archived: true, lastSeenAt: null, favorite: false,
      environments: [{ name: 'production', lastSeenAt: '2030-01-02T03:04:05.678Z', enabled: false }],
    }]);
    expect(Date.parse(res.body.features[0].archivedAt)).toBeGreaterThanOrEqual(Date.parse(beforeArchive.createdAt));
  });

  it('GET /archive/features/:p lists one project; another or an unknown project gives an empty list', async () => {
    const own = await app.get('/api/admin/archive/features/default');
    expect(own.status).toBe(200);
    expect(own.body).toEqual((await app.get('/api/admin/archive/features')).body);
    expect((await app.get('/api/admin/archive/features/other')).body).toEqual({ version: 2, features: [] });
    const unknown = await app.get('/api/admin/archive/features/nope');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ version: 2, features: [] });
  });

  it('answers 401 AuthenticationRequired without a token', async () => {
    expectError(await app.get('/api/admin/archive/features', { token: null }), 401, 'AuthenticationRequired');
    expectError(await app.get('/api/admin/archive/features/default', { token: null }), 401, 'AuthenticationRequired');
  });
});

describe('reviving a feature', () => {
  it('POST /archive/revive/:f brings it back (200) switched off everywhere, configuration kept, with feature-revived', async () => {
    const since = await lastEventId();
    const res = await app.post('/api/admin/archive/revive/arch-a');
    expect(res.status).toBe(200);
    expect(await eventsSince(since)).toEqual([expect.objectContaining({
      type: 'feature-revived', project: 'default', environment: null, featureName: 'arch-a', data: null, preData: null,
      tags: [{ type: 'simple', value: 'archivable' }],
    })]);
    expect(await projectList()).toEqual(['arch-a', 'arch-b', 'arch-c']);
    expect(await archived()).toEqual([]);
    const revived = (await app.get(feature('default', 'arch-a'))).body;
    expect(revived.environments.map((e: any) => [e.name, e.enabled])).toEqual([['development', false], ['production', false]]);
    // Everything but the on/off switch is as it was before the archive.
    const switchedOff = {
      ...beforeArchive,
      enabled: false,
      environments: beforeArchive.environments.map((e: any) => ({ ...e, enabled: false, ...(e.name === 'production' ? { lastSeenAt: '2030-01-02T03:04:05.678Z' } : {}) })),
    };
    expect(revived).toEqual(switchedOff);
  });

  it('answers 404 NotFoundError for an active or unknown feature, changing nothing', async () => {
    expectError(await changesNothing(() => app.post('/api/admin/archive/revive/arch-a')), 404, 'NotFoundError');
    expectError(await changesNothing(() => app.post('/api/admin/archive/revive/nope')), 404, 'NotFoundError');
  });
});

describe('deleting a feature for good', () => {
  it('refuses to delete a feature that is not archived: 403 InvalidOperationError, nothing changes', async () => {
    const res = await changesNothing(() => app.del('/api/admin/archive/arch-a'));
    expectError(res, 403, 'InvalidOperationError');
    expect(res.body.message).toBe('The feature arch-a must be archived before it can be deleted.');
    expectError(await changesNothing(() => app.del('/api/admin/archive/nope')), 404, 'NotFoundError');
  });

  it('DELETE /archive/:f deletes an archived feature (200) with feature-deleted carrying preData and tags', async () => {
    expect((await app.del(feature('default', 'arch-a'))).status).toBe(202);
    const [row] = await archived();
    const since = await lastEventId();
    const res = await app.del('/api/admin/archive/arch-a');
    expect(res.status).toBe(200);
    expect(await eventsSince(since)).toEqual([{
      id: expect.any(Number), type: 'feature-deleted', createdAt: ISO, createdBy: 'admin', createdByUserId: -1337,
      project: 'default', environment: null, featureName: 'arch-a', data: null,
      preData: {
        name: 'arch-a', description: 'arch-a description', type: 'release', project: 'default', stale: false, createdAt: row.createdAt,
        lastSeenAt: null, impressionData: false, archivedAt: row.archivedAt, archived: true,
      },
      tags: [{ type: 'simple', value: 'archivable' }],
    }]);
    expect(await rowCounts('arch-a')).toEqual({ features: 0, environments: 0, strategies: 0, segments: 0, tags: 0 });
    expect(await archived()).toEqual([]);
    // The tag and the segment themselves stay; the name is free again.
    expect((await app.get('/api/admin/tags/simple/archivable')).status).toBe(200);
    expect((await app.get('/api/admin/segments')).body.segments.map((s: any) => s.name)).toEqual(['beta-users']);
    expect((await app.post('/api/admin/features/validate', { name: 'arch-a' })).status).toBe(200);
    expectError(await changesNothing(() => app.del('/api/admin/archive/arch-a')), 404, 'NotFoundError');
  });
});

describe('bulk archive, revive and delete', () => {
  it('archives several features in one request (202), one feature-archived each', async () => {
    const since = await lastEventId();
    const res = await bulk('default', 'archive', { features: ['arch-b', 'arch-c'] });
    expect(res.status).toBe(202);
    expect((await eventsSince(since)).map((e) => [e.type, e.project, e.featureName]))
      .toEqual([['feature-archived', 'default', 'arch-b'], ['feature-archived', 'default', 'arch-c']]);
    expect(await projectList()).toEqual([]);
    expect(names(await archived('/api/admin/archive/features/default'))).toEqual(['arch-b', 'arch-c']);
  });

  it('revives several in one request (200), one feature-revived each', async () => {
    const since = await lastEventId();
    const res = await bulk('default', 'revive', { features: ['arch-b', 'arch-c'] });
    expect(res.status).toBe(200);
    expect((await eventsSince(since)).map((e) => [e.type, e.featureName])).toEqual([['feature-revived', 'arch-b'], ['feature-revived', 'arch-c']]);
    expect(await projectList()).toEqual(['arch-b', 'arch-c']);
  });

  it('one unknown name, or a feature of another project, makes the whole archive fail (404) and nothing changes', async () => {
    expectError(await changesNothing(() => bulk('default', 'archive', { features: ['arch-b', 'nope'] })), 404, 'NotFoundError');
    expectError(await changesNothing(() => bulk('default', 'archive', { features: ['arch-b', 'elsewhere'] })), 404, 'NotFoundError');
    expect(await projectList()).toEqual(['arch-b', 'arch-c']);
  });

  it('refuses bad bodies with 400 ValidationError for each bulk action', async () => {
    for (const action of ['archive', 'revive', 'delete'] as const) {
      for (const body of [{ features: [] }, {}, { features: 'arch-b' }, { features: ['arch-b'], extra: true }, [{ features: ['arch-b'] }]]) {
        const res = await changesNothing(() => bulk('default', action, body));
        expectError(res, 400, 'ValidationError');
        expect(res.body.details.length).toBeGreaterThan(0);
      }
    }
  });

  it('a bulk revive or delete that names an active or unknown feature fails as a whole', async () => {
    expect((await bulk('default', 'archive', { features: ['arch-c'] })).status).toBe(202);
    expectError(await changesNothing(() => bulk('default', 'revive', { features: ['arch-c', 'arch-b'] })), 404, 'NotFoundError');
    expectError(await changesNothing(() => bulk('default', 'revive', { features: ['arch-c', 'nope'] })), 404, 'NotFoundError');
    expectError(await changesNothing(() => bulk('default', 'delete', { features: ['arch-c', 'arch-b'] })), 403, 'InvalidOperationError');
    expectError(await changesNothing(() => bulk('default', 'delete', { features: ['arch-c', 'nope'] })), 404, 'NotFoundError');
    // A feature archived in another project is not deleted through this one.
    expect((await app.del(feature('other', 'elsewhere'))).status).toBe(202);
    expectError(await changesNothing(() => bulk('default', 'delete', { features: ['arch-c', 'elsewhere'] })), 404, 'NotFoundError');
    expectError(await changesNothing(() => bulk('default', 'revive', { features: ['elsewhere'] })), 404, 'NotFoundError');
  });

  it('deletes several archived features in one request (200), one feature-deleted each', async () => {
    expect((await bulk('default', 'archive', { features: ['arch-b'] })).status).toBe(202);
    const since = await lastEventId();
    const res = await bulk('default', 'delete', { features: ['arch-b', 'arch-c'] });
    expect(res.status).toBe(200);
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.project, e.featureName])).toEqual([['feature-deleted', 'default', 'arch-b'], ['feature-deleted', 'default', 'arch-c']]);
    expect(events[0].preData).toMatchObject({ name: 'arch-b', archived: true, archivedAt: ISO });
    expect(await archived('/api/admin/archive/features/default')).toEqual([]);
    expect(names(await archived())).toEqual(['elsewhere']);
  });
});

describe('concurrent bulk requests (they really race on PostgreSQL, whose pool has 5 connections)', () => {
  it('two bulk archives naming the same features in opposite orders: one archives them all, the other gets 404 (no deadlock)', async () => {
    const names = ['race-1', 'race-2', 'race-3', 'race-4'];
    for (const name of names) expect((await app.post(features('default'), { name })).status).toBe(201);
    const since = await lastEventId();
    const replies = await Promise.all([bulk('default', 'archive', { features: names }), bulk('default', 'archive', { features: [...names].reverse() })]);
    expect(replies.map((r) => r.status).sort()).toEqual([202, 404]);
    expect(replies.find((r) => r.status === 404)?.body.name).toBe('NotFoundError');
    expect((await eventsSince(since)).filter((e) => e.type === 'feature-archived')).toHaveLength(4);
    expect((await bulk('default', 'delete', { features: names })).status).toBe(200);
  });
});

describe('archiving and dependencies', () => {
  beforeAll(async () => {
    for (const name of ['dep-parent', 'dep-child', 'dep-other']) expect((await app.post(features('default'), { name })).status).toBe(201);
    expect((await app.post(`${feature('default', 'dep-child')}/dependencies`, { feature: 'dep-parent' })).status).toBe(200);
  });

  it('refuses to archive a parent an active feature depends on: 403 InvalidOperationError, nothing changes', async () => {
    const res = await changesNothing(() => app.del(feature('default', 'dep-parent')));
    expectError(res, 403, 'InvalidOperationError');
    expect(res.body.message).toContain('dep-child');
    expectError(await changesNothing(() => bulk('default', 'archive', { features: ['dep-other', 'dep-parent'] })), 403, 'InvalidOperationError');
  });

  it('archives parent and child together; the child loses its dependency (feature-dependencies-removed)', async () => {
    const since = await lastEventId();
    expect((await bulk('default', 'archive', { features: ['dep-parent', 'dep-child'] })).status).toBe(202);
    expect((await eventsSince(since)).map((e) => [e.type, e.featureName])).toEqual([
      ['feature-archived', 'dep-parent'], ['feature-dependencies-removed', 'dep-child'], ['feature-archived', 'dep-child'],
    ]);
    expect(await sql(`select * from feature_dependencies`)).toEqual([]);
    expect((await bulk('default', 'revive', { features: ['dep-parent', 'dep-child'] })).status).toBe(200);
    const child = (await app.get(feature('default', 'dep-child'))).body;
    expect(child.dependencies).toEqual([]);
    expect((await app.get(feature('default', 'dep-parent'))).body.children).toEqual([]);
  });
});

describe('permissions (service level)', () => {
  const viewer: Principal = { kind: 'user', name: 'viewer@example.com', userId: 300, isAdmin: false, rootRoleId: ROLE_VIEWER };
  const as = () => createServices(app.orm.em.fork(), viewer);

  it.each<[string, string, (s: Services) => Promise<unknown>]>([
    ['features.archive', 'DELETE_FEATURE', (s) => s.features.archive('default', 'dep-other')],
    ['features.archiveMany', 'DELETE_FEATURE', (s) => s.features.archiveMany('default', { features: ['dep-other'] })],
    ['features.revive', 'UPDATE_FEATURE', (s) => s.features.revive('elsewhere')],
    ['features.reviveMany', 'UPDATE_FEATURE', (s) => s.features.reviveMany('other', { features: ['elsewhere'] })],
    ['features.deleteArchived', 'DELETE_FEATURE', (s) => s.features.deleteArchived('elsewhere')],
    ['features.deleteMany', 'DELETE_FEATURE', (s) => s.features.deleteMany('other', { features: ['elsewhere'] })],
  ])('%s needs %s: a Viewer gets NoAccessError and nothing changes', async (_name, permission, call) => {
    const error = await changesNothing(() => call(as()).then(() => null, (e: unknown) => e));
    expect(error).toBeInstanceOf(NoAccessError);
    expect((error as NoAccessError).permission).toBe(permission);
  });
});
