import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

/** There is no feature API yet: feature configuration is written and read directly. */
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);
const eventCount = async () => (await app.events()).length;

const development = { name: 'development', type: 'development', enabled: true, protected: false, sortOrder: 2 };
const production = { name: 'production', type: 'production', enabled: true, protected: false, sortOrder: 3 };
const names = (envs: Array<{ name: string }>) => envs.map((e) => e.name);

describe('reading environments', () => {
  it('lists the seeded development and production as {version, environments}', async () => {
    const res = await app.get('/api/admin/environments');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 1, environments: [development, production] });
  });

  it('reads one environment by name, and answers 404 NotFoundError for an unknown one', async () => {
    const res = await app.get('/api/admin/environments/production');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(production);
    const missing = await app.get('/api/admin/environments/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ name: 'NotFoundError', message: 'Could not find environment nope' });
    expect(typeof missing.body.id).toBe('string');
  });
});

describe('creating environments', () => {
  it('creates an environment (201) with defaults, and records environment-created', async () => {
    const res = await app.post('/api/admin/environments', { name: 'qa', type: 'test' });
    expect(res.status).toBe(201);
    const qa = { name: 'qa', type: 'test', enabled: true, protected: false, sortOrder: 0 };
    expect(res.body).toEqual(qa);
    const [event] = await app.events('environment-created');
    expect(event).toMatchObject({
      type: 'environment-created', createdBy: 'admin', createdByUserId: -1337,
      environment: 'qa', project: null, featureName: null, data: qa, preData: null,
    });
    expect((await app.get('/api/admin/environments/qa')).body).toEqual(qa);
  });

  it('takes sortOrder, and lists environments by sortOrder then name', async () => {
    const res = await app.post('/api/admin/environments', { name: 'staging', type: 'staging', sortOrder: 1 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ name: 'staging', type: 'staging', enabled: true, protected: false, sortOrder: 1 });
    const [event] = await app.events('environment-created');
    expect(event).toMatchObject({ environment: 'staging', data: res.body, preData: null });
    const list = await app.get('/api/admin/environments');
    expect(names(list.body.environments)).toEqual(['qa', 'staging', 'development', 'production']);
  });

  it('creates a switched-off environment when asked (enabled: false)', async () => {
    const res = await app.post('/api/admin/environments', { name: 'dormant', type: 'test', sortOrder: 9, enabled: false });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ name: 'dormant', type: 'test', enabled: false, protected: false, sortOrder: 9 });
    const [event] = await app.events('environment-created');
    expect(event).toMatchObject({ environment: 'dormant', data: { name: 'dormant', enabled: false } });
  });

  it('refuses a duplicate name with 409 NameExistsError and writes no event', async () => {
    const before = await eventCount();
    const res = await app.post('/api/admin/environments', { name: 'production', type: 'other' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ name: 'NameExistsError', message: 'An environment with the name production already exists' });
    expect(typeof res.body.id).toBe('string');
    expect(await eventCount()).toBe(before);
    expect((await app.get('/api/admin/environments/production')).body).toEqual(production);
  });
});

describe('updating environments', () => {
  it('updates type and sortOrder, recording environment-updated with data and preData', async () => {
    const res = await app.put('/api/admin/environments/qa', { type: 'quality', sortOrder: 4 });
    expect(res.status).toBe(200);
    const after = { name: 'qa', type: 'quality', enabled: true, protected: false, sortOrder: 4 };
    expect(res.body).toEqual(after);
    const [event] = await app.events('environment-updated');
    expect(event).toMatchObject({ type: 'environment-updated', environment: 'qa', project: null });
    expect(event.data).toEqual(after);
    expect(event.preData).toEqual({ name: 'qa', type: 'test', enabled: true, protected: false, sortOrder: 0 });
    expect((await app.get('/api/admin/environments/qa')).body).toEqual(after);
  });

  it('leaves absent properties untouched', async () => {
    const res = await app.put('/api/admin/environments/qa', { sortOrder: 6 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'qa', type: 'quality', enabled: true, protected: false, sortOrder: 6 });
    const [event] = await app.events('environment-updated');
    expect(event.data).toMatchObject({ type: 'quality', sortOrder: 6 });
    expect(event.preData).toMatchObject({ type: 'quality', sortOrder: 4 });
  });

  it('answers 404 NotFoundError for an unknown environment and writes no event', async () => {
    const before = await eventCount();
    const res = await app.put('/api/admin/environments/nope', { type: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ name: 'NotFoundError', message: 'Could not find environment nope' });
    expect(await eventCount()).toBe(before);
    expect((await app.get('/api/admin/environments/nope')).status).toBe(404);
  });
});

