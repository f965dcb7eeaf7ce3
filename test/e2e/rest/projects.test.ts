import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

/** There is no feature API yet: features are written and read directly. */
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);
const eventCount = async () => (await app.events()).length;
const linked = async (id: string) =>
  ((await app.get(`/api/admin/projects/${id}`)).body.environments as Array<{ environment: string }>).map((e) => e.environment);

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const noNaming = { pattern: null, example: null, description: null };
const defaultProject = {
  id: 'default', name: 'Default', description: 'Default project', mode: 'open', defaultStickiness: 'default',
  featureLimit: null, featureNaming: noNaming, health: 100, createdAt: ISO, updatedAt: null,
};

describe('reading projects', () => {
  it('lists the seeded default project as {version, projects} with featureCount', async () => {
    const res = await app.get('/api/admin/projects');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 1, projects: [{ ...defaultProject, featureCount: 0, favorite: false }] });
  });

  it('reads one project with its environments and featureCount', async () => {
    const res = await app.get('/api/admin/projects/default');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      version: 1, ...defaultProject, featureCount: 0, favorite: false,
      environments: [{ environment: 'development', defaultStrategy: null }, { environment: 'production', defaultStrategy: null }],
    });
  });

  it('answers 404 NotFoundError for an unknown project', async () => {
    const res = await app.get('/api/admin/projects/nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ name: 'NotFoundError', message: 'Project with id nope does not exist' });
    expect(typeof res.body.id).toBe('string');
  });
});

