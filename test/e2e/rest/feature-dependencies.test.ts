import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Principal } from '../../../src/domain/access/principal';
import { ROLE_EDITOR, ROLE_VIEWER } from '../../../src/domain/access/permissions';
import { NoAccessError } from '../../../src/domain/errors';
import { createServices } from '../../../src/domain/services';
import { startTestApp, type TestApp } from '../../support/harness';

/** Parent dependencies of features: add, replace, remove one or all, and how they show on the Feature. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  expect((await app.post('/api/admin/projects', { id: 'other', name: 'Other' })).status).toBe(201);
  for (const name of ['parent', 'child', 'child2', 'grandchild', 'second-parent', 'gone']) {
    expect((await app.post(features('default'), { name })).status).toBe(201);
  }
  expect((await app.post(features('other'), { name: 'foreign' })).status).toBe(201);
  expect((await app.del(feature('default', 'gone'))).status).toBe(202);
});
afterAll(async () => { await app.close(); });

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
function features(project: string) { return `/api/admin/projects/${project}/features`; }
function feature(project: string, name: string) { return `${features(project)}/${name}`; }
const deps = (child: string, project = 'default') => `${feature(project, child)}/dependencies`;
const addDep = (child: string, body: unknown, project = 'default') => app.post(deps(child, project), body);
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);

const expectError = (res: { status: number; body: any }, status: number, name: string) => {
  expect({ status: res.status, name: res.body?.name }).toEqual({ status, name });
  expect(typeof res.body.id).toBe('string');
  expect(typeof res.body.message).toBe('string');
};
const lastEventId = async (): Promise<number> => (await app.get('/api/admin/events?limit=1')).body.events[0]?.id ?? 0;
const eventsSince = async (id: number): Promise<any[]> => (await app.events()).filter((e) => e.id > id).reverse();
const read = async (name: string, project = 'default') => (await app.get(feature(project, name))).body;

async function snapshot(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const t of ['features', 'feature_dependencies']) out[t] = (await sql(`select to_jsonb(t)::text as row from ${t} t order by 1`)).map((r) => r.row);
  out.events = (await app.get('/api/admin/events?limit=1')).body.totalEvents;
  return out;
}
async function changesNothing<T>(failing: () => Promise<T>): Promise<T> {
  const before = await snapshot();
  const result = await failing();
  expect(await snapshot()).toEqual(before);
  return result;
}

describe('adding a dependency', () => {
  it('adds a parent (200, no body) with feature-dependency-added {feature, enabled}; shown as dependencies and children', async () => {
    const since = await lastEventId();
    const res = await addDep('child', { feature: 'parent' });
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    expect(await eventsSince(since)).toEqual([{
      id: expect.any(Number), type: 'feature-dependency-added', createdAt: ISO, createdBy: 'admin', createdByUserId: -1337,
      project: 'default', environment: null, featureName: 'child', data: { feature: 'parent', enabled: true }, preData: null, tags: [],
    }]);
    expect(await read('child')).toMatchObject({ dependencies: [{ feature: 'parent', enabled: true }], children: [] });
    expect(await read('parent')).toMatchObject({ dependencies: [], children: ['child'] });
  });

  it('records required variants, and they show on the child', async () => {
    const since = await lastEventId();
    expect((await addDep('child2', { feature: 'parent', enabled: true, variants: ['v1', 'v2'] })).status).toBe(200);
    const [event] = await eventsSince(since);
    expect(event).toMatchObject({ type: 'feature-dependency-added', featureName: 'child2', data: { feature: 'parent', enabled: true, variants: ['v1', 'v2'] } });
    expect((await read('child2')).dependencies).toEqual([{ feature: 'parent', enabled: true, variants: ['v1', 'v2'] }]);
    expect((await read('parent')).children).toEqual(['child', 'child2']);
  });

  it('adding the same parent again replaces the dependency (one row), here with "parent must be disabled"', async () => {
    const since = await lastEventId();
    expect((await addDep('child2', { feature: 'parent', enabled: false })).status).toBe(200);
    const [event] = await eventsSince(since);
    expect(event).toMatchObject({ type: 'feature-dependency-added', featureName: 'child2', data: { feature: 'parent', enabled: false } });
    expect(event.data).not.toHaveProperty('variants');
    expect((await read('child2')).dependencies).toEqual([{ feature: 'parent', enabled: false }]);
    expect(await sql(`select parent, child, enabled from feature_dependencies where child = 'child2'`)).toEqual([{ parent: 'parent', child: 'child2', enabled: false }]);
  });

  it('a child may have several parents; later feature events carry the child tags as usual', async () => {
    expect((await app.post('/api/admin/features/child/tags', { value: 'dependent' })).status).toBe(201);
    const since = await lastEventId();
    expect((await addDep('child', { feature: 'second-parent' })).status).toBe(200);
    const [event] = await eventsSince(since);
    expect(event.tags).toEqual([{ type: 'simple', value: 'dependent' }]);
    expect((await read('child')).dependencies).toEqual([{ feature: 'parent', enabled: true }, { feature: 'second-parent', enabled: true }]);
  });
});

describe('refused dependencies change nothing', () => {
  it.each<[string, string, unknown, string]>([
    ['a parent in another project', 'child', { feature: 'foreign' }, 'feature'],
    ['the feature itself', 'child', { feature: 'child' }, 'feature'],
    ['variants with enabled false', 'grandchild', { feature: 'parent', enabled: false, variants: ['v1'] }, 'variants'],
    ['an unknown parent', 'grandchild', { feature: 'nope' }, 'feature'],
    ['an archived parent', 'grandchild', { feature: 'gone' }, 'feature'],
    ['a missing feature', 'grandchild', { enabled: true }, 'feature'],
    ['an unknown property', 'grandchild', { feature: 'parent', optional: true }, 'optional'],
    ['variants that are not a list', 'grandchild', { feature: 'parent', variants: 'v1' }, 'variants'],
  ])('400 ValidationError for %s', async (_label, child, body, path) => {
    const res = await changesNothing(() => addDep(child, body));
    expectError(res, 400, 'ValidationError');
    expect(res.body.details.map((d: any) => d.path)).toEqual([path]);
  });

  it('403 InvalidOperationError for a parent that itself has a parent (dependencies are one level deep)', async () => {
    const res = await changesNothing(() => addDep('grandchild', { feature: 'child' }));
    expectError(res, 403, 'InvalidOperationError');
    expect(res.body.message).toContain('child');
  });

  it('403 InvalidOperationError for a child that is itself a parent', async () => {
    const res = await changesNothing(() => addDep('parent', { feature: 'grandchild' }));
    expectError(res, 403, 'InvalidOperationError');
    expect(res.body.message).toContain('parent');
  });

  it('404 NotFoundError for an unknown child, a child of another project and an archived child', async () => {
    expectError(await changesNothing(() => addDep('nope', { feature: 'parent' })), 404, 'NotFoundError');
    expectError(await changesNothing(() => addDep('child', { feature: 'parent' }, 'other')), 404, 'NotFoundError');
    expectError(await changesNothing(() => addDep('gone', { feature: 'parent' })), 404, 'NotFoundError');
  });

  it('401 AuthenticationRequired without a token', async () => {
    expectError(await changesNothing(() => app.post(deps('grandchild'), { feature: 'parent' }, { token: null })), 401, 'AuthenticationRequired');
    expectError(await changesNothing(() => app.del(deps('child'), { token: null })), 401, 'AuthenticationRequired');
  });
});

describe('removing dependencies', () => {
  it('DELETE .../dependencies/:parent removes one (200) with feature-dependency-removed {feature}', async () => {
    const since = await lastEventId();
    const res = await app.del(`${deps('child')}/second-parent`);
    expect(res.status).toBe(200);
    expect(await eventsSince(since)).toEqual([expect.objectContaining({
      type: 'feature-dependency-removed', project: 'default', environment: null, featureName: 'child',
      data: { feature: 'second-parent' }, preData: null, tags: [{ type: 'simple', value: 'dependent' }],
    })]);
    expect((await read('child')).dependencies).toEqual([{ feature: 'parent', enabled: true }]);
    expect((await read('second-parent')).children).toEqual([]);
  });

  it('answers 404 NotFoundError when the child does not depend on that parent, or is unknown', async () => {
    const res = await changesNothing(() => app.del(`${deps('child')}/second-parent`));
    expectError(res, 404, 'NotFoundError');
    expectError(await changesNothing(() => app.del(`${deps('child')}/nope`)), 404, 'NotFoundError');
    expectError(await changesNothing(() => app.del(`${deps('nope')}/parent`)), 404, 'NotFoundError');
    expectError(await changesNothing(() => app.del(`${deps('child', 'other')}/parent`)), 404, 'NotFoundError');
  });

  it('DELETE .../dependencies removes all of them (200) with one feature-dependencies-removed', async () => {
    expect((await addDep('child', { feature: 'second-parent', variants: ['x'] })).status).toBe(200);
    const since = await lastEventId();
    const res = await app.del(deps('child'));
    expect(res.status).toBe(200);
    expect(await eventsSince(since)).toEqual([expect.objectContaining({
      type: 'feature-dependencies-removed', project: 'default', environment: null, featureName: 'child', data: null, preData: null,
    })]);
    expect((await read('child')).dependencies).toEqual([]);
    expect((await read('parent')).children).toEqual(['child2']);
  });

  it('removing all dependencies of a feature that has none answers 200 and writes no event; unknown feature 404', async () => {
    const since = await lastEventId();
    expect((await app.del(deps('child'))).status).toBe(200);
    expect(await eventsSince(since)).toEqual([]);
    expectError(await changesNothing(() => app.del(deps('nope'))), 404, 'NotFoundError');
  });

  it('once child has no parent it may become a parent', async () => {
    expect((await addDep('grandchild', { feature: 'child' })).status).toBe(200);
    expect(await read('child')).toMatchObject({ dependencies: [], children: ['grandchild'] });
  });
});

describe('concurrent requests (they really race on PostgreSQL, whose pool has 5 connections)', () => {
  it('adding a -> b and b -> c at the same time cannot build a two-level chain: one succeeds, the other is 403', async () => {
    for (const name of ['race-a', 'race-b', 'race-c']) expect((await app.post(features('default'), { name })).status).toBe(201);
    for (let round = 0; round < 3; round++) {
      const replies = await Promise.all([addDep('race-a', { feature: 'race-b' }), addDep('race-b', { feature: 'race-c' })]);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 403]);
      expect(replies.find((r) => r.status === 403)?.body.name).toBe('InvalidOperationError');
      expect(await sql(`select parent, child from feature_dependencies where child like 'race-%'`)).toHaveLength(1);
      for (const child of ['race-a', 'race-b']) expect((await app.del(deps(child))).status).toBe(200);
    }
  });
});

describe('permissions (service level)', () => {
  const user = (rootRoleId: number): Principal => ({ kind: 'user', name: `u${rootRoleId}@example.com`, userId: 500 + rootRoleId, isAdmin: false, rootRoleId });

  it('every dependency change needs UPDATE_FEATURE_DEPENDENCY, which neither a Viewer nor an Editor holds', async () => {
    for (const role of [ROLE_VIEWER, ROLE_EDITOR]) {
      const s = () => createServices(app.orm.em.fork(), user(role)).features;
      for (const call of [
        () => s().addDependency('default', 'second-parent', { feature: 'parent' }),
        () => s().removeDependency('default', 'child2', 'parent'),
        () => s().removeDependencies('default', 'child2'),
      ]) {
        const error = await changesNothing(() => call().then(() => null, (e: unknown) => e));
        expect(error).toBeInstanceOf(NoAccessError);
        expect((error as NoAccessError).permission).toBe('UPDATE_FEATURE_DEPENDENCY');
      }
    }
  });
});
