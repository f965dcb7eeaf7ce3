import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Principal } from '../../../src/domain/access/principal';
import { ROLE_EDITOR, ROLE_VIEWER } from '../../../src/domain/access/permissions';
import { NoAccessError } from '../../../src/domain/errors';
import { createServices, type Services } from '../../../src/domain/services';
import { startTestApp, type TestApp } from '../../support/harness';

/** Feature lifecycle over REST: create, read, update (PUT/PATCH), validate, stale, feature types and feature tags. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  expect((await app.post('/api/admin/projects', { id: 'other', name: 'Other' })).status).toBe(201);
});
afterAll(async () => { await app.close(); });

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const features = (project: string) => `/api/admin/projects/${project}/features`;
const feature = (project: string, name: string) => `${features(project)}/${name}`;
const patch = (project: string, name: string, ops: unknown) => app.request('PATCH', feature(project, name), ops);
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);

const expectError = (res: { status: number; body: any }, status: number, name: string) => {
  expect({ status: res.status, name: res.body?.name }).toEqual({ status, name });
  expect(typeof res.body.id).toBe('string');
  expect(typeof res.body.message).toBe('string');
};
/** The distinct detail paths, in order (one property may fail more than one rule). */
const detailPaths = (res: { body: any }) => [...new Set((res.body.details as Array<{ path: string }>).map((d) => d.path))];

const lastEventId = async (): Promise<number> => (await app.get('/api/admin/events?limit=1')).body.events[0]?.id ?? 0;
/** Events written after `id`, oldest first. */
const eventsSince = async (id: number): Promise<any[]> => (await app.events()).filter((e) => e.id > id).reverse();

/** Every row of the tables a feature request may touch, plus the number of events. */
async function snapshot(): Promise<Record<string, unknown>> {
  const tables = ['projects', 'features', 'feature_environments', 'feature_strategies', 'feature_strategy_segments', 'feature_tags', 'tags', 'tag_types', 'feature_dependencies', 'feature_types'];
  const out: Record<string, unknown> = {};
  for (const t of tables) out[t] = (await sql(`select to_jsonb(t)::text as row from ${t} t order by 1`)).map((r) => r.row);
  out.events = (await app.get('/api/admin/events?limit=1')).body.totalEvents;
  return out;
}
/** Runs a request that must fail: it may add no row, change no row and write no event. */
async function changesNothing<T>(failing: () => Promise<T>): Promise<T> {
  const before = await snapshot();
  const result = await failing();
  expect(await snapshot()).toEqual(before);
  return result;
}

const envState = (featureName: string, environment: string, type: string, sortOrder: number) => ({
  name: environment, featureName, environment, type, enabled: false, sortOrder, variantCount: 0, variants: [], lastSeenAt: null,
  hasStrategies: false, hasEnabledStrategies: false,
});
/** The full Feature a fresh feature of a project linked to development and production has. */
const fresh = (name: string, project: string, props: Record<string, unknown> = {}) => ({
  name, type: 'release', description: null, project, stale: false, impressionData: false, createdAt: ISO, archivedAt: null,
  archived: false, lastSeenAt: null, favorite: false, enabled: false,
  environments: [
    { ...envState(name, 'development', 'development', 2), strategies: [] },
    { ...envState(name, 'production', 'production', 3), strategies: [] },
  ],
  variants: [], tags: [], children: [], dependencies: [], ...props,
});
/** What audit events record of a feature. */
const eventData = (f: any) => ({
  name: f.name, description: f.description, type: f.type, project: f.project, stale: f.stale, createdAt: f.createdAt,
  lastSeenAt: f.lastSeenAt, impressionData: f.impressionData, archivedAt: f.archivedAt, archived: f.archived,
});

