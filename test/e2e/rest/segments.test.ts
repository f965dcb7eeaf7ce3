import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Principal } from '../../../src/domain/access/principal';
import { ROLE_EDITOR, ROLE_VIEWER } from '../../../src/domain/access/permissions';
import { createServices } from '../../../src/domain/services';
import { startTestApp, type TestApp } from '../../support/harness';

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

/** The feature-strategy API does not exist yet: features, strategies and their segment links are written directly. */
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);
const eventCount = async () => (await app.events()).length;
const segmentRows = async () => sql('select id, name, description, project, constraints from segments order by id');

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
/** The audit log keeps a segment's stored properties, not its computed usage counts. */
const stored = ({ usedInFeatures: _f, usedInProjects: _p, ...rest }: Record<string, unknown>) => rest;

const STRATEGY_1 = '00000000-0000-4000-8000-000000000001';
const STRATEGY_2 = '00000000-0000-4000-8000-000000000002';
const STRATEGY_3 = '00000000-0000-4000-8000-000000000003';

/** Runs `act` and checks that it changed no segment and wrote no event. */
async function changesNothing(act: () => Promise<void>): Promise<void> {
  const rows = await segmentRows();
  const events = await eventCount();
  await act();
  expect(await segmentRows()).toEqual(rows);
  expect(await eventCount()).toBe(events);
}

let betaId: number;
let mobileId: number;

describe('authentication', () => {
  it('answers 401 AuthenticationRequired without a token, on reads and writes', async () => {
    await changesNothing(async () => {
      const list = await app.get('/api/admin/segments', { token: null });
      expect(list.status).toBe(401);
      expect(list.body.name).toBe('AuthenticationRequired');
      const create = await app.post('/api/admin/segments', { name: 'nope' }, { token: null });
      expect(create.status).toBe(401);
      expect(create.body.name).toBe('AuthenticationRequired');
    });
  });
});