describe('creating projects', () => {
  it('creates a project (201) with defaults and records project-created', async () => {
    const res = await app.post('/api/admin/projects', { id: 'checkout', name: 'Checkout' });
    expect(res.status).toBe(201);
    const checkout = {
      id: 'checkout', name: 'Checkout', description: null, mode: 'open', defaultStickiness: 'default',
      featureLimit: null, featureNaming: noNaming, health: 100, createdAt: ISO, updatedAt: null,
    };
    expect(res.body).toEqual(checkout);
    const [event] = await app.events('project-created');
    expect(event).toMatchObject({ type: 'project-created', createdBy: 'admin', createdByUserId: -1337, project: 'checkout', environment: null, preData: null });
    expect(event.data).toEqual(res.body);
    expect((await app.get('/api/admin/projects/checkout')).body).toEqual({ version: 1, ...res.body, featureCount: 0, favorite: false, environments: expect.any(Array) });
  });

  it('takes every optional property', async () => {
    const body = { id: 'search', name: 'Search', description: 'Search team', mode: 'protected', defaultStickiness: 'userId', featureLimit: 5 };
    const res = await app.post('/api/admin/projects', body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(body);
    const [event] = await app.events('project-created');
    expect(event).toMatchObject({ project: 'search', data: body });
  });

  it('gives a new project every switched-on environment, and no switched-off one', async () => {
    expect((await app.post('/api/admin/environments', { name: 'staging', type: 'staging', sortOrder: 1 })).status).toBe(201);
    expect((await app.post('/api/admin/environments', { name: 'sandbox', type: 'test', sortOrder: 5 })).status).toBe(201);
    expect((await app.post('/api/admin/environments/sandbox/off')).status).toBe(204);
    expect((await app.post('/api/admin/projects', { id: 'mobile', name: 'Mobile' })).status).toBe(201);
    expect((await app.post('/api/admin/environments/sandbox/on')).status).toBe(204);
    // sandbox is on again, yet mobile was not given it
    expect(await linked('mobile')).toEqual(['staging', 'development', 'production']);
    const rows = await sql(`select environment_name from project_environments where project_id = 'mobile' order by environment_name`);
    expect(rows.map((r) => r.environment_name)).toEqual(['development', 'production', 'staging']);
  });

  it('refuses a duplicate id with 409 NameExistsError and writes no event', async () => {
    const before = await eventCount();
    const res = await app.post('/api/admin/projects', { id: 'checkout', name: 'Other' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ name: 'NameExistsError', message: 'A project with the id checkout already exists' });
    expect(await eventCount()).toBe(before);
    expect((await app.get('/api/admin/projects/checkout')).body.name).toBe('Checkout');
  });

  it('lists projects by name with their count of non-archived features', async () => {
    await sql(`insert into features (name, project) values ('checkout-a', 'checkout'), ('checkout-b', 'checkout')`);
    await sql(`insert into features (name, project, archived_at) values ('checkout-old', 'checkout', now())`);
    const res = await app.get('/api/admin/projects');
    expect(res.body.projects.map((p: { id: string; featureCount: number }) => [p.id, p.featureCount]))
      .toEqual([['checkout', 2], ['default', 0], ['mobile', 0], ['search', 0]]);
    expect((await app.get('/api/admin/projects/checkout')).body.featureCount).toBe(2);
  });
});

describe('updating projects', () => {
  it('updates (200), sets updatedAt, and records project-updated with data and preData', async () => {
    const before = (await app.get('/api/admin/projects/search')).body;
    const body = { name: 'Search 2', description: 'Search and discovery', mode: 'private', defaultStickiness: 'sessionId', featureLimit: 10 };
    const res = await app.put('/api/admin/projects/search', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...body, id: 'search', featureNaming: noNaming, health: 100, createdAt: before.createdAt, updatedAt: ISO });
    const [event] = await app.events('project-updated');
    expect(event).toMatchObject({ type: 'project-updated', project: 'search', environment: null });
    expect(event.data).toEqual(res.body);
    expect(event.preData).toEqual({
      id: 'search', name: 'Search', description: 'Search team', mode: 'protected', defaultStickiness: 'userId',
      featureLimit: 5, featureNaming: noNaming, health: 100, createdAt: before.createdAt, updatedAt: null,
    });
    expect((await app.get('/api/admin/projects/search')).body).toMatchObject(body);
  });

  it('leaves absent optional properties untouched, accepts a matching id, and clears with null', async () => {
    const res = await app.put('/api/admin/projects/search', { id: 'search', name: 'Search 3', description: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Search 3', description: null, mode: 'private', defaultStickiness: 'sessionId', featureLimit: 10 });
    const [event] = await app.events('project-updated');
    expect(event.preData).toMatchObject({ name: 'Search 2', description: 'Search and discovery' });
    expect(event.data).toMatchObject({ name: 'Search 3', description: null });
  });

  it('refuses to change the id (400 ValidationError, path id) and writes no event', async () => {
    const before = await eventCount();
    const res = await app.put('/api/admin/projects/search', { id: 'other', name: 'X' });
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['id']);
    expect(await eventCount()).toBe(before);
    expect((await app.get('/api/admin/projects/search')).body.name).toBe('Search 3');
    expect((await app.get('/api/admin/projects/other')).status).toBe(404);
  });

  it('answers 404 NotFoundError for an unknown project and writes no event', async () => {
    const before = await eventCount();
    const res = await app.put('/api/admin/projects/nope', { name: 'X' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ name: 'NotFoundError', message: 'Project with id nope does not exist' });
    expect(await eventCount()).toBe(before);
  });
});

describe('project environments', () => {
  it('links an environment (200), records project-environment-added, and configures the project\'s features in it', async () => {
    // checkout was created before staging and sandbox existed
    expect(await linked('checkout')).toEqual(['development', 'production']);
    const res = await app.post('/api/admin/projects/checkout/environments', { environment: 'sandbox' });
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    const [event] = await app.events('project-environment-added');
    expect(event).toMatchObject({ type: 'project-environment-added', project: 'checkout', environment: 'sandbox', createdBy: 'admin' });
    expect(await linked('checkout')).toEqual(['development', 'production', 'sandbox']);
    expect((await app.get('/api/admin/environments/project/checkout')).body.environments.map((e: { name: string }) => e.name))
      .toEqual(['development', 'production', 'sandbox']);
    const config = await sql(`select feature_name, enabled from feature_environments where environment = 'sandbox' order by feature_name`);
    expect(config).toEqual([
      { feature_name: 'checkout-a', enabled: false }, { feature_name: 'checkout-b', enabled: false }, { feature_name: 'checkout-old', enabled: false },
    ]);
  });

  it('refuses an environment already linked with 409 NameExistsError and writes no event', async () => {
    const before = await eventCount();
    const res = await app.post('/api/admin/projects/checkout/environments', { environment: 'sandbox' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ name: 'NameExistsError', message: 'The environment "sandbox" is already enabled for project "checkout"' });
    expect(await eventCount()).toBe(before);
  });

  it('answers 404 NotFoundError for an unknown project or environment and writes no event', async () => {
    const before = await eventCount();
    const noProject = await app.post('/api/admin/projects/nope/environments', { environment: 'sandbox' });
    expect(noProject.status).toBe(404);
    expect(noProject.body).toMatchObject({ name: 'NotFoundError', message: 'Project with id nope does not exist' });
    const noEnv = await app.post('/api/admin/projects/mobile/environments', { environment: 'nope' });
    expect(noEnv.status).toBe(404);
    expect(noEnv.body).toMatchObject({ name: 'NotFoundError', message: 'Could not find environment nope' });
    expect(await eventCount()).toBe(before);
    expect(await linked('mobile')).toEqual(['staging', 'development', 'production']);
  });

  it('unlinks an environment (200), records project-environment-removed, and drops the features\' configuration in it', async () => {
    await sql(`insert into feature_strategies (id, feature_name, project, environment, strategy_name)
               values ('00000000-0000-4000-8000-000000000002', 'checkout-a', 'checkout', 'sandbox', 'default'),
                      ('00000000-0000-4000-8000-000000000003', 'checkout-a', 'checkout', 'production', 'default')`);
    const res = await app.del('/api/admin/projects/checkout/environments/sandbox');
    expect(res.status).toBe(200);
    const [event] = await app.events('project-environment-removed');
    expect(event).toMatchObject({ type: 'project-environment-removed', project: 'checkout', environment: 'sandbox', createdBy: 'admin' });
    expect(await linked('checkout')).toEqual(['development', 'production']);
    expect(await sql(`select 1 from feature_environments where environment = 'sandbox'`)).toEqual([]);
    expect((await sql(`select environment from feature_strategies where feature_name = 'checkout-a'`)).map((r) => r.environment)).toEqual(['production']);
  });

  it('answers 404 NotFoundError for an environment that is not linked, or an unknown project', async () => {
    const before = await eventCount();
    const notLinked = await app.del('/api/admin/projects/checkout/environments/sandbox');
    expect(notLinked.status).toBe(404);
    expect(notLinked.body).toMatchObject({ name: 'NotFoundError', message: 'The environment "sandbox" is not enabled for project "checkout"' });
    const noProject = await app.del('/api/admin/projects/nope/environments/development');
    expect(noProject.status).toBe(404);
    expect(noProject.body).toMatchObject({ name: 'NotFoundError', message: 'Project with id nope does not exist' });
    expect(await eventCount()).toBe(before);
  });

  it('refuses to remove the last environment (400 ValidationError) and writes no event', async () => {
    expect((await app.del('/api/admin/projects/mobile/environments/staging')).status).toBe(200);
    expect((await app.del('/api/admin/projects/mobile/environments/production')).status).toBe(200);
    expect(await linked('mobile')).toEqual(['development']);
    const before = await eventCount();
    const res = await app.del('/api/admin/projects/mobile/environments/development');
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.details).toEqual([{ path: 'environment', message: 'A project must always have at least one environment.' }]);
    expect(await eventCount()).toBe(before);
    expect(await linked('mobile')).toEqual(['development']);
  });
});