describe('creating features', () => {
  it('creates a feature (201) with the full Feature shape, readable afterwards, and records feature-created', async () => {
    const since = await lastEventId();
    const res = await app.post(features('default'), { name: 'checkout' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(fresh('checkout', 'default'));
    expect((await app.get(feature('default', 'checkout'))).body).toEqual(res.body);
    const events = await eventsSince(since);
    expect(events).toEqual([{
      id: expect.any(Number), type: 'feature-created', createdAt: ISO, createdBy: 'admin', createdByUserId: -1337,
      project: 'default', environment: null, featureName: 'checkout', data: eventData(res.body), preData: null, tags: [],
    }]);
  });

  it('takes type, description, impressionData and stale', async () => {
    const res = await app.post(features('default'), { name: 'search.v2', type: 'experiment', description: 'New search', impressionData: true, stale: true });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(fresh('search.v2', 'default', { type: 'experiment', description: 'New search', impressionData: true, stale: true }));
    const [event] = await app.events('feature-created');
    expect(event).toMatchObject({ featureName: 'search.v2', data: eventData(res.body) });
  });

  it.each<[string, unknown, string[]]>([
    ['a name with a space', { name: 'bad name' }, ['name']],
    ['a name with a slash', { name: 'a/b' }, ['name']],
    ['a name with a non-ASCII letter', { name: 'flagä' }, ['name']],
    ['an empty name', { name: '' }, ['name']],
    ['the name "." (not addressable in a URL)', { name: '.' }, ['name']],
    ['the name ".."', { name: '..' }, ['name']],
    ['a 101-character name', { name: 'a'.repeat(101) }, ['name']],
    ['a missing name', { type: 'release' }, ['name']],
    ['a numeric name', { name: 42 }, ['name']],
    ['an unknown feature type', { name: 'typed', type: 'nope' }, ['type']],
    ['an unknown property', { name: 'extra', enabled: true }, ['enabled']],
    ['wrong types', { name: 'wrong', description: 5, impressionData: 'yes', stale: 'no' }, ['description', 'impressionData', 'stale']],
    ['a body that is an array', [{ name: 'x' }], ['']],
  ])('refuses %s with 400 ValidationError naming the paths, and creates nothing', async (_label, body, paths) => {
    const res = await changesNothing(() => app.post(features('default'), body));
    expectError(res, 400, 'ValidationError');
    expect(detailPaths(res)).toEqual(paths);
    for (const d of res.body.details) expect(d.message).toEqual(expect.any(String));
  });

  it('a 100-character name is accepted', async () => {
    const name = 'n'.repeat(100);
    const res = await app.post(features('other'), { name });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe(name);
  });

  it('answers 404 NotFoundError for an unknown project', async () => {
    const res = await changesNothing(() => app.post(features('nope'), { name: 'orphan' }));
    expectError(res, 404, 'NotFoundError');
    expect(res.body.message).toBe('Project with id nope does not exist');
  });

  it('refuses a taken name with 409 NameExistsError, also when the feature lives in another project', async () => {
    const same = await changesNothing(() => app.post(features('default'), { name: 'checkout', description: 'again' }));
    expectError(same, 409, 'NameExistsError');
    expect(same.body.message).toBe('A toggle with that name already exists');
    const elsewhere = await changesNothing(() => app.post(features('other'), { name: 'checkout' }));
    expectError(elsewhere, 409, 'NameExistsError');
  });

  it('refuses the name of an archived feature with 409 NameExistsError (archived message)', async () => {
    expect((await app.post(features('default'), { name: 'retired' })).status).toBe(201);
    expect((await app.del(feature('default', 'retired'))).status).toBe(202);
    const res = await changesNothing(() => app.post(features('default'), { name: 'retired' }));
    expectError(res, 409, 'NameExistsError');
    expect(res.body.message).toBe('An archived toggle with that name already exists');
  });

  it("refuses a name that does not match the project's naming pattern with 400 PatternError", async () => {
    expect((await app.post('/api/admin/projects', { id: 'patterned', name: 'Patterned' })).status).toBe(201);
    const settings = await app.put('/api/admin/projects/patterned/settings', {
      featureNaming: { pattern: 'pat-[a-z]+', example: 'pat-abc', description: 'pat- then lowercase letters' },
    });
    expect(settings.status).toBe(200);
    const res = await changesNothing(() => app.post(features('patterned'), { name: 'pat-ABC' }));
    expectError(res, 400, 'PatternError');
    expect(res.body.message).toBe(
      'The feature flag name "pat-ABC" does not match the project\'s naming pattern: "pat-[a-z]+". '
      + 'Here\'s an example of a name that does match the pattern: "pat-abc". The pattern\'s description is: "pat- then lowercase letters".');
    expect(res.body.details).toEqual([{ message: 'The flag name does not match the pattern.' }]);
    // The pattern applies to the whole name, and only in its own project.
    expectError(await changesNothing(() => app.post(features('patterned'), { name: 'xpat-abc' })), 400, 'PatternError');
    expect((await app.post(features('patterned'), { name: 'pat-ok' })).status).toBe(201);
    expect((await app.post(features('default'), { name: 'no-pattern-here' })).status).toBe(201);
  });

  it('refuses a feature beyond the project featureLimit with 403 InvalidOperationError; archived features do not count', async () => {
    expect((await app.post('/api/admin/projects', { id: 'limited', name: 'Limited' })).status).toBe(201);
    const limit = await app.put('/api/admin/projects/limited', { name: 'Limited', featureLimit: 1 });
    expect(limit.status).toBe(200);
    expect(limit.body.featureLimit).toBe(1);
    expect((await app.post(features('limited'), { name: 'lim-1' })).status).toBe(201);
    const res = await changesNothing(() => app.post(features('limited'), { name: 'lim-2' }));
    expectError(res, 403, 'InvalidOperationError');
    expect(res.body.message).toBe('You have reached the maximum number of feature toggles for this project.');
    expect((await app.del(feature('limited', 'lim-1'))).status).toBe(202);
    expect((await app.post(features('limited'), { name: 'lim-2' })).status).toBe(201);
  });

  it('answers 401 AuthenticationRequired without a token or with an unknown one, and creates nothing', async () => {
    expectError(await changesNothing(() => app.post(features('default'), { name: 'anon' }, { token: null })), 401, 'AuthenticationRequired');
    expectError(await changesNothing(() => app.post(features('default'), { name: 'anon' }, { token: 'not-a-token' })), 401, 'AuthenticationRequired');
    expectError(await app.get(features('default'), { token: null }), 401, 'AuthenticationRequired');
    expectError(await app.get(feature('default', 'checkout'), { token: null }), 401, 'AuthenticationRequired');
  });
});

describe('reading features', () => {
  it('lists the active features of a project as {version: 1, features} by name, in Unleash v5.8\'s overview shape', async () => {
    const res = await app.get(features('default'));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['features', 'version']);
    expect(res.body.version).toBe(1);
    expect(res.body.features.map((f: { name: string }) => f.name)).toEqual(['checkout', 'no-pattern-here', 'search.v2']);
    const checkout = (await app.get(feature('default', 'checkout'))).body;
    const overviewEnv = (environment: string, type: string, sortOrder: number) => ({
      name: environment, enabled: false, type, sortOrder, variantCount: 0, lastSeenAt: null, hasStrategies: false, hasEnabledStrategies: false,
    });
    // No project, archived, archivedAt, and no featureName/environment/variants per environment: Unleash does not send
    // them in this list. `tags` only when the feature has some.
    expect(res.body.features[0]).toStrictEqual({
      type: checkout.type, description: checkout.description, favorite: false, name: 'checkout', createdAt: checkout.createdAt,
      lastSeenAt: null, stale: checkout.stale, impressionData: checkout.impressionData,
      environments: [overviewEnv('development', 'development', 2), overviewEnv('production', 'production', 3)],
    });
    expect((await app.get(features('other'))).body.features.map((f: { name: string }) => f.name)).toEqual(['n'.repeat(100)]);
  });

  it('lists a feature\'s tags, environment variants and strategies in the overview', async () => {
    expect((await app.post(features('other'), { name: 'overview-tagged' })).status).toBe(201);
    const path = feature('other', 'overview-tagged');
    expect((await app.post('/api/admin/features/overview-tagged/tags', { type: 'simple', value: 'zeta' })).status).toBe(201);
    expect((await app.post('/api/admin/features/overview-tagged/tags', { type: 'simple', value: 'alpha' })).status).toBe(201);
    const variant = { name: 'v1', weight: 1000, weightType: 'variable', stickiness: 'default' };
    expect((await app.put(`${path}/environments/production/variants`, [variant])).status).toBe(200);
    expect((await app.post(`${path}/environments/production/strategies`, { name: 'default', disabled: true })).status).toBe(200);
    const item = (await app.get(features('other'))).body.features.find((f: { name: string }) => f.name === 'overview-tagged');
    expect(item.tags).toEqual([{ value: 'alpha', type: 'simple' }, { value: 'zeta', type: 'simple' }]);
    expect(item.environments.map((e: any) => [e.name, e.variantCount, e.hasStrategies, e.hasEnabledStrategies]))
      .toEqual([['development', 0, false, false], ['production', 1, true, false]]);
  });

  it('answers 404 NotFoundError for the list of an unknown project', async () => {
    expectError(await app.get(features('nope')), 404, 'NotFoundError');
  });

  it('answers 404 NotFoundError for an unknown feature, a feature of another project, and an archived feature', async () => {
    const unknown = await app.get(feature('default', 'nope'));
    expectError(unknown, 404, 'NotFoundError');
    expect(unknown.body.message).toBe('Could not find feature toggle with name nope');
    const wrongProject = await app.get(feature('other', 'checkout'));
    expectError(wrongProject, 404, 'NotFoundError');
    expect(wrongProject.body.message).toBe('There\'s no feature named "checkout" in project "other".');
    expectError(await app.get(feature('default', 'retired')), 404, 'NotFoundError');
  });

  it('reports hasStrategies and hasEnabledStrategies per environment', async () => {
    expect((await app.post(features('default'), { name: 'strategic' })).status).toBe(201);
    const add = await app.post(`${feature('default', 'strategic')}/environments/production/strategies`, { name: 'default', disabled: true });
    expect(add.status).toBe(200);
    let body = (await app.get(feature('default', 'strategic'))).body;
    expect(body.environments.map((e: any) => [e.name, e.hasStrategies, e.hasEnabledStrategies, e.strategies.length]))
      .toEqual([['development', false, false, 0], ['production', true, false, 1]]);
    expect((await app.post(`${feature('default', 'strategic')}/environments/development/strategies`, { name: 'default' })).status).toBe(200);
    body = (await app.get(feature('default', 'strategic'))).body;
    expect(body.environments.map((e: any) => [e.name, e.hasStrategies, e.hasEnabledStrategies]))
      .toEqual([['development', true, true], ['production', true, false]]);
    const listed = (await app.get(features('default'))).body.features.find((f: any) => f.name === 'strategic');
    expect(listed.environments.map((e: any) => [e.name, e.hasStrategies, e.hasEnabledStrategies, 'strategies' in e]))
      .toEqual([['development', true, true, false], ['production', true, false, false]]);
  });
});

describe('updating features with PUT', () => {
  it('replaces the metadata given (200, the feature) and records feature-metadata-updated with data and preData', async () => {
    const before = (await app.get(feature('default', 'checkout'))).body;
    const since = await lastEventId();
    const res = await app.put(feature('default', 'checkout'), { description: 'Pay for the basket', type: 'operational', impressionData: true });
    expect(res.status).toBe(200);
    const after = { ...before, description: 'Pay for the basket', type: 'operational', impressionData: true };
    expect(res.body).toEqual(after);
    expect((await app.get(feature('default', 'checkout'))).body).toEqual(after);
    expect(await eventsSince(since)).toEqual([expect.objectContaining({
      type: 'feature-metadata-updated', project: 'default', environment: null, featureName: 'checkout',
      data: eventData(after), preData: eventData(before), tags: [],
    })]);
  });

  it('accepts the feature sent back as read (matching name and project) and writes no event when nothing changes', async () => {
    const current = (await app.get(feature('default', 'checkout'))).body;
    const since = await lastEventId();
    const res = await app.put(feature('default', 'checkout'), {
      name: 'checkout', project: 'default', archived: false, type: current.type, description: current.description, impressionData: current.impressionData, stale: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(current);
    expect(await eventsSince(since)).toEqual([]);
    expect((await app.put(feature('default', 'checkout'), {})).status).toBe(200);
    expect(await eventsSince(since)).toEqual([]);
  });

  it('clears the description with null', async () => {
    const res = await app.put(feature('default', 'search.v2'), { description: null });
    expect(res.status).toBe(200);
    expect(res.body.description).toBeNull();
    const [event] = await app.events('feature-metadata-updated');
    expect(event).toMatchObject({ featureName: 'search.v2', data: { description: null }, preData: { description: 'New search' } });
  });

  it('marking stale through PUT writes feature-stale-on only (and unmarking, feature-stale-off)', async () => {
    let since = await lastEventId();
    const on = await app.put(feature('default', 'checkout'), { stale: true });
    expect(on.status).toBe(200);
    expect(on.body.stale).toBe(true);
    expect(await eventsSince(since)).toEqual([expect.objectContaining({
      type: 'feature-stale-on', project: 'default', environment: null, featureName: 'checkout', data: null, preData: null,
    })]);
    since = await lastEventId();
    expect((await app.put(feature('default', 'checkout'), { stale: false })).body.stale).toBe(false);
    expect((await eventsSince(since)).map((e) => [e.type, e.featureName])).toEqual([['feature-stale-off', 'checkout']]);
  });

  it.each<[string, unknown, string]>([
    ['a rename', { name: 'renamed', description: 'x' }, 'name'],
    ['another project', { project: 'other' }, 'project'],
    ['archiving', { archived: true }, 'archived'],
    ['an unknown feature type', { type: 'nope' }, 'type'],
    ['an unknown property', { enabled: true }, 'enabled'],
    ['a wrong type', { impressionData: 'yes' }, 'impressionData'],
  ])('refuses %s with 400 ValidationError and changes nothing', async (_label, body, path) => {
    const res = await changesNothing(() => app.put(feature('default', 'checkout'), body));
    expectError(res, 400, 'ValidationError');
    expect(detailPaths(res)).toEqual([path]);
    expect((await app.get(feature('default', 'renamed'))).status).toBe(404);
  });

  it('answers 404 NotFoundError for an unknown feature, one of another project and an archived one', async () => {
    expectError(await changesNothing(() => app.put(feature('default', 'nope'), { description: 'x' })), 404, 'NotFoundError');
    expectError(await changesNothing(() => app.put(feature('other', 'checkout'), { description: 'x' })), 404, 'NotFoundError');
    expectError(await changesNothing(() => app.put(feature('default', 'retired'), { description: 'x' })), 404, 'NotFoundError');
  });
});

describe('updating features with PATCH (JSON patch)', () => {
  it('replaces description, stale and type: feature-metadata-updated then feature-stale-on', async () => {
    const before = (await app.get(feature('default', 'checkout'))).body;
    const since = await lastEventId();
    const res = await patch('default', 'checkout', [
      { op: 'replace', path: '/description', value: 'Patched' },
      { op: 'replace', path: '/stale', value: true },
      { op: 'replace', path: '/type', value: 'kill-switch' },
    ]);
    expect(res.status).toBe(200);
    const after = { ...before, description: 'Patched', stale: true, type: 'kill-switch' };
    expect(res.body).toEqual(after);
    expect((await app.get(feature('default', 'checkout'))).body).toEqual(after);
    const events = await eventsSince(since);
    expect(events.map((e) => e.type)).toEqual(['feature-metadata-updated', 'feature-stale-on']);
    expect(events[0]).toMatchObject({ project: 'default', featureName: 'checkout', data: eventData(after), preData: eventData(before) });
  });

  it('applies a patch whose test operation holds; a patch that changes nothing writes no event', async () => {
    const res = await patch('default', 'checkout', [
      { op: 'test', path: '/description', value: 'Patched' },
      { op: 'replace', path: '/stale', value: false },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.stale).toBe(false);
    const since = await lastEventId();
    const same = await patch('default', 'checkout', [{ op: 'test', path: '/type', value: 'kill-switch' }, { op: 'replace', path: '/description', value: 'Patched' }]);
    expect(same.status).toBe(200);
    expect(await eventsSince(since)).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ['an unknown op', [{ op: 'bogus', path: '/description', value: 'x' }], '0/op'],
    ['a failing test op', [{ op: 'replace', path: '/description', value: 'x' }, { op: 'test', path: '/description', value: 'not it' }], '1'],
    ['a patch replacing /name', [{ op: 'replace', path: '/name', value: 'renamed' }], 'name'],
    ['a patch replacing /project', [{ op: 'replace', path: '/project', value: 'other' }], 'project'],
    ['a patch adding an unknown property', [{ op: 'add', path: '/enabled', value: true }], 'enabled'],
    ['a patch removing a missing path', [{ op: 'remove', path: '/nothing/here' }], '0'],
    ['a wrong value type', [{ op: 'replace', path: '/stale', value: 'yes' }], 'stale'],
    ['a body that is not an array', { op: 'replace', path: '/description', value: 'x' }, ''],
  ])('refuses %s with 400 ValidationError and changes nothing', async (_label, ops, path) => {
    const res = await changesNothing(() => patch('default', 'checkout', ops));
    expectError(res, 400, 'ValidationError');
    expect(detailPaths(res)).toEqual([path]);
  });

  it('answers 404 NotFoundError for an unknown feature or one of another project', async () => {
    const ops = [{ op: 'replace', path: '/description', value: 'x' }];
    expectError(await changesNothing(() => patch('default', 'nope', ops)), 404, 'NotFoundError');
    expectError(await changesNothing(() => patch('other', 'checkout', ops)), 404, 'NotFoundError');
  });
});

describe('validating a feature name', () => {
  const validate = (body: unknown) => app.post('/api/admin/features/validate', body);

  it('answers 200 for a free name, with or without a project whose pattern it matches', async () => {
    const since = await lastEventId();
    expect((await validate({ name: 'brand-new' })).status).toBe(200);
    expect((await validate({ name: 'pat-free', projectId: 'patterned' })).status).toBe(200);
    expect(await eventsSince(since)).toEqual([]);
  });

  it('answers 400 ValidationError for an invalid name or an unknown property', async () => {
    const bad = await validate({ name: 'has space' });
    expectError(bad, 400, 'ValidationError');
    expect(detailPaths(bad)).toEqual(['name']);
    expect(detailPaths(await validate({ name: 'x'.repeat(101) }))).toEqual(['name']);
    expect(detailPaths(await validate({}))).toEqual(['name']);
    expect(detailPaths(await validate({ name: '..' }))).toEqual(['name']);
    const extra = await validate({ name: 'ok', project: 'default' });
    expectError(extra, 400, 'ValidationError');
    expect(detailPaths(extra)).toEqual(['project']);
  });

  it('answers 409 NameExistsError for an active and for an archived name', async () => {
    const active = await validate({ name: 'checkout' });
    expectError(active, 409, 'NameExistsError');
    expect(active.body.message).toBe('A toggle with that name already exists');
    const archived = await validate({ name: 'retired' });
    expectError(archived, 409, 'NameExistsError');
    expect(archived.body.message).toBe('An archived toggle with that name already exists');
  });

  it("answers 400 PatternError when projectId is given and the name misses that project's pattern; 404 for an unknown project", async () => {
    const res = await validate({ name: 'free-but-unpatterned', projectId: 'patterned' });
    expectError(res, 400, 'PatternError');
    expect(res.body.details).toEqual([{ message: 'The flag name does not match the pattern.' }]);
    expect((await validate({ name: 'free-but-unpatterned', projectId: 'default' })).status).toBe(200);
    expectError(await validate({ name: 'free', projectId: 'nope' }), 404, 'NotFoundError');
  });
});

describe('stale on and off', () => {
  it('POST /features/:f/stale/off unmarks a stale feature (200, the feature) with feature-stale-off; repeating writes nothing', async () => {
    const since = await lastEventId();
    const res = await app.post('/api/admin/features/search.v2/stale/off');
    expect(res.status).toBe(200);
    expect(res.body).toEqual((await app.get(feature('default', 'search.v2'))).body);
    expect(res.body.stale).toBe(false);
    expect(await eventsSince(since)).toEqual([expect.objectContaining({
      type: 'feature-stale-off', project: 'default', environment: null, featureName: 'search.v2', data: null, preData: null,
    })]);
    expect((await app.post('/api/admin/features/search.v2/stale/off')).status).toBe(200);
    expect(await eventsSince(since)).toHaveLength(1);
  });

  it('POST /features/:f/stale/on marks it stale again with feature-stale-on', async () => {
    const since = await lastEventId();
    const res = await app.post('/api/admin/features/search.v2/stale/on');
    expect(res.status).toBe(200);
    expect(res.body.stale).toBe(true);
    expect((await eventsSince(since)).map((e) => [e.type, e.project, e.featureName])).toEqual([['feature-stale-on', 'default', 'search.v2']]);
    expect((await app.post('/api/admin/features/search.v2/stale/off')).status).toBe(200);
  });

  it('answers 404 NotFoundError for an unknown or archived feature', async () => {
    expectError(await changesNothing(() => app.post('/api/admin/features/nope/stale/on')), 404, 'NotFoundError');
    expectError(await changesNothing(() => app.post('/api/admin/features/retired/stale/on')), 404, 'NotFoundError');
  });

  it('POST /projects/:p/stale marks several features in one go (202), one event per feature that changed', async () => {
    expect((await app.post('/api/admin/features/checkout/stale/on')).status).toBe(200);
    const since = await lastEventId();
    const res = await app.post('/api/admin/projects/default/stale', { features: ['checkout', 'search.v2', 'strategic'], stale: true });
    expect(res.status).toBe(202);
    expect((await eventsSince(since)).map((e) => [e.type, e.project, e.featureName]))
      .toEqual([['feature-stale-on', 'default', 'search.v2'], ['feature-stale-on', 'default', 'strategic']]);
    const stale = (await app.get(features('default'))).body.features.filter((f: any) => f.stale).map((f: any) => f.name);
    expect(stale).toEqual(['checkout', 'search.v2', 'strategic']);
    const off = await app.post('/api/admin/projects/default/stale', { features: ['checkout', 'search.v2', 'strategic'], stale: false });
    expect(off.status).toBe(202);
    expect((await eventsSince(since)).filter((e) => e.type === 'feature-stale-off')).toHaveLength(3);
  });

  it('bulk stale changes nothing when one name is unknown or in another project (404), or the body is invalid (400)', async () => {
    expectError(await changesNothing(() => app.post('/api/admin/projects/default/stale', { features: ['checkout', 'nope'], stale: true })), 404, 'NotFoundError');
    expectError(await changesNothing(() => app.post('/api/admin/projects/other/stale', { features: ['checkout'], stale: true })), 404, 'NotFoundError');
    const bad = await changesNothing(() => app.post('/api/admin/projects/default/stale', { features: [], stale: 'yes' }));
    expectError(bad, 400, 'ValidationError');
    expect(detailPaths(bad)).toEqual(['features', 'stale']);
  });
});

describe('feature types', () => {
  it('lists the seeded feature types with their lifetimes', async () => {
    const res = await app.get('/api/admin/feature-types');
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.types.map((t: any) => [t.id, t.name, t.lifetimeDays])).toEqual([
      ['experiment', 'Experiment', 40], ['kill-switch', 'Kill switch', null], ['operational', 'Operational', 7],
      ['permission', 'Permission', null], ['release', 'Release', 40],
    ]);
    for (const t of res.body.types) expect(Object.keys(t).sort()).toEqual(['description', 'id', 'lifetimeDays', 'name']);
  });

  it('PUT /feature-types/:id/lifetimes changes a lifetime (200) with feature-type-updated; the same value writes nothing', async () => {
    const since = await lastEventId();
    const res = await app.put('/api/admin/feature-types/release/lifetimes', { lifetimeDays: 21 });
    expect(res.status).toBe(200);
    const before = (await app.get('/api/admin/feature-types')).body.types.find((t: any) => t.id === 'release');
    expect(res.body).toEqual(before);
    expect(res.body.lifetimeDays).toBe(21);
    expect(await eventsSince(since)).toEqual([expect.objectContaining({
      type: 'feature-type-updated', project: null, environment: null, featureName: null,
      data: { ...before, lifetimeDays: 21 }, preData: { ...before, lifetimeDays: 40 },
    })]);
    expect((await app.put('/api/admin/feature-types/release/lifetimes', { lifetimeDays: 21 })).status).toBe(200);
    expect(await eventsSince(since)).toHaveLength(1);
    const unlimited = await app.put('/api/admin/feature-types/release/lifetimes', { lifetimeDays: null });
    expect(unlimited.body.lifetimeDays).toBeNull();
    expect((await app.put('/api/admin/feature-types/release/lifetimes', { lifetimeDays: 40 })).body.lifetimeDays).toBe(40);
  });

  it('answers 404 for an unknown type and 400 ValidationError for a bad lifetime, changing nothing', async () => {
    expectError(await changesNothing(() => app.put('/api/admin/feature-types/nope/lifetimes', { lifetimeDays: 3 })), 404, 'NotFoundError');
    for (const body of [{ lifetimeDays: -1 }, { lifetimeDays: 'ten' }, { lifetimeDays: 1.5 }, {}, { lifetimeDays: 3, extra: 1 }]) {
      const res = await changesNothing(() => app.put('/api/admin/feature-types/release/lifetimes', body));
      expectError(res, 400, 'ValidationError');
    }
  });
});

describe('feature tags', () => {
  const tagsOf = (name: string) => app.get(`/api/admin/features/${name}/tags`);

  it('lists no tags for an untagged feature, and 404 for an unknown one', async () => {
    const res = await tagsOf('checkout');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 1, tags: [] });
    expectError(await tagsOf('nope'), 404, 'NotFoundError');
  });

  it('tags a feature (201, the tag), creating the tag: tag-created then feature-tagged carrying the tag', async () => {
    const since = await lastEventId();
    const res = await app.post('/api/admin/features/checkout/tags', { value: 'payments' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ type: 'simple', value: 'payments' });
    const events = await eventsSince(since);
    expect(events).toEqual([
      expect.objectContaining({ type: 'tag-created', project: null, environment: null, featureName: null, data: { type: 'simple', value: 'payments' } }),
      expect.objectContaining({
        type: 'feature-tagged', project: 'default', environment: null, featureName: 'checkout',
        data: { type: 'simple', value: 'payments' }, preData: null, tags: [{ type: 'simple', value: 'payments' }],
      }),
    ]);
    expect((await tagsOf('checkout')).body.tags).toEqual([{ type: 'simple', value: 'payments' }]);
    expect((await app.get('/api/admin/tags')).body.tags).toContainEqual({ type: 'simple', value: 'payments' });
    expect((await app.get(feature('default', 'checkout'))).body.tags).toEqual([{ type: 'simple', value: 'payments' }]);
  });

  it('tagging with an existing tag writes only feature-tagged; tags of another type are listed too', async () => {
    expect((await app.post('/api/admin/tag-types', { name: 'team' })).status).toBe(201);
    const since = await lastEventId();
    expect((await app.post('/api/admin/features/search.v2/tags', { type: 'simple', value: 'payments' })).status).toBe(201);
    expect((await eventsSince(since)).map((e) => e.type)).toEqual(['feature-tagged']);
    expect((await app.post('/api/admin/features/checkout/tags', { type: 'team', value: 'core' })).status).toBe(201);
    expect((await tagsOf('checkout')).body.tags).toEqual([{ type: 'simple', value: 'payments' }, { type: 'team', value: 'core' }]);
  });

  it('later events of the feature carry its tags', async () => {
    const since = await lastEventId();
    expect((await app.put(feature('default', 'checkout'), { description: 'Tagged now' })).status).toBe(200);
    const [event] = await eventsSince(since);
    expect(event).toMatchObject({ type: 'feature-metadata-updated', tags: [{ type: 'simple', value: 'payments' }, { type: 'team', value: 'core' }] });
  });

  it('refuses an unknown tag type (400), a duplicate (409 NameExistsError) and a short value (400), changing nothing', async () => {
    const unknownType = await changesNothing(() => app.post('/api/admin/features/checkout/tags', { type: 'nope', value: 'payments' }));
    expectError(unknownType, 400, 'ValidationError');
    expect(detailPaths(unknownType)).toEqual(['type']);
    expect(unknownType.body.details[0].message).toBe("Tag type 'nope' does not exist");
    expectError(await changesNothing(() => app.post('/api/admin/features/checkout/tags', { value: 'payments' })), 409, 'NameExistsError');
    const short = await changesNothing(() => app.post('/api/admin/features/checkout/tags', { value: 'p' }));
    expectError(short, 400, 'ValidationError');
    expect(detailPaths(short)).toEqual(['value']);
    const long = await changesNothing(() => app.post('/api/admin/features/checkout/tags', { value: 'v'.repeat(51) }));
    expect(detailPaths(long)).toEqual(['value']);
    const extra = await changesNothing(() => app.post('/api/admin/features/checkout/tags', { value: 'fine', colour: 'red' }));
    expect(detailPaths(extra)).toEqual(['colour']);
    expectError(await changesNothing(() => app.post('/api/admin/features/nope/tags', { value: 'payments' })), 404, 'NotFoundError');
  });

  it('untags a feature (200) with feature-untagged; the tag itself stays; 404 when the feature lacks the tag', async () => {
    const since = await lastEventId();
    const res = await app.del('/api/admin/features/checkout/tags/team/core');
    expect(res.status).toBe(200);
    expect(await eventsSince(since)).toEqual([expect.objectContaining({
      type: 'feature-untagged', project: 'default', environment: null, featureName: 'checkout',
      data: null, preData: { type: 'team', value: 'core' }, tags: [{ type: 'simple', value: 'payments' }],
    })]);
    expect((await tagsOf('checkout')).body.tags).toEqual([{ type: 'simple', value: 'payments' }]);
    expect((await app.get('/api/admin/tags/team/core')).status).toBe(200);
    const again = await changesNothing(() => app.del('/api/admin/features/checkout/tags/team/core'));
    expectError(again, 404, 'NotFoundError');
    expectError(await changesNothing(() => app.del('/api/admin/features/nope/tags/simple/payments')), 404, 'NotFoundError');
  });
});

describe('permissions (service level: only admin tokens exist over HTTP)', () => {
  const user = (rootRoleId: number): Principal => ({ kind: 'user', name: `role-${rootRoleId}@example.com`, userId: 200 + rootRoleId, isAdmin: false, rootRoleId });
  const as = (p: Principal) => createServices(app.orm.em.fork(), p);

  it.each<[string, string, (s: Services) => Promise<unknown>]>([
    ['features.create', 'CREATE_FEATURE', (s) => s.features.create('default', { name: 'viewer-made' })],
    ['features.update', 'UPDATE_FEATURE', (s) => s.features.update('default', 'checkout', { description: 'viewer' })],
    ['features.patch', 'UPDATE_FEATURE', (s) => s.features.patch('default', 'checkout', [{ op: 'replace', path: '/stale', value: true }])],
    ['features.setStale', 'UPDATE_FEATURE', (s) => s.features.setStale('checkout', true)],
    ['features.setStaleMany', 'UPDATE_FEATURE', (s) => s.features.setStaleMany('default', { features: ['checkout'], stale: true })],
    ['features.addTag', 'UPDATE_FEATURE', (s) => s.features.addTag('checkout', { value: 'viewer' })],
    ['features.removeTag', 'UPDATE_FEATURE', (s) => s.features.removeTag('checkout', 'simple', 'payments')],
    ['features.updateFeatureTypeLifetime', 'ADMIN', (s) => s.features.updateFeatureTypeLifetime('release', { lifetimeDays: 1 })],
  ])('%s needs %s: a Viewer gets NoAccessError and nothing changes', async (_name, permission, call) => {
    const error = await changesNothing(() => call(as(user(ROLE_VIEWER))).then(() => null, (e: unknown) => e));
    expect(error).toBeInstanceOf(NoAccessError);
    expect((error as NoAccessError).permission).toBe(permission);
  });

  it('an Editor creates and updates features in the default project only; events name the user', async () => {
    const editor = as(user(ROLE_EDITOR));
    await expect(editor.features.create('default', { name: 'editor-made' })).resolves.toMatchObject({ name: 'editor-made', project: 'default' });
    const [event] = await app.events('feature-created');
    expect(event).toMatchObject({ featureName: 'editor-made', createdBy: `role-${ROLE_EDITOR}@example.com`, createdByUserId: 200 + ROLE_EDITOR });
    await expect(editor.features.update('default', 'editor-made', { description: 'mine' })).resolves.toMatchObject({ description: 'mine' });
    const error = await changesNothing(() => as(user(ROLE_EDITOR)).features.create('other', { name: 'editor-elsewhere' }).then(() => null, (e: unknown) => e));
    expect(error).toMatchObject({ name: 'NoAccessError', permission: 'CREATE_FEATURE' });
  });
});

describe('bodies that are not the expected JSON', () => {
  const endpoints: Array<[string, string]> = [
    ['POST', '/api/admin/projects/default/features'],
    ['PUT', '/api/admin/projects/default/features/checkout'],
    ['PATCH', '/api/admin/projects/default/features/checkout'],
    ['POST', '/api/admin/projects/default/features/checkout/clone'],
    ['POST', '/api/admin/projects/default/features/checkout/dependencies'],
    ['POST', '/api/admin/features/validate'],
    ['POST', '/api/admin/features/checkout/tags'],
    ['POST', '/api/admin/projects/default/stale'],
    ['POST', '/api/admin/projects/default/archive'],
    ['POST', '/api/admin/projects/default/revive'],
    ['POST', '/api/admin/projects/default/delete'],
    ['PUT', '/api/admin/feature-types/release/lifetimes'],
  ];
  it.each(endpoints)('%s %s answers 400 ValidationError (never a 500) for null, a string, a number and malformed JSON', async (method, path) => {
    for (const raw of ['null', '"text"', '42', '{"name": ']) {
      const res = await changesNothing(() => app.request(method, path, undefined, { raw }));
      expectError(res, 400, 'ValidationError');
    }
  });
});

/** On PostgreSQL the suite runs with a pool of 5, so these requests really race (on PGlite they take turns). */
describe('concurrent requests', () => {
  it('creating the same name six times at once gives one 201 and five 409 NameExistsError (no 500)', async () => {
    const replies = await Promise.all(Array.from({ length: 6 }, () => app.post(features('default'), { name: 'raced' })));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of replies.filter((x) => x.status === 409)) expect(r.body.name).toBe('NameExistsError');
    expect((await app.events('feature-created')).filter((e) => e.featureName === 'raced')).toHaveLength(1);
  });

  it('concurrent creates cannot overshoot a featureLimit', async () => {
    expect((await app.post('/api/admin/projects', { id: 'raced-limit', name: 'Raced', featureLimit: 1 })).status).toBe(201);
    const replies = await Promise.all(Array.from({ length: 4 }, (_, i) => app.post(features('raced-limit'), { name: `raced-limit-${i}` })));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 403, 403, 403]);
    expect((await app.get(features('raced-limit'))).body.features).toHaveLength(1);
  });

  it('two bulk stale requests naming the same features in opposite orders both succeed (no deadlock)', async () => {
    const names = ['checkout', 'search.v2', 'strategic', 'no-pattern-here'];
    const replies = await Promise.all([
      app.post('/api/admin/projects/default/stale', { features: names, stale: true }),
      app.post('/api/admin/projects/default/stale', { features: [...names].reverse(), stale: true }),
    ]);
    expect(replies.map((r) => r.status)).toEqual([202, 202]);
    const stale = (await app.get(features('default'))).body.features.filter((f: any) => names.includes(f.name)).map((f: any) => f.stale);
    expect(stale).toEqual([true, true, true, true]);
    expect((await app.post('/api/admin/projects/default/stale', { features: names, stale: false })).status).toBe(202);
  });
});
