import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

/** There is no feature API yet: strategies with constraints are written directly. */
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);
const eventCount = async () => (await app.events()).length;

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const seeded = (name: string, sortOrder: number, stickiness = false) => ({
  name, description: `Allows you to constrain on ${name}`, stickiness, sortOrder, legalValues: [], createdAt: ISO, usedInFeatures: 0, usedInProjects: 0,
});
/** The audit log keeps a field's stored properties, not its computed usage or creation time. */
const stored = (f: { name: string; description: string | null; stickiness: boolean; sortOrder: number; legalValues: unknown[] }) =>
  ({ name: f.name, description: f.description, stickiness: f.stickiness, sortOrder: f.sortOrder, legalValues: f.legalValues });

describe('reading context fields', () => {
  it('lists the seeded fields as a bare array ordered by name, with every documented property', async () => {
    const res = await app.get('/api/admin/context');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      seeded('appName', 2), seeded('currentTime', 3), seeded('environment', 0), seeded('sessionId', 4, true), seeded('userId', 1),
    ]);
    for (const field of res.body) {
      expect(Object.keys(field).sort()).toEqual(['createdAt', 'description', 'legalValues', 'name', 'sortOrder', 'stickiness', 'usedInFeatures', 'usedInProjects']);
    }
  });

  it('reads one field, and answers 404 NotFoundError for an unknown one', async () => {
    const res = await app.get('/api/admin/context/sessionId');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(seeded('sessionId', 4, true));
    const missing = await app.get('/api/admin/context/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ name: 'NotFoundError', message: 'Could not find Context field with name nope' });
    expect(typeof missing.body.id).toBe('string');
  });
});

describe('creating context fields', () => {
  it('creates a field (201) with defaults and records context-field-created', async () => {
    const res = await app.post('/api/admin/context', { name: 'tenant' });
    expect(res.status).toBe(201);
    const tenant = { name: 'tenant', description: null, stickiness: false, sortOrder: 10, legalValues: [], createdAt: ISO, usedInFeatures: 0, usedInProjects: 0 };
    expect(res.body).toEqual(tenant);
    const [event] = await app.events('context-field-created');
    expect(event).toMatchObject({ type: 'context-field-created', createdBy: 'admin', createdByUserId: -1337, project: null, environment: null, preData: null });
    expect(event.data).toEqual(stored(res.body));
    expect((await app.get('/api/admin/context/tenant')).body).toEqual({ ...tenant, createdAt: res.body.createdAt });
  });

  it('takes every property, and keeps the list ordered by name', async () => {
    const body = {
      name: 'region', description: 'Deployment region', stickiness: true, sortOrder: 5,
      legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }],
    };
    const res = await app.post('/api/admin/context', body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ...body, createdAt: ISO, usedInFeatures: 0, usedInProjects: 0 });
    const [event] = await app.events('context-field-created');
    expect(event.data).toEqual(body);
    const names = (await app.get('/api/admin/context')).body.map((f: { name: string }) => f.name);
    expect(names).toEqual(['appName', 'currentTime', 'environment', 'region', 'sessionId', 'tenant', 'userId']);
  });

  it('refuses a duplicate name with 409 NameExistsError and writes no event', async () => {
    const before = await eventCount();
    const res = await app.post('/api/admin/context', { name: 'userId', description: 'again' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ name: 'NameExistsError', message: 'A context field with the name userId already exists' });
    expect(await eventCount()).toBe(before);
    expect((await app.get('/api/admin/context/userId')).body).toEqual(seeded('userId', 1));
  });

  it('refuses duplicate legal values (400 ValidationError) and creates nothing', async () => {
    const before = await eventCount();
    const res = await app.post('/api/admin/context', { name: 'plan', legalValues: [{ value: 'pro' }, { value: 'free' }, { value: 'pro', description: 'again' }] });
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.details).toEqual([{ path: 'legalValues/2/value', message: expect.stringContaining('"pro" appears more than once') }]);
    expect(await eventCount()).toBe(before);
    expect((await app.get('/api/admin/context/plan')).status).toBe(404);
  });
});

