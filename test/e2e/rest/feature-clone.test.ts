import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Principal } from '../../../src/domain/access/principal';
import { ROLE_EDITOR, ROLE_VIEWER } from '../../../src/domain/access/permissions';
import { NoAccessError } from '../../../src/domain/errors';
import { createServices } from '../../../src/domain/services';
import { startTestApp, type TestApp } from '../../support/harness';

/** Cloning a feature (spec endpoint 5, design D3). */

let app: TestApp;
let segmentId: number;
let source: any;

beforeAll(async () => {
  app = await startTestApp();
  for (const id of ['other', 'patterned', 'limited', 'devonly']) expect((await app.post('/api/admin/projects', { id, name: id })).status).toBe(201);
  expect((await app.put('/api/admin/projects/patterned/settings', { featureNaming: { pattern: 'pt-.+', example: 'pt-x' } })).status).toBe(200);
  expect((await app.put('/api/admin/projects/limited', { name: 'limited', featureLimit: 1 })).status).toBe(200);
  expect((await app.del('/api/admin/projects/devonly/environments/production')).status).toBe(200);

  const segment = await app.post('/api/admin/segments', { name: 'clone-seg', constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }] });
  expect(segment.status).toBe(201);
  segmentId = segment.body.id;

  expect((await app.post(features('default'), { name: 'src-parent' })).status).toBe(201);
  expect((await app.post(features('default'), { name: 'src', type: 'experiment', description: 'The source', impressionData: true })).status).toBe(201);
  const strategies: Array<[string, Record<string, unknown>]> = [
    ['development', {
      name: 'flexibleRollout', title: 'Half of web users', sortOrder: 5, segments: [segmentId],
      parameters: { rollout: '50', stickiness: 'userId', groupId: 'src' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['1', '2'], inverted: true }],
      variants: [{ name: 'a', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'x' } }],
    }],
    ['development', { name: 'default', title: 'Switched off', disabled: true, sortOrder: 1 }],
    ['production', { name: 'userWithId', parameters: { userIds: '7,8' } }],
  ];
  for (const [env, body] of strategies) expect((await app.post(`${feature('default', 'src')}/environments/${env}/strategies`, body)).status).toBe(200);
  expect((await app.post(`${feature('default', 'src')}/environments/development/on`)).status).toBe(200);
  expect((await app.put(`${feature('default', 'src')}/environments/production/variants`, [
    { name: 'blue', weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"b":1}' } },
    { name: 'green', weightType: 'fix', weight: 300, stickiness: 'default', overrides: [{ contextName: 'userId', values: ['9'] }] },
  ])).status).toBe(200);
  expect((await app.post(`${feature('default', 'src')}/dependencies`, { feature: 'src-parent', variants: ['v1'] })).status).toBe(200);
  expect((await app.post('/api/admin/features/src/tags', { value: 'not-copied' })).status).toBe(201);
  source = (await app.get(feature('default', 'src'))).body;
  expect(source.environments.map((e: any) => [e.name, e.enabled, e.strategies.length, e.variants.length])).toEqual([['development', true, 2, 0], ['production', false, 1, 2]]);
});
afterAll(async () => { await app.close(); });

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
function features(project: string) { return `/api/admin/projects/${project}/features`; }
function feature(project: string, name: string) { return `${features(project)}/${name}`; }
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);
const clone = (project: string, from: string, body: unknown, token?: null) => app.post(`${feature(project, from)}/clone`, body, token === null ? { token } : {});

const expectError = (res: { status: number; body: any }, status: number, name: string) => {
  expect({ status: res.status, name: res.body?.name }).toEqual({ status, name });
  expect(typeof res.body.id).toBe('string');
  expect(typeof res.body.message).toBe('string');
};
const lastEventId = async (): Promise<number> => (await app.get('/api/admin/events?limit=1')).body.events[0]?.id ?? 0;
const eventsSince = async (id: number): Promise<any[]> => (await app.events()).filter((e) => e.id > id).reverse();

