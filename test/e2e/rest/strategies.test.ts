import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Principal } from '../../../src/domain/access/principal';
import { ROLE_EDITOR, ROLE_VIEWER } from '../../../src/domain/access/permissions';
import { NoAccessError } from '../../../src/domain/errors';
import { createServices, type Services } from '../../../src/domain/services';
import { startTestApp, type TestApp } from '../../support/harness';

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

/** The feature API is written elsewhere: features and feature strategies that use a definition are inserted directly. */
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);
const eventCount = async (): Promise<number> => (await app.get('/api/admin/events?limit=1')).body.totalEvents;
const list = async () => (await app.get('/api/admin/strategies')).body.strategies as any[];
const one = async (name: string) => app.get(`/api/admin/strategies/${name}`);

const BUILT_IN_ORDER = [
  'flexibleRollout', 'default', 'userWithId', 'remoteAddress', 'applicationHostname',
  'gradualRolloutUserId', 'gradualRolloutSessionId', 'gradualRolloutRandom',
];
const KEYS = ['deprecated', 'description', 'displayName', 'editable', 'name', 'parameters', 'title'];

/** Runs a request that must fail: nothing may change, and no event may be written. */
async function changesNothing(failing: () => Promise<void>): Promise<void> {
  const [eventsBefore, before] = [await eventCount(), await list()];
  await failing();
  expect(await eventCount()).toBe(eventsBefore);
  expect(await list()).toEqual(before);
}

const expectError = (res: { status: number; body: any }, status: number, name: string) => {
  expect({ status: res.status, name: res.body.name }).toEqual({ status, name });
  expect(typeof res.body.id).toBe('string');
  expect(typeof res.body.message).toBe('string');
};

describe('reading strategy definitions', () => {
  it('lists the seeded definitions as {version: 1, strategies} by sort order, built-ins not editable', async () => {
    const res = await app.get('/api/admin/strategies');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['strategies', 'version']);
    expect(res.body.version).toBe(1);
    expect(res.body.strategies.map((s: { name: string }) => s.name)).toEqual(BUILT_IN_ORDER);
    for (const s of res.body.strategies) {
      expect(Object.keys(s).sort()).toEqual(KEYS);
      expect(s).toMatchObject({ editable: false, title: null });
      for (const p of s.parameters) expect(Object.keys(p).sort()).toEqual(['description', 'name', 'required', 'type']);
    }
    expect(res.body.strategies[0]).toEqual({
      name: 'flexibleRollout', displayName: 'Gradual rollout', title: null, editable: false, deprecated: false,
      description: 'Roll out to a percentage of your userbase, and ensure that the experience is the same for the user on each visit.',
      parameters: [
        { name: 'rollout', type: 'percentage', description: '', required: false },
        { name: 'stickiness', type: 'string', description: expect.any(String), required: true },
        { name: 'groupId', type: 'string', description: expect.any(String), required: true },
      ],
    });
    expect(res.body.strategies.find((s: { name: string }) => s.name === 'userWithId')).toMatchObject({ deprecated: true });
  });

  it('reads one definition (200) and answers 404 NotFoundError with the strategy-type message for an unknown one', async () => {
    const res = await one('default');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: 'default', displayName: 'Standard', title: null, editable: false, deprecated: false,
      description: 'The standard strategy is strictly on / off for your entire userbase.', parameters: [],
    });
    const missing = await one('nope');
    expectError(missing, 404, 'NotFoundError');
    expect(missing.body.message).toBe('Could not find strategy type with name nope');
  });

  it('answers 401 AuthenticationRequired without a token, for the list and for one', async () => {
    expectError(await app.get('/api/admin/strategies', { token: null }), 401, 'AuthenticationRequired');
    expectError(await app.get('/api/admin/strategies/default', { token: null }), 401, 'AuthenticationRequired');
  });
});