describe('validating a context field name', () => {
  it('answers 200 for a free name, 409 NameExistsError for a taken one, 400 ValidationError for an invalid one', async () => {
    const before = await eventCount();
    const free = await app.post('/api/admin/context/validate', { name: 'brand-new' });
    expect(free.status).toBe(200);
    const taken = await app.post('/api/admin/context/validate', { name: 'region' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ name: 'NameExistsError', message: 'A context field with the name region already exists' });
    const invalid = await app.post('/api/admin/context/validate', { name: 'has space' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.name).toBe('ValidationError');
    expect(invalid.body.details).toEqual([{ path: 'name', message: expect.stringContaining('URL friendly') }]);
    expect(await eventCount()).toBe(before);
    expect((await app.get('/api/admin/context/brand-new')).status).toBe(404);
  });
});

describe('updating context fields', () => {
  it('updates only the properties sent and records context-field-updated with data and preData', async () => {
    const before = (await app.get('/api/admin/context/region')).body;
    const res = await app.put('/api/admin/context/region', { description: 'Cloud region' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, description: 'Cloud region' });
    const [event] = await app.events('context-field-updated');
    expect(event).toMatchObject({ type: 'context-field-updated', project: null, environment: null });
    expect(event.data).toEqual(stored({ ...before, description: 'Cloud region' }));
    expect(event.preData).toEqual(stored(before));
    expect((await app.get('/api/admin/context/region')).body).toEqual(res.body);
  });

  it('changes stickiness and sortOrder without touching description or legal values', async () => {
    const res = await app.put('/api/admin/context/region', { stickiness: false, sortOrder: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'region', description: 'Cloud region', stickiness: false, sortOrder: 1,
      legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }],
    });
    const [event] = await app.events('context-field-updated');
    expect(event.preData).toMatchObject({ stickiness: true, sortOrder: 5 });
    expect(event.data).toMatchObject({ stickiness: false, sortOrder: 1 });
  });

  it('replaces legal values, clears the description with null, and accepts a matching name', async () => {
    const res = await app.put('/api/admin/context/region', { name: 'region', description: null, legalValues: [{ value: 'ap' }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'region', description: null, stickiness: false, sortOrder: 1, legalValues: [{ value: 'ap' }] });
  });

  it('refuses duplicate legal values (400 ValidationError) and changes nothing', async () => {
    const before = (await app.get('/api/admin/context/region')).body;
    const count = await eventCount();
    const res = await app.put('/api/admin/context/region', { legalValues: [{ value: 'eu' }, { value: 'eu' }] });
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.details).toEqual([{ path: 'legalValues/1/value', message: expect.stringContaining('"eu" appears more than once') }]);
    expect((await app.get('/api/admin/context/region')).body).toEqual(before);
    expect(await eventCount()).toBe(count);
  });

  it('refuses a rename (400 ValidationError, path name) and changes nothing', async () => {
    const before = (await app.get('/api/admin/context/region')).body;
    const count = await eventCount();
    const res = await app.put('/api/admin/context/region', { name: 'zone', description: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['name']);
    expect((await app.get('/api/admin/context/region')).body).toEqual(before);
    expect((await app.get('/api/admin/context/zone')).status).toBe(404);
    expect(await eventCount()).toBe(count);
  });

  it('answers 404 NotFoundError for an unknown field and writes no event', async () => {
    const count = await eventCount();
    const res = await app.put('/api/admin/context/nope', { description: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ name: 'NotFoundError', message: 'Could not find Context field with name nope' });
    expect(await eventCount()).toBe(count);
    expect((await app.get('/api/admin/context/nope')).status).toBe(404);
  });
});

describe('legal values', () => {
  it('adds a legal value (200, the field) with a context-field-updated event', async () => {
    const res = await app.post('/api/admin/context/region/legal-values', { value: 'eu', description: 'Europe' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'region', legalValues: [{ value: 'ap' }, { value: 'eu', description: 'Europe' }] });
    const [event] = await app.events('context-field-updated');
    expect(event.preData.legalValues).toEqual([{ value: 'ap' }]);
    expect(event.data.legalValues).toEqual([{ value: 'ap' }, { value: 'eu', description: 'Europe' }]);
    expect((await app.get('/api/admin/context/region')).body.legalValues).toEqual(res.body.legalValues);
  });

  it('adding an existing value replaces its description instead of duplicating it', async () => {
    const res = await app.post('/api/admin/context/region/legal-values', { value: 'eu', description: 'European Union' });
    expect(res.status).toBe(200);
    expect(res.body.legalValues).toEqual([{ value: 'ap' }, { value: 'eu', description: 'European Union' }]);
  });

  it('adds a value that needs URL encoding, and removes it by its encoded path segment', async () => {
    expect((await app.post('/api/admin/context/region/legal-values', { value: 'us east/1' })).status).toBe(200);
    const res = await app.del(`/api/admin/context/region/legal-values/${encodeURIComponent('us east/1')}`);
    expect(res.status).toBe(200);
    expect(res.body.legalValues).toEqual([{ value: 'ap' }, { value: 'eu', description: 'European Union' }]);
  });

  it('removes a legal value (200, the field) with a context-field-updated event', async () => {
    const res = await app.del('/api/admin/context/region/legal-values/ap');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'region', legalValues: [{ value: 'eu', description: 'European Union' }] });
    const [event] = await app.events('context-field-updated');
    expect(event.preData.legalValues).toEqual([{ value: 'ap' }, { value: 'eu', description: 'European Union' }]);
    expect(event.data.legalValues).toEqual([{ value: 'eu', description: 'European Union' }]);
  });

  it('answers 404 NotFoundError for an absent value or an unknown field, and writes no event', async () => {
    const count = await eventCount();
    const absent = await app.del('/api/admin/context/region/legal-values/ap');
    expect(absent.status).toBe(404);
    expect(absent.body).toMatchObject({ name: 'NotFoundError', message: 'The context field region has no legal value "ap"' });
    const noFieldDel = await app.del('/api/admin/context/nope/legal-values/ap');
    expect(noFieldDel.status).toBe(404);
    expect(noFieldDel.body.name).toBe('NotFoundError');
    const noFieldAdd = await app.post('/api/admin/context/nope/legal-values', { value: 'ap' });
    expect(noFieldAdd.status).toBe(404);
    expect(noFieldAdd.body.name).toBe('NotFoundError');
    expect(await eventCount()).toBe(count);
    expect((await app.get('/api/admin/context/nope')).status).toBe(404);
  });
});