async function snapshot(): Promise<Record<string, unknown>> {
  const tables = ['features', 'feature_environments', 'feature_strategies', 'feature_strategy_segments', 'feature_tags', 'feature_dependencies'];
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

/** What the source's configuration must look like once copied to `name`: ids new, environments off, groupId per `groupId`. */
function expectedEnvironments(name: string, groupId: (old: string) => string) {
  return source.environments.map((e: any) => ({
    ...e, featureName: name, enabled: false,
    strategies: e.strategies.map((s: any) => ({
      ...s, id: expect.stringMatching(/^[0-9a-f-]{36}$/), featureName: name,
      parameters: 'groupId' in s.parameters ? { ...s.parameters, groupId: groupId(s.parameters.groupId) } : s.parameters,
    })),
  }));
}

describe('cloning a feature', () => {
  let copy: any;

  it('answers 201 with the new feature: metadata, strategies, variants and dependencies copied, all environments off, no tags', async () => {
    const since = await lastEventId();
    const res = await clone('default', 'src', { name: 'src-copy' });
    expect(res.status).toBe(201);
    copy = res.body;
    expect(copy).toEqual({
      ...source, name: 'src-copy', createdAt: ISO, enabled: false, tags: [], children: [],
      environments: expectedEnvironments('src-copy', () => 'src-copy'),
      dependencies: [{ feature: 'src-parent', enabled: true, variants: ['v1'] }],
    });
    expect(copy).toMatchObject({ type: 'experiment', description: 'The source', impressionData: true, project: 'default' });
    expect(Date.parse(copy.createdAt)).toBeGreaterThan(Date.parse(source.createdAt));
    const newIds = copy.environments.flatMap((e: any) => e.strategies.map((s: any) => s.id));
    const oldIds = source.environments.flatMap((e: any) => e.strategies.map((s: any) => s.id));
    expect(newIds.filter((id: string) => oldIds.includes(id))).toEqual([]);
    expect((await app.get(feature('default', 'src-copy'))).body).toEqual(copy);
    expect((await app.get('/api/admin/features/src-copy/tags')).body.tags).toEqual([]);

    const events = await eventsSince(since);
    expect(events[0]).toEqual({
      id: expect.any(Number), type: 'feature-created', createdAt: ISO, createdBy: 'admin', createdByUserId: -1337,
      project: 'default', environment: null, featureName: 'src-copy', preData: null, tags: [],
      data: {
        name: 'src-copy', description: 'The source', type: 'experiment', project: 'default', stale: false, createdAt: copy.createdAt,
        lastSeenAt: null, impressionData: true, archivedAt: null, archived: false,
      },
    });
    const adds = events.filter((e) => e.type === 'feature-strategy-add');
    const copied = copy.environments.flatMap((e: any) => e.strategies.map((s: any) => ({ environment: e.name, s })));
    expect(adds).toHaveLength(3);
    for (const { environment, s } of copied) {
      const { featureName: _f, ...data } = s;
      expect(adds).toContainEqual(expect.objectContaining({ project: 'default', environment, featureName: 'src-copy', data, preData: null }));
    }
    expect(events.filter((e) => e.type === 'feature-dependency-added')).toEqual([expect.objectContaining({
      project: 'default', environment: null, featureName: 'src-copy', data: { feature: 'src-parent', enabled: true, variants: ['v1'] },
    })]);
    // Nothing else: no variants event, no environment switched, no tag.
    expect(events.map((e) => e.type).sort()).toEqual(['feature-created', 'feature-dependency-added', 'feature-strategy-add', 'feature-strategy-add', 'feature-strategy-add']);
  });

  it('leaves the source as it was, and the parent now lists both children', async () => {
    expect((await app.get(feature('default', 'src'))).body).toEqual(source);
    expect((await app.get(feature('default', 'src-parent'))).body.children).toEqual(['src', 'src-copy']);
  });

  it('keeps groupId when replaceGroupId is false, and accepts extra body properties', async () => {
    const res = await clone('default', 'src', { name: 'src-keep', replaceGroupId: false, description: 'ignored' });
    expect(res.status).toBe(201);
    expect(res.body.environments).toEqual(expectedEnvironments('src-keep', (old) => old));
    expect(res.body.environments[0].strategies.find((s: any) => s.name === 'flexibleRollout').parameters.groupId).toBe('src');
    expect(res.body.description).toBe('The source');
  });

  it('clones into another project: the copy lives there; a parent of the source project is not copied', async () => {
    const since = await lastEventId();
    const res = await clone('other', 'src', { name: 'src-other' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      ...source, name: 'src-other', project: 'other', createdAt: ISO, enabled: false, tags: [], children: [], dependencies: [],
      environments: expectedEnvironments('src-other', () => 'src-other'),
    });
    expect((await app.get(feature('other', 'src-other'))).body).toEqual(res.body);
    expect((await app.get(features('other'))).body.features.map((f: any) => f.name)).toEqual(['src-other']);
    const events = await eventsSince(since);
    expect(events.every((e) => e.project === 'other' && e.featureName === 'src-other')).toBe(true);
    expect(events.map((e) => e.type).sort()).toEqual(['feature-created', 'feature-strategy-add', 'feature-strategy-add', 'feature-strategy-add']);
    expect(await sql(`select distinct project from feature_strategies where feature_name = 'src-other'`)).toEqual([{ project: 'other' }]);
  });

  it('clones a feature without configuration', async () => {
    const res = await clone('default', 'src-parent', { name: 'bare-copy' });
    expect(res.status).toBe(201);
    expect(res.body.environments.map((e: any) => [e.name, e.enabled, e.strategies, e.variants])).toEqual([['development', false, [], []], ['production', false, [], []]]);
    expect(res.body).toMatchObject({ type: 'release', description: null, impressionData: false, dependencies: [], children: [] });
  });
});

describe('refused clones change nothing', () => {
  it('409 NameExistsError for a taken name, active or archived', async () => {
    const active = await changesNothing(() => clone('default', 'src', { name: 'src-copy' }));
    expectError(active, 409, 'NameExistsError');
    expect(active.body.message).toBe('A toggle with that name already exists');
    expect((await app.del(feature('default', 'bare-copy'))).status).toBe(202);
    const archived = await changesNothing(() => clone('default', 'src', { name: 'bare-copy' }));
    expectError(archived, 409, 'NameExistsError');
    expect(archived.body.message).toBe('An archived toggle with that name already exists');
  });

  it('404 NotFoundError for an unknown or archived source, and for an unknown target project', async () => {
    const unknown = await changesNothing(() => clone('default', 'nope', { name: 'from-nothing' }));
    expectError(unknown, 404, 'NotFoundError');
    expect(unknown.body.message).toBe('Could not find feature toggle with name nope');
    expectError(await changesNothing(() => clone('default', 'bare-copy', { name: 'from-archive' })), 404, 'NotFoundError');
    const project = await changesNothing(() => clone('nope', 'src', { name: 'to-nowhere' }));
    expectError(project, 404, 'NotFoundError');
    expect(project.body.message).toBe('Project with id nope does not exist');
  });

  it.each<[string, unknown, string]>([
    ['a name with a space', { name: 'bad name' }, 'name'],
    ['a 101-character name', { name: 'c'.repeat(101) }, 'name'],
    ['the name ".."', { name: '..' }, 'name'],
    ['a missing name', {}, 'name'],
    ['a non-boolean replaceGroupId', { name: 'ok-name', replaceGroupId: 'no' }, 'replaceGroupId'],
  ])('400 ValidationError for %s', async (_label, body, path) => {
    const res = await changesNothing(() => clone('default', 'src', body));
    expectError(res, 400, 'ValidationError');
    expect([...new Set(res.body.details.map((d: any) => d.path))]).toEqual([path]);
  });

  it("400 PatternError when the name misses the target project's pattern; a matching name is cloned", async () => {
    const res = await changesNothing(() => clone('patterned', 'src', { name: 'src-pattern' }));
    expectError(res, 400, 'PatternError');
    expect(res.body.details).toEqual([{ message: 'The flag name does not match the pattern.' }]);
    const ok = await clone('patterned', 'src', { name: 'pt-src' });
    expect(ok.status).toBe(201);
    expect(ok.body.project).toBe('patterned');
  });

  it('403 InvalidOperationError when the target project is at its feature limit', async () => {
    expect((await clone('limited', 'src-parent', { name: 'limited-1' })).status).toBe(201);
    const res = await changesNothing(() => clone('limited', 'src-parent', { name: 'limited-2' }));
    expectError(res, 403, 'InvalidOperationError');
  });

  it('400 ValidationError when the target project lacks an environment the source has strategies in', async () => {
    const res = await changesNothing(() => clone('devonly', 'src', { name: 'src-devonly' }));
    expectError(res, 400, 'ValidationError');
    expect(res.body.message).toContain('production');
  });

  it('400 ValidationError when a strategy uses a segment of another project, which the target project may not use', async () => {
    const scoped = await app.post('/api/admin/segments', { name: 'default-only', project: 'default', constraints: [] });
    expect(scoped.status).toBe(201);
    expect((await app.post(features('default'), { name: 'scoped-src' })).status).toBe(201);
    expect((await app.post(`${feature('default', 'scoped-src')}/environments/development/strategies`, { name: 'default', segments: [scoped.body.id] })).status).toBe(200);
    // Adding that strategy to a feature of another project is refused ...
    expect((await app.post(`${feature('other', 'src-other')}/environments/development/strategies`, { name: 'default', segments: [scoped.body.id] })).status).toBe(400);
    // ... and so is cloning it there; within its own project the clone works.
    const res = await changesNothing(() => clone('other', 'scoped-src', { name: 'scoped-other' }));
    expectError(res, 400, 'ValidationError');
    expect((await clone('default', 'scoped-src', { name: 'scoped-copy' })).body.environments[0].strategies[0].segments).toEqual([scoped.body.id]);
  });

  it('401 AuthenticationRequired without a token', async () => {
    expectError(await changesNothing(() => clone('default', 'src', { name: 'anon-copy' }, null)), 401, 'AuthenticationRequired');
  });

  it('needs CREATE_FEATURE in the target project (service level): a Viewer is refused, an Editor outside default; copying dependencies needs UPDATE_FEATURE_DEPENDENCY', async () => {
    const user = (rootRoleId: number): Principal => ({ kind: 'user', name: `u${rootRoleId}@example.com`, userId: 400 + rootRoleId, isAdmin: false, rootRoleId });
    const attempt = (rootRoleId: number, project: string) => changesNothing(() => createServices(app.orm.em.fork(), user(rootRoleId)).features
      .clone(project, 'src', { name: `by-${rootRoleId}-${project}` }).then(() => null, (e: unknown) => e));
    for (const [role, project] of [[ROLE_VIEWER, 'default'], [ROLE_EDITOR, 'other']] as const) {
      const error = await attempt(role, project);
      expect(error).toBeInstanceOf(NoAccessError);
      expect((error as NoAccessError).permission).toBe('CREATE_FEATURE');
    }
    // `src` has a parent dependency: copying it needs UPDATE_FEATURE_DEPENDENCY, which a v5.8 Editor does not hold.
    const error = await attempt(ROLE_EDITOR, 'default');
    expect(error).toMatchObject({ name: 'NoAccessError', permission: 'UPDATE_FEATURE_DEPENDENCY' });
  });
});