describe('creating strategy definitions', () => {
  it('creates a definition with defaults (201) and records strategy-created with the definition', async () => {
    const res = await app.post('/api/admin/strategies', { name: 'plainCustom' });
    expect(res.status).toBe(201);
    const created = { name: 'plainCustom', displayName: null, title: null, description: null, editable: true, deprecated: false, parameters: [] };
    expect(res.body).toEqual(created);
    const [event] = await app.events('strategy-created');
    expect(event).toMatchObject({ type: 'strategy-created', createdBy: 'admin', createdByUserId: -1337, project: null, environment: null, featureName: null, preData: null });
    expect(event.data).toEqual(created);
    expect((await one('plainCustom')).body).toEqual(created);
  });

  it('takes every property, fills parameter defaults, and lists custom definitions after the built-ins by name', async () => {
    const body = {
      name: 'tenantRollout', title: 'Tenants', displayName: 'Tenant rollout', description: 'Enable for listed tenants.', editable: true,
      parameters: [
        { name: 'tenants', type: 'list', description: 'Tenant ids', required: true },
        { name: 'percent', type: 'percentage' },
        { name: 'strict', type: 'boolean', description: null, required: false },
        { name: 'limit', type: 'number' },
        { name: 'label', type: 'string' },
      ],
    };
    const res = await app.post('/api/admin/strategies', body);
    expect(res.status).toBe(201);
    const expected = {
      name: 'tenantRollout', title: 'Tenants', displayName: 'Tenant rollout', description: 'Enable for listed tenants.', editable: true, deprecated: false,
      parameters: [
        { name: 'tenants', type: 'list', description: 'Tenant ids', required: true },
        { name: 'percent', type: 'percentage', description: '', required: false },
        { name: 'strict', type: 'boolean', description: '', required: false },
        { name: 'limit', type: 'number', description: '', required: false },
        { name: 'label', type: 'string', description: '', required: false },
      ],
    };
    expect(res.body).toEqual(expected);
    const [event] = await app.events('strategy-created');
    expect(event.data).toEqual(expected);
    expect((await one('tenantRollout')).body).toEqual(expected);
    expect((await list()).map((s) => s.name)).toEqual([...BUILT_IN_ORDER, 'plainCustom', 'tenantRollout']);
  });

  it('refuses a taken name, custom or built in, with 409 NameExistsError and changes nothing', async () => {
    await changesNothing(async () => {
      const custom = await app.post('/api/admin/strategies', { name: 'tenantRollout', description: 'again' });
      expectError(custom, 409, 'NameExistsError');
      expect(custom.body.message).toBe('A strategy type with the name tenantRollout already exists');
      expectError(await app.post('/api/admin/strategies', { name: 'default' }), 409, 'NameExistsError');
    });
  });

  it.each([
    ['a name that is not URL friendly', { name: 'has space' }, 'name'],
    ['a missing name', { description: 'no name' }, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, 'name'],
    ['an unknown property', { name: 'extraProp', colour: 'red' }, 'colour'],
    ['a parameter of an unknown type', { name: 'badType', parameters: [{ name: 'p', type: 'date' }] }, 'parameters/0/type'],
    ['a parameter without a type', { name: 'noType', parameters: [{ name: 'p' }] }, 'parameters/0/type'],
    ['a parameter without a name', { name: 'noParamName', parameters: [{ type: 'string' }] }, 'parameters/0/name'],
    ['a parameter with an empty name', { name: 'emptyParamName', parameters: [{ name: '', type: 'string' }] }, 'parameters/0/name'],
    ['a parameter whose `required` is not a boolean', { name: 'badRequired', parameters: [{ name: 'p', type: 'string', required: 'yes' }] }, 'parameters/0/required'],
    ['an unknown parameter property', { name: 'extraParamProp', parameters: [{ name: 'p', type: 'string', min: 1 }] }, 'parameters/0/min'],
    ['duplicate parameter names', { name: 'dupParams', parameters: [{ name: 'p', type: 'string' }, { name: 'q', type: 'list' }, { name: 'p', type: 'number' }] }, 'parameters/2/name'],
    ['parameters that are not a list', { name: 'objParams', parameters: { name: 'p' } }, 'parameters'],
    ['editable false', { name: 'notEditable', editable: false }, 'editable'],
    ['a description that is not a string', { name: 'numDescription', description: 5 }, 'description'],
  ])('refuses %s with 400 ValidationError naming the path, and creates nothing', async (_what, body, path) => {
    await changesNothing(async () => {
      const res = await app.post('/api/admin/strategies', body);
      expectError(res, 400, 'ValidationError');
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    });
  });

  it('refuses a body that is not an object (400 ValidationError) and creates nothing', async () => {
    await changesNothing(async () => {
      expectError(await app.post('/api/admin/strategies', ['tenantRollout']), 400, 'ValidationError');
      expectError(await app.post('/api/admin/strategies', undefined, { raw: '{"name": ' }), 400, 'ValidationError');
    });
  });

  it('answers 401 AuthenticationRequired without a token and creates nothing', async () => {
    await changesNothing(async () => {
      expectError(await app.post('/api/admin/strategies', { name: 'anonymous' }, { token: null }), 401, 'AuthenticationRequired');
    });
    expect((await one('anonymous')).status).toBe(404);
  });
});