describe('usage', () => {
  it('counts the distinct features and projects whose strategy constraints use a field', async () => {
    await sql(`insert into projects (id, name) values ('other', 'Other')`);
    await sql(`insert into features (name, project) values ('f1', 'default'), ('f2', 'default'), ('f3', 'other')`);
    const constraint = (contextName: string) => JSON.stringify([{ contextName, operator: 'IN', values: ['eu'] }]);
    const strategies: Array<[string, string, string, string]> = [
      ['00000000-0000-4000-8000-000000000011', 'f1', 'default', constraint('region')],
      ['00000000-0000-4000-8000-000000000012', 'f1', 'default', constraint('region')],
      ['00000000-0000-4000-8000-000000000013', 'f2', 'default', JSON.stringify([...JSON.parse(constraint('region')), ...JSON.parse(constraint('userId'))])],
      ['00000000-0000-4000-8000-000000000014', 'f3', 'other', constraint('region')],
    ];
    for (const [id, feature, project, constraints] of strategies) {
      await sql(`insert into feature_strategies (id, feature_name, project, environment, strategy_name, constraints) values (?, ?, ?, 'development', 'default', ?::jsonb)`,
        [id, feature, project, constraints]);
    }
    expect((await app.get('/api/admin/context/region')).body).toMatchObject({ usedInFeatures: 3, usedInProjects: 2 });
    expect((await app.get('/api/admin/context/userId')).body).toMatchObject({ usedInFeatures: 1, usedInProjects: 1 });
    const list = (await app.get('/api/admin/context')).body as Array<{ name: string; usedInFeatures: number; usedInProjects: number }>;
    expect(list.map((f) => [f.name, f.usedInFeatures, f.usedInProjects])).toEqual([
      ['appName', 0, 0], ['currentTime', 0, 0], ['environment', 0, 0], ['region', 3, 2], ['sessionId', 0, 0], ['tenant', 0, 0], ['userId', 1, 1],
    ]);
  });

  it('answers an update and a legal value change with the field\'s usage counts, as a read shows them', async () => {
    const used = { usedInFeatures: 3, usedInProjects: 2 };
    expect((await app.put('/api/admin/context/region', { description: 'Where the user is' })).body).toMatchObject({ description: 'Where the user is', ...used });
    const added = (await app.post('/api/admin/context/region/legal-values', { value: 'usage-eu' })).body;
    expect(added).toMatchObject(used);
    expect(added.legalValues).toContainEqual({ value: 'usage-eu' });
    const removed = (await app.del('/api/admin/context/region/legal-values/usage-eu')).body;
    expect(removed).toMatchObject(used);
    expect(removed.legalValues).not.toContainEqual({ value: 'usage-eu' });
    expect((await app.get('/api/admin/context/region')).body).toMatchObject(used);
  });
});

describe('deleting context fields', () => {
  it('deletes (200), records context-field-deleted with preData, and the field is gone', async () => {
    const res = await app.del('/api/admin/context/tenant');
    expect(res.status).toBe(200);
    const [event] = await app.events('context-field-deleted');
    expect(event).toMatchObject({ type: 'context-field-deleted', data: null });
    expect(event.preData).toEqual({ name: 'tenant', description: null, stickiness: false, sortOrder: 10, legalValues: [] });
    expect((await app.get('/api/admin/context/tenant')).status).toBe(404);
    expect((await app.get('/api/admin/context')).body.map((f: { name: string }) => f.name)).not.toContain('tenant');
  });

  it('answers 404 NotFoundError for an unknown (or already deleted) field and writes no event', async () => {
    const count = await eventCount();
    const res = await app.del('/api/admin/context/tenant');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ name: 'NotFoundError', message: 'Could not find Context field with name tenant' });
    expect(await eventCount()).toBe(count);
  });
});