describe('creating segments', () => {
  it('starts with no segments', async () => {
    const res = await app.get('/api/admin/segments');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ segments: [] });
  });

  it('creates a global segment with defaults (201) and records segment-created', async () => {
    const res = await app.post('/api/admin/segments', { name: 'beta users' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number), name: 'beta users', description: null, project: null, constraints: [],
      createdBy: 'admin', createdAt: ISO, usedInFeatures: 0, usedInProjects: 0,
    });
    betaId = res.body.id;
    const [event] = await app.events('segment-created');
    expect(event).toMatchObject({ type: 'segment-created', createdBy: 'admin', createdByUserId: -1337, project: null, environment: null, preData: null });
    expect(event.data).toEqual(stored(res.body));
  });

  it('creates a project segment with every property, normalizing its constraints', async () => {
    const body = {
      name: 'mobile', description: 'Mobile app users', project: 'default',
      constraints: [
        { contextName: 'appName', operator: 'IN', values: ['ios', 'android'], caseInsensitive: true },
        { contextName: 'userId', operator: 'NUM_GT', value: '100', inverted: true },
      ],
    };
    const res = await app.post('/api/admin/segments', body);
    expect(res.status).toBe(201);
    const constraints = [
      { contextName: 'appName', operator: 'IN', values: ['ios', 'android'], caseInsensitive: true, inverted: false },
      { contextName: 'userId', operator: 'NUM_GT', values: [], value: '100', caseInsensitive: false, inverted: true },
    ];
    expect(res.body).toEqual({
      id: betaId + 1, name: 'mobile', description: 'Mobile app users', project: 'default', constraints,
      createdBy: 'admin', createdAt: ISO, usedInFeatures: 0, usedInProjects: 0,
    });
    mobileId = res.body.id;
    const [event] = await app.events('segment-created');
    expect(event).toMatchObject({ project: 'default', preData: null });
    expect(event.data).toEqual(stored(res.body));
  });

  it('reads one segment (200) and lists all by id', async () => {
    const one = await app.get(`/api/admin/segments/${mobileId}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: mobileId, name: 'mobile', project: 'default' });
    const list = await app.get('/api/admin/segments');
    expect(list.status).toBe(200);
    expect(list.body.segments.map((s: { id: number }) => s.id)).toEqual([betaId, mobileId]);
    expect(list.body.segments[1]).toEqual(one.body);
  });

  it('refuses a duplicate name with 409 NameExistsError and creates nothing', async () => {
    await changesNothing(async () => {
      const res = await app.post('/api/admin/segments', { name: 'mobile', description: 'again' });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ name: 'NameExistsError', message: 'A segment with the name mobile already exists' });
    });
  });

  it('refuses a numeric constraint with a non-numeric value (400, path constraints/0/value)', async () => {
    await changesNothing(async () => {
      const res = await app.post('/api/admin/segments', { name: 'bad', constraints: [{ contextName: 'userId', operator: 'NUM_EQ', value: 'abc' }] });
      expect(res.status).toBe(400);
      expect(res.body.name).toBe('ValidationError');
      expect(res.body.details).toEqual([{ path: 'constraints/0/value', message: expect.stringContaining('must be a number') }]);
    });
  });

  it('refuses malformed bodies with 400 ValidationError naming each path', async () => {
    await changesNothing(async () => {
      const cases: Array<[unknown, string[]]> = [
        [{}, ['name']],
        [{ name: '' }, ['name']],
        [{ name: '   ' }, ['name']],
        [{ name: 'x'.repeat(101) }, ['name']],
        [{ name: 'ok', extra: true }, ['extra']],
        [{ name: 'ok', description: 5 }, ['description']],
        [{ name: 'ok', constraints: {} }, ['constraints']],
        [{ name: 'ok', constraints: [{ contextName: 'userId', operator: 'LIKE', values: ['a'] }] }, ['constraints/0/operator']],
        [{ name: 'ok', constraints: [{ contextName: 'userId', operator: 'IN' }] }, ['constraints/0/values']],
        [{ name: 'ok', constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'], unknown: 1 }] }, ['constraints/0/unknown']],
      ];
      for (const [body, paths] of cases) {
        const res = await app.post('/api/admin/segments', body);
        expect({ body, status: res.status, name: res.body.name }).toEqual({ body, status: 400, name: 'ValidationError' });
        expect({ body, paths: res.body.details.map((d: { path: string }) => d.path) }).toEqual({ body, paths });
      }
    });
  });

  it('refuses a value outside the legal values of the context field (400)', async () => {
    expect((await app.post('/api/admin/context', { name: 'region', legalValues: [{ value: 'eu' }, { value: 'us' }] })).status).toBe(201);
    await changesNothing(async () => {
      const res = await app.post('/api/admin/segments', { name: 'asia', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu', 'ap'] }] });
      expect(res.status).toBe(400);
      expect(res.body.name).toBe('ValidationError');
      expect(res.body.details).toEqual([{ path: 'constraints/0/values', message: expect.stringContaining('"ap"') }]);
    });
  });

  it('answers 404 NotFoundError for a constraint on an unknown context field, and for an unknown project', async () => {
    await changesNothing(async () => {
      const field = await app.post('/api/admin/segments', { name: 'ghost', constraints: [{ contextName: 'nope', operator: 'IN', values: ['x'] }] });
      expect(field.status).toBe(404);
      expect(field.body).toMatchObject({ name: 'NotFoundError', message: 'Could not find Context field with name nope' });
      const project = await app.post('/api/admin/segments', { name: 'ghost', project: 'nope' });
      expect(project.status).toBe(404);
      expect(project.body).toMatchObject({ name: 'NotFoundError', message: 'Project with id nope does not exist' });
    });
  });
});

describe('reading unknown segments', () => {
  it.each(['999', 'abc', '1.5', '-1', '0', '99999999999', '1e3', '%20'])('GET /segments/%s answers 404 NotFoundError', async (id) => {
    const res = await app.get(`/api/admin/segments/${id}`);
    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFoundError');
    expect(res.body.message).toContain('Could not find segment with id');
  });

  it('names the id in the message', async () => {
    expect((await app.get('/api/admin/segments/999')).body.message).toBe('Could not find segment with id 999');
  });
});

describe('validating a segment name', () => {
  it('answers 204 for a free name, 409 NameExistsError for a taken one, 400 ValidationError for an invalid one', async () => {
    await changesNothing(async () => {
      const free = await app.post('/api/admin/segments/validate', { name: 'brand new' });
      expect(free.status).toBe(204);
      const taken = await app.post('/api/admin/segments/validate', { name: 'beta users' });
      expect(taken.status).toBe(409);
      expect(taken.body).toMatchObject({ name: 'NameExistsError', message: 'A segment with the name beta users already exists' });
      const empty = await app.post('/api/admin/segments/validate', { name: '' });
      expect(empty.status).toBe(400);
      expect(empty.body.name).toBe('ValidationError');
      expect(empty.body.details.map((d: { path: string }) => d.path)).toEqual(['name']);
      const missing = await app.post('/api/admin/segments/validate', {});
      expect(missing.status).toBe(400);
      expect(missing.body.details.map((d: { path: string }) => d.path)).toEqual(['name']);
    });
  });
});

describe('updating segments', () => {
  it('replaces what is sent (204), keeps an absent description, and records segment-updated with data and preData', async () => {
    const before = (await app.get(`/api/admin/segments/${betaId}`)).body;
    const constraints = [{ contextName: 'environment', operator: 'STR_STARTS_WITH', values: ['prod'] }];
    const res = await app.put(`/api/admin/segments/${betaId}`, { name: 'beta testers', project: 'default', constraints });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    const after = (await app.get(`/api/admin/segments/${betaId}`)).body;
    expect(after).toEqual({
      ...before, name: 'beta testers', project: 'default',
      constraints: [{ contextName: 'environment', operator: 'STR_STARTS_WITH', values: ['prod'], caseInsensitive: false, inverted: false }],
    });
    const [event] = await app.events('segment-updated');
    expect(event).toMatchObject({ type: 'segment-updated', project: 'default', createdBy: 'admin' });
    expect(event.data).toEqual(stored(after));
    expect(event.preData).toEqual(stored(before));
  });

  it('writes no event when nothing changes', async () => {
    const before = (await app.get(`/api/admin/segments/${betaId}`)).body;
    await changesNothing(async () => {
      const res = await app.put(`/api/admin/segments/${betaId}`, {
        name: 'beta testers', project: 'default', description: null,
        constraints: [{ inverted: false, values: ['prod'], operator: 'STR_STARTS_WITH', contextName: 'environment' }],
      });
      expect(res.status).toBe(204);
    });
    expect((await app.get(`/api/admin/segments/${betaId}`)).body).toEqual(before);
  });

  it('sets and clears the description, makes a segment global with project null, and keeps absent constraints', async () => {
    expect((await app.put(`/api/admin/segments/${betaId}`, { name: 'beta testers', description: 'Early adopters' })).status).toBe(204);
    expect((await app.get(`/api/admin/segments/${betaId}`)).body).toMatchObject({ description: 'Early adopters', project: 'default' });
    expect((await app.put(`/api/admin/segments/${betaId}`, { name: 'beta testers', description: null, project: null })).status).toBe(204);
    const after = (await app.get(`/api/admin/segments/${betaId}`)).body;
    expect(after).toMatchObject({ description: null, project: null, constraints: [expect.objectContaining({ contextName: 'environment' })] });
    const [event] = await app.events('segment-updated');
    expect(event.project).toBeNull();
    expect(event.preData).toMatchObject({ description: 'Early adopters', project: 'default' });
    expect(event.data).toMatchObject({ description: null, project: null });
  });

  it('refuses renaming onto another segment\'s name (409 NameExistsError) and changes nothing', async () => {
    await changesNothing(async () => {
      const res = await app.put(`/api/admin/segments/${betaId}`, { name: 'mobile' });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ name: 'NameExistsError', message: 'A segment with the name mobile already exists' });
    });
  });

  it('refuses invalid input (400), unknown context fields, projects and segments (404), and changes nothing', async () => {
    await changesNothing(async () => {
      const bad = await app.put(`/api/admin/segments/${betaId}`, { name: 'beta testers', constraints: [{ contextName: 'userId', operator: 'NUM_EQ', value: 'abc' }] });
      expect(bad.status).toBe(400);
      expect(bad.body.name).toBe('ValidationError');
      expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(['constraints/0/value']);
      const noName = await app.put(`/api/admin/segments/${betaId}`, { description: 'x' });
      expect(noName.status).toBe(400);
      expect(noName.body.details.map((d: { path: string }) => d.path)).toEqual(['name']);
      const field = await app.put(`/api/admin/segments/${betaId}`, { name: 'beta testers', constraints: [{ contextName: 'nope', operator: 'IN', values: ['x'] }] });
      expect(field.status).toBe(404);
      expect(field.body.name).toBe('NotFoundError');
      const project = await app.put(`/api/admin/segments/${betaId}`, { name: 'beta testers', project: 'nope' });
      expect(project.status).toBe(404);
      expect(project.body.name).toBe('NotFoundError');
      for (const id of ['999', 'abc']) {
        const missing = await app.put(`/api/admin/segments/${id}`, { name: 'whatever' });
        expect(missing.status).toBe(404);
        expect(missing.body).toMatchObject({ name: 'NotFoundError', message: `Could not find segment with id ${id}` });
      }
    });
  });
});

describe('segments in use', () => {
  it('counts the features and projects whose strategies use a segment, and lists those strategies', async () => {
    expect((await app.post('/api/admin/projects', { id: 'other', name: 'Other' })).status).toBe(201);
    await sql(`insert into features (name, project) values ('f1', 'default'), ('f2', 'other')`);
    await sql(`insert into feature_strategies (id, feature_name, project, environment, strategy_name) values
      (?, 'f1', 'default', 'development', 'default'), (?, 'f1', 'default', 'production', 'flexibleRollout'), (?, 'f2', 'other', 'development', 'default')`,
    [STRATEGY_1, STRATEGY_2, STRATEGY_3]);
    await sql(`insert into feature_strategy_segments (feature_strategy_id, segment_id) values (?, ?), (?, ?), (?, ?), (?, ?)`,
      [STRATEGY_1, betaId, STRATEGY_2, betaId, STRATEGY_3, betaId, STRATEGY_1, mobileId]);

    expect((await app.get(`/api/admin/segments/${betaId}`)).body).toMatchObject({ usedInFeatures: 2, usedInProjects: 2 });
    expect((await app.get(`/api/admin/segments/${mobileId}`)).body).toMatchObject({ usedInFeatures: 1, usedInProjects: 1 });
    const list = (await app.get('/api/admin/segments')).body.segments;
    expect(list.map((s: { id: number; usedInFeatures: number; usedInProjects: number }) => [s.id, s.usedInFeatures, s.usedInProjects]))
      .toEqual([[betaId, 2, 2], [mobileId, 1, 1]]);

    const res = await app.get(`/api/admin/segments/${betaId}/strategies`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      strategies: [
        { id: STRATEGY_1, featureName: 'f1', projectId: 'default', environment: 'development', strategyName: 'default' },
        { id: STRATEGY_2, featureName: 'f1', projectId: 'default', environment: 'production', strategyName: 'flexibleRollout' },
        { id: STRATEGY_3, featureName: 'f2', projectId: 'other', environment: 'development', strategyName: 'default' },
      ],
    });
  });

  it('lists no strategies for an unused segment, and answers 404 for an unknown one', async () => {
    const created = await app.post('/api/admin/segments', { name: 'unused' });
    expect(created.status).toBe(201);
    expect((await app.get(`/api/admin/segments/${created.body.id}/strategies`)).body).toEqual({ strategies: [] });
    for (const id of ['999', 'abc']) {
      const res = await app.get(`/api/admin/segments/${id}/strategies`);
      expect(res.status).toBe(404);
      expect(res.body.name).toBe('NotFoundError');
    }
  });

  it('refuses moving a segment into a project while strategies of other projects use it (400, path project)', async () => {
    await changesNothing(async () => {
      const res = await app.put(`/api/admin/segments/${betaId}`, { name: 'beta testers', project: 'default' });
      expect(res.status).toBe(400);
      expect(res.body.name).toBe('ValidationError');
      expect(res.body.details).toEqual([{ path: 'project', message: expect.stringContaining('other') }]);
    });
  });

  it('allows moving a segment into the one project whose strategies use it', async () => {
    const res = await app.put(`/api/admin/segments/${mobileId}`, { name: 'mobile', project: 'default', description: 'Phones' });
    expect(res.status).toBe(204);
    expect((await app.get(`/api/admin/segments/${mobileId}`)).body).toMatchObject({ project: 'default', description: 'Phones' });
  });

  it('refuses deleting a segment strategies use (403 InvalidOperationError naming how many) and keeps it', async () => {
    await changesNothing(async () => {
      const res = await app.del(`/api/admin/segments/${betaId}`);
      expect(res.status).toBe(403);
      expect(res.body.name).toBe('InvalidOperationError');
      expect(res.body.message).toContain('3 strategies');
      const one = await app.del(`/api/admin/segments/${mobileId}`);
      expect(one.status).toBe(403);
      expect(one.body.message).toContain('1 strategy');
    });
    expect((await app.get(`/api/admin/segments/${betaId}/strategies`)).body.strategies).toHaveLength(3);
  });
});

describe('deleting segments', () => {
  it('deletes an unused segment (204) and records segment-deleted with preData', async () => {
    await sql('delete from feature_strategy_segments where segment_id = ?', [mobileId]);
    const before = (await app.get(`/api/admin/segments/${mobileId}`)).body;
    const res = await app.del(`/api/admin/segments/${mobileId}`);
    expect(res.status).toBe(204);
    const [event] = await app.events('segment-deleted');
    expect(event).toMatchObject({ type: 'segment-deleted', project: 'default', data: null });
    expect(event.preData).toEqual(stored(before));
    expect((await app.get(`/api/admin/segments/${mobileId}`)).status).toBe(404);
    expect((await app.get('/api/admin/segments')).body.segments.map((s: { id: number }) => s.id)).not.toContain(mobileId);
  });

  it('answers 404 NotFoundError for an unknown, already deleted or non-numeric id and writes no event', async () => {
    await changesNothing(async () => {
      for (const id of [String(mobileId), '999', 'abc']) {
        const res = await app.del(`/api/admin/segments/${id}`);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ name: 'NotFoundError', message: `Could not find segment with id ${id}` });
      }
    });
  });
});

describe('permissions', () => {
  const user = (rootRoleId: number): Principal => ({ kind: 'user', name: `role-${rootRoleId}@example.com`, userId: 100 + rootRoleId, isAdmin: false, rootRoleId });
  const as = (p: Principal) => createServices(app.orm.em.fork(), p).segments;

  it('a Viewer may read but gets NoAccessError for create, update and delete, and nothing changes', async () => {
    const viewer = () => as(user(ROLE_VIEWER));
    await expect(viewer().list()).resolves.toHaveLength(2);
    await changesNothing(async () => {
      await expect(viewer().create({ name: 'viewer' })).rejects.toMatchObject({ name: 'NoAccessError', permission: 'CREATE_SEGMENT' });
      await expect(viewer().update(betaId, { name: 'viewer' })).rejects.toMatchObject({ name: 'NoAccessError', permission: 'UPDATE_SEGMENT' });
      await expect(viewer().remove(betaId)).rejects.toMatchObject({ name: 'NoAccessError', permission: 'DELETE_SEGMENT' });
    });
  });

  it('an Editor may create segments; the event names the user', async () => {
    await expect(as(user(ROLE_EDITOR)).create({ name: 'editors' })).resolves.toMatchObject({ name: 'editors', createdBy: `role-${ROLE_EDITOR}@example.com` });
    const [event] = await app.events('segment-created');
    expect(event).toMatchObject({ createdBy: `role-${ROLE_EDITOR}@example.com`, createdByUserId: 100 + ROLE_EDITOR });
  });
});

describe('byIds', () => {
  it('returns the existing segments of the given ids in one query, ignoring unknown ids', async () => {
    const segments = createServices(app.orm.em.fork(), { kind: 'system', name: 'test', userId: null, isAdmin: true, rootRoleId: null }).segments;
    app.resetQueryCount();
    const found = await segments.byIds([betaId, 999, betaId, mobileId]);
    expect(app.queries).toHaveLength(1);
    expect([...found.keys()]).toEqual([betaId]);
    expect(found.get(betaId)).toEqual((await app.get(`/api/admin/segments/${betaId}`)).body);
  });
});