describe('updating strategy definitions', () => {
  it('updates only the properties sent (200) and records strategy-updated with data and preData', async () => {
    const before = (await one('tenantRollout')).body;
    const res = await app.put('/api/admin/strategies/tenantRollout', { description: 'Enable for some tenants.' });
    expect(res.status).toBe(200);
    const after = { ...before, description: 'Enable for some tenants.' };
    expect(res.body).toEqual(after);
    const [event] = await app.events('strategy-updated');
    expect(event).toMatchObject({ type: 'strategy-updated', project: null, environment: null, featureName: null });
    expect(event.data).toEqual(after);
    expect(event.preData).toEqual(before);
    expect((await one('tenantRollout')).body).toEqual(after);
  });

  it('replaces the parameters, empties texts with null, and accepts the matching name and editable true', async () => {
    const res = await app.put('/api/admin/strategies/tenantRollout', {
      name: 'tenantRollout', editable: true, title: null, displayName: 'Tenants only', parameters: [{ name: 'tenants', type: 'list', required: true }],
    });
    expect(res.status).toBe(200);
    const expected = {
      name: 'tenantRollout', title: null, displayName: 'Tenants only', description: 'Enable for some tenants.', editable: true, deprecated: false,
      parameters: [{ name: 'tenants', type: 'list', description: '', required: true }],
    };
    expect(res.body).toEqual(expected);
    const [event] = await app.events('strategy-updated');
    expect(event.data).toEqual(expected);
    expect(event.preData).toMatchObject({ title: 'Tenants', displayName: 'Tenant rollout' });
    expect(event.preData.parameters).toHaveLength(5);
    expect((await one('tenantRollout')).body).toEqual(expected);
  });

  it('answers 200 with the definition and writes no event when nothing changes', async () => {
    const before = (await one('tenantRollout')).body;
    const count = await eventCount();
    const same = await app.put('/api/admin/strategies/tenantRollout', { displayName: 'Tenants only', parameters: before.parameters });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(before);
    const empty = await app.put('/api/admin/strategies/tenantRollout', {});
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(before);
    expect(await eventCount()).toBe(count);
  });

  it.each([
    ['a rename', { name: 'otherName' }, 'name'],
    ['a parameter of an unknown type', { parameters: [{ name: 'p', type: 'json' }] }, 'parameters/0/type'],
    ['duplicate parameter names', { parameters: [{ name: 'p', type: 'string' }, { name: 'p', type: 'string' }] }, 'parameters/1/name'],
    ['editable false', { editable: false }, 'editable'],
    ['an unknown property', { deprecated: true }, 'deprecated'],
    ['a title over 100 characters', { title: 't'.repeat(101) }, 'title'],
  ])('refuses %s with 400 ValidationError naming the path, and changes nothing', async (_what, body, path) => {
    await changesNothing(async () => {
      const res = await app.put('/api/admin/strategies/tenantRollout', body);
      expectError(res, 400, 'ValidationError');
      expect(res.body.details.map((d: { path: string }) => d.path)).toEqual([path]);
    });
    expect((await one('otherName')).status).toBe(404);
  });

  it('refuses to change a built-in definition with 403 InvalidOperationError and changes nothing', async () => {
    await changesNothing(async () => {
      const res = await app.put('/api/admin/strategies/flexibleRollout', { description: 'Mine now' });
      expectError(res, 403, 'InvalidOperationError');
      expect(res.body.message).toBe('The strategy type flexibleRollout is built in and cannot be changed.');
    });
  });

  it('answers 404 NotFoundError for an unknown definition, and 401 without a token, changing nothing', async () => {
    await changesNothing(async () => {
      const missing = await app.put('/api/admin/strategies/nope', { description: 'x' });
      expectError(missing, 404, 'NotFoundError');
      expect(missing.body.message).toBe('Could not find strategy type with name nope');
      expectError(await app.put('/api/admin/strategies/tenantRollout', { description: 'x' }, { token: null }), 401, 'AuthenticationRequired');
    });
  });
});