describe('deleting projects', () => {
  it('refuses to delete the default project with 403 InvalidOperationError', async () => {
    const before = await eventCount();
    const res = await app.del('/api/admin/projects/default');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ name: 'InvalidOperationError', message: 'You can not delete the default project!' });
    expect(typeof res.body.id).toBe('string');
    expect(await eventCount()).toBe(before);
    expect((await app.get('/api/admin/projects/default')).status).toBe(200);
  });

  it('refuses to delete a project that has features with 403 InvalidOperationError', async () => {
    const res = await app.del('/api/admin/projects/checkout');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ name: 'InvalidOperationError', message: 'You can not delete a project with active feature toggles' });
    await sql(`update features set archived_at = now() where project = 'checkout'`);
    const archived = await app.del('/api/admin/projects/checkout');
    expect(archived.status).toBe(403);
    expect(archived.body.name).toBe('InvalidOperationError');
    expect((await app.get('/api/admin/projects/checkout')).status).toBe(200);
  });

  it('deletes (200), records project-deleted with preData, and the project is gone', async () => {
    const project = (await app.get('/api/admin/projects/mobile')).body;
    const res = await app.del('/api/admin/projects/mobile');
    expect(res.status).toBe(200);
    const [event] = await app.events('project-deleted');
    expect(event).toMatchObject({ type: 'project-deleted', project: 'mobile', data: null });
    expect(event.preData).toEqual({
      id: 'mobile', name: 'Mobile', description: null, mode: 'open', defaultStickiness: 'default',
      featureLimit: null, featureNaming: noNaming, health: 100, createdAt: project.createdAt, updatedAt: null,
    });
    expect((await app.get('/api/admin/projects/mobile')).status).toBe(404);
    expect((await app.get('/api/admin/projects')).body.projects.map((p: { id: string }) => p.id)).toEqual(['checkout', 'default', 'search']);
    expect(await sql(`select 1 from project_environments where project_id = 'mobile'`)).toEqual([]);
  });

  it('answers 404 NotFoundError for an unknown (or already deleted) project and writes no event', async () => {
    const before = await eventCount();
    const res = await app.del('/api/admin/projects/mobile');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ name: 'NotFoundError', message: 'Project with id mobile does not exist' });
    expect(await eventCount()).toBe(before);
  });
});