describe('switching environments on and off', () => {
  it('switches off with 204 and no body; the environment stays listed as enabled: false; no event', async () => {
    const before = await eventCount();
    const res = await app.post('/api/admin/environments/staging/off');
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expect((await app.get('/api/admin/environments/staging')).body).toMatchObject({ name: 'staging', enabled: false });
    const list = await app.get('/api/admin/environments');
    expect(list.body.environments).toContainEqual({ name: 'staging', type: 'staging', enabled: false, protected: false, sortOrder: 1 });
    expect(await eventCount()).toBe(before);
  });

  it('is idempotent: switching off again, on, and on again all answer 204', async () => {
    const before = await eventCount();
    expect((await app.post('/api/admin/environments/staging/off')).status).toBe(204);
    expect((await app.get('/api/admin/environments/staging')).body.enabled).toBe(false);
    expect((await app.post('/api/admin/environments/staging/on')).status).toBe(204);
    expect((await app.get('/api/admin/environments/staging')).body.enabled).toBe(true);
    expect((await app.post('/api/admin/environments/staging/on')).status).toBe(204);
    expect((await app.get('/api/admin/environments/staging')).body).toEqual({ name: 'staging', type: 'staging', enabled: true, protected: false, sortOrder: 1 });
    expect(await eventCount()).toBe(before);
  });

  it.each(['on', 'off'])('POST /environments/:name/%s answers 404 NotFoundError for an unknown name', async (action) => {
    const res = await app.post(`/api/admin/environments/nope/${action}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ name: 'NotFoundError', message: 'Could not find environment nope' });
    expect((await app.get('/api/admin/environments/nope')).status).toBe(404);
  });
});

describe('environments of a project', () => {
  it('lists the environments linked to a project as {version, environments}', async () => {
    const res = await app.get('/api/admin/environments/project/default');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 1, environments: [development, production] });
  });

  it('answers 404 NotFoundError for an unknown project', async () => {
    const res = await app.get('/api/admin/environments/project/nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ name: 'NotFoundError', message: 'Project with id nope does not exist' });
  });

  it('hides a switched-off environment, brings it back after /on, and keeps its feature configuration', async () => {
    await sql(`insert into features (name, project) values ('env-feature', 'default')`);
    await sql(`insert into feature_environments (feature_name, environment, enabled) values ('env-feature', 'development', true), ('env-feature', 'production', false)`);
    await sql(`insert into feature_strategies (id, feature_name, project, environment, strategy_name, parameters)
               values ('00000000-0000-4000-8000-000000000001', 'env-feature', 'default', 'development', 'flexibleRollout', '{"rollout":"50"}')`);
    const config = () => Promise.all([
      sql(`select environment, enabled from feature_environments where feature_name = 'env-feature' order by environment`),
      sql(`select environment, strategy_name, parameters from feature_strategies where feature_name = 'env-feature'`),
    ]);
    const configBefore = await config();

    expect((await app.post('/api/admin/environments/development/off')).status).toBe(204);
    expect((await app.get('/api/admin/environments/project/default')).body).toEqual({ version: 1, environments: [production] });
    const project = await app.get('/api/admin/projects/default');
    expect(project.body.environments).toEqual([{ environment: 'production', defaultStrategy: null }]);
    expect(await config()).toEqual(configBefore);

    expect((await app.post('/api/admin/environments/development/on')).status).toBe(204);
    expect((await app.get('/api/admin/environments/project/default')).body).toEqual({ version: 1, environments: [development, production] });
    expect((await app.get('/api/admin/projects/default')).body.environments.map((e: { environment: string }) => e.environment))
      .toEqual(['development', 'production']);
    expect(await config()).toEqual(configBefore);
    expect(configBefore[0]).toEqual([{ environment: 'development', enabled: true }, { environment: 'production', enabled: false }]);
    expect(configBefore[1]).toEqual([{ environment: 'development', strategy_name: 'flexibleRollout', parameters: { rollout: '50' } }]);
  });

  it('refuses to add a switched-off environment to a project (400 ValidationError), and accepts it once switched on', async () => {
    expect((await app.post('/api/admin/environments/staging/off')).status).toBe(204);
    expect((await app.post('/api/admin/projects', { id: 'env-test', name: 'Env test' })).status).toBe(201);
    // created while staging was off: the project got every switched-on environment but not staging
    expect(names((await app.get('/api/admin/environments/project/env-test')).body.environments)).toEqual(['development', 'production', 'qa']);

    const before = await eventCount();
    const res = await app.post('/api/admin/projects/env-test/environments', { environment: 'staging' });
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.details).toEqual([{ path: 'environment', message: 'The environment "staging" is switched off and cannot be added to a project.' }]);
    expect(await eventCount()).toBe(before);

    expect((await app.post('/api/admin/environments/staging/on')).status).toBe(204);
    // still not linked: switching on does not link it
    expect(names((await app.get('/api/admin/environments/project/env-test')).body.environments)).toEqual(['development', 'production', 'qa']);
    expect((await app.post('/api/admin/projects/env-test/environments', { environment: 'staging' })).status).toBe(200);
    expect(names((await app.get('/api/admin/environments/project/env-test')).body.environments)).toEqual(['staging', 'development', 'production', 'qa']);
  });
});

describe('deleting environments', () => {
  it('deletes (200), records environment-deleted with preData, and unlinks it from projects', async () => {
    const res = await app.del('/api/admin/environments/qa');
    expect(res.status).toBe(200);
    const [event] = await app.events('environment-deleted');
    expect(event).toMatchObject({ type: 'environment-deleted', environment: 'qa', project: null, data: null });
    expect(event.preData).toEqual({ name: 'qa', type: 'quality', enabled: true, protected: false, sortOrder: 6 });
    expect((await app.get('/api/admin/environments/qa')).status).toBe(404);
    expect(names((await app.get('/api/admin/environments')).body.environments)).toEqual(['staging', 'development', 'production', 'dormant']);
    expect(names((await app.get('/api/admin/environments/project/env-test')).body.environments)).toEqual(['staging', 'development', 'production']);
  });

  it('answers 404 NotFoundError for an unknown (or already deleted) environment and writes no event', async () => {
    const before = await eventCount();
    const res = await app.del('/api/admin/environments/qa');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ name: 'NotFoundError', message: 'Could not find environment qa' });
    expect(await eventCount()).toBe(before);
  });
});

describe('deleting the last environment of a project', () => {
  it('is refused with 400 and changes nothing', async () => {
    expect((await app.post('/api/admin/environments', { name: 'solo', type: 'test' })).status).toBe(201);
    expect((await app.post('/api/admin/projects', { id: 'solo-project', name: 'Solo' })).status).toBe(201);
    for (const env of (await app.get('/api/admin/projects/solo-project')).body.environments.map((e: { environment: string }) => e.environment)) {
      if (env !== 'solo') expect((await app.del(`/api/admin/projects/solo-project/environments/${env}`)).status).toBe(200);
    }
    const before = await app.events();
    const res = await app.del('/api/admin/environments/solo');
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.details[0]).toMatchObject({ path: 'name', message: expect.stringContaining('"solo-project"') });
    expect((await app.get('/api/admin/environments/solo')).status).toBe(200);
    expect(await app.events()).toEqual(before);
    expect((await app.post('/api/admin/projects/solo-project/environments', { environment: 'development' })).status).toBe(200);
    expect((await app.del('/api/admin/environments/solo')).status).toBe(200);
  });
});