describe('deprecating and reactivating', () => {
  it('deprecates a custom definition (200, empty body) with strategy-deprecated, and repeating it writes nothing', async () => {
    const res = await app.post('/api/admin/strategies/tenantRollout/deprecate');
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    const [event] = await app.events('strategy-deprecated');
    expect(event).toMatchObject({ type: 'strategy-deprecated', data: { name: 'tenantRollout' }, preData: null, project: null, environment: null });
    expect((await one('tenantRollout')).body.deprecated).toBe(true);
    const count = await eventCount();
    const again = await app.post('/api/admin/strategies/tenantRollout/deprecate');
    expect(again.status).toBe(200);
    expect(await eventCount()).toBe(count);
    expect((await one('tenantRollout')).body.deprecated).toBe(true);
  });

  it('reactivates it (200, empty body) with strategy-reactivated, and repeating it writes nothing', async () => {
    const res = await app.post('/api/admin/strategies/tenantRollout/reactivate');
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    const [event] = await app.events('strategy-reactivated');
    expect(event).toMatchObject({ type: 'strategy-reactivated', data: { name: 'tenantRollout' }, preData: null });
    expect((await one('tenantRollout')).body.deprecated).toBe(false);
    const count = await eventCount();
    expect((await app.post('/api/admin/strategies/tenantRollout/reactivate')).status).toBe(200);
    expect(await eventCount()).toBe(count);
  });

  it('deprecates and reactivates a built-in definition, which stays otherwise unchanged', async () => {
    const before = (await one('remoteAddress')).body;
    expect((await app.post('/api/admin/strategies/remoteAddress/deprecate')).status).toBe(200);
    expect((await app.events('strategy-deprecated'))[0].data).toEqual({ name: 'remoteAddress' });
    expect((await one('remoteAddress')).body).toEqual({ ...before, deprecated: true });
    expect((await app.post('/api/admin/strategies/remoteAddress/reactivate')).status).toBe(200);
    expect((await app.events('strategy-reactivated'))[0].data).toEqual({ name: 'remoteAddress' });
    expect((await one('remoteAddress')).body).toEqual(before);
  });

  it('reactivates a definition deprecated by the seed (userWithId)', async () => {
    expect((await app.post('/api/admin/strategies/userWithId/reactivate')).status).toBe(200);
    expect((await one('userWithId')).body.deprecated).toBe(false);
    expect((await app.post('/api/admin/strategies/userWithId/deprecate')).status).toBe(200);
    expect((await one('userWithId')).body.deprecated).toBe(true);
  });

  it('refuses to deprecate `default` with 403 InvalidOperationError and changes nothing', async () => {
    await changesNothing(async () => {
      const res = await app.post('/api/admin/strategies/default/deprecate');
      expectError(res, 403, 'InvalidOperationError');
      expect(res.body.message).toContain('default cannot be deprecated');
    });
    expect((await one('default')).body.deprecated).toBe(false);
  });

  it('answers 404 NotFoundError for an unknown definition and 401 without a token, changing nothing', async () => {
    await changesNothing(async () => {
      for (const action of ['deprecate', 'reactivate']) {
        const missing = await app.post(`/api/admin/strategies/nope/${action}`);
        expectError(missing, 404, 'NotFoundError');
        expect(missing.body.message).toBe('Could not find strategy type with name nope');
        expectError(await app.post(`/api/admin/strategies/tenantRollout/${action}`, undefined, { token: null }), 401, 'AuthenticationRequired');
      }
    });
  });
});

describe('deleting strategy definitions', () => {
  it('refuses to delete a definition that feature strategies use (403 InvalidOperationError naming the count)', async () => {
    await sql(`insert into features (name, project) values ('f1', 'default'), ('f2', 'default')`);
    await sql(`insert into feature_strategies (id, feature_name, project, environment, strategy_name) values
      (gen_random_uuid(), 'f1', 'default', 'development', 'tenantRollout'),
      (gen_random_uuid(), 'f1', 'default', 'production', 'tenantRollout'),
      (gen_random_uuid(), 'f2', 'default', 'development', 'tenantRollout')`);
    await changesNothing(async () => {
      const res = await app.del('/api/admin/strategies/tenantRollout');
      expectError(res, 403, 'InvalidOperationError');
      expect(res.body.message).toBe('The strategy type tenantRollout is used by 2 features and cannot be deleted. Remove it from those features first.');
    });
    await sql(`delete from feature_strategies where feature_name = 'f2'`);
    await changesNothing(async () => {
      const res = await app.del('/api/admin/strategies/tenantRollout');
      expectError(res, 403, 'InvalidOperationError');
      expect(res.body.message).toContain('is used by 1 feature and cannot be deleted');
    });
    await sql(`delete from feature_strategies where strategy_name = 'tenantRollout'`);
  });

  it('refuses to delete a built-in definition with 403 InvalidOperationError and changes nothing', async () => {
    await changesNothing(async () => {
      const res = await app.del('/api/admin/strategies/applicationHostname');
      expectError(res, 403, 'InvalidOperationError');
      expect(res.body.message).toBe('The strategy type applicationHostname is built in and cannot be deleted.');
    });
  });

  it('answers 401 without a token and changes nothing', async () => {
    await changesNothing(async () => {
      expectError(await app.del('/api/admin/strategies/tenantRollout', { token: null }), 401, 'AuthenticationRequired');
    });
  });

  it('deletes an unused custom definition (200, empty body) with strategy-deleted {name}', async () => {
    const before = (await one('tenantRollout')).body;
    const res = await app.del('/api/admin/strategies/tenantRollout');
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    const [event] = await app.events('strategy-deleted');
    expect(event).toMatchObject({ type: 'strategy-deleted', project: null, environment: null, featureName: null });
    expect(event.data).toEqual({ name: 'tenantRollout' });
    expect(event.preData).toEqual(before);
    expect((await one('tenantRollout')).status).toBe(404);
    expect((await list()).map((s) => s.name)).toEqual([...BUILT_IN_ORDER, 'plainCustom']);
  });

  it('answers 404 NotFoundError for an unknown (or already deleted) definition and writes no event', async () => {
    await changesNothing(async () => {
      const res = await app.del('/api/admin/strategies/tenantRollout');
      expectError(res, 404, 'NotFoundError');
      expect(res.body.message).toBe('Could not find strategy type with name tenantRollout');
    });
  });

  it('a deleted name can be created again', async () => {
    expect((await app.post('/api/admin/strategies', { name: 'tenantRollout' })).status).toBe(201);
    expect((await app.del('/api/admin/strategies/tenantRollout')).status).toBe(200);
  });
});

describe('permissions', () => {
  const user = (rootRoleId: number): Principal => ({ kind: 'user', name: `role-${rootRoleId}@example.com`, userId: 200 + rootRoleId, isAdmin: false, rootRoleId });
  const as = (p: Principal) => createServices(app.orm.em.fork(), p);
  const CALLS: Array<[string, string, (s: Services) => Promise<unknown>]> = [
    ['create', 'CREATE_STRATEGY', (s) => s.strategies.create({ name: 'viewerMade' })],
    ['update', 'UPDATE_STRATEGY', (s) => s.strategies.update('plainCustom', { description: 'x' })],
    ['deprecate', 'UPDATE_STRATEGY', (s) => s.strategies.deprecate('plainCustom')],
    ['reactivate', 'UPDATE_STRATEGY', (s) => s.strategies.reactivate('userWithId')],
    ['remove', 'DELETE_STRATEGY', (s) => s.strategies.remove('plainCustom')],
  ];

  it.each(CALLS)('%s needs %s: a Viewer gets NoAccessError (403) naming it, and nothing changes', async (_name, permission, call) => {
    await changesNothing(async () => {
      const error = await call(as(user(ROLE_VIEWER))).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(NoAccessError);
      expect((error as NoAccessError).permission).toBe(permission);
    });
  });

  it('a Viewer can still read, and an Editor (who holds the strategy permissions) can change definitions', async () => {
    const viewer = as(user(ROLE_VIEWER));
    expect(await viewer.strategies.list()).toEqual(await list());
    await expect(viewer.strategies.get('plainCustom')).resolves.toMatchObject({ name: 'plainCustom' });
    await expect(viewer.strategies.exists('plainCustom')).resolves.toBe(true);
    await expect(viewer.strategies.exists('nope')).resolves.toBe(false);
    const editor = as(user(ROLE_EDITOR));
    await expect(editor.strategies.update('plainCustom', { description: 'By an editor' })).resolves.toMatchObject({ description: 'By an editor' });
    const [event] = await app.events('strategy-updated');
    expect(event).toMatchObject({ createdBy: `role-${ROLE_EDITOR}@example.com`, createdByUserId: 200 + ROLE_EDITOR });
  });
});
