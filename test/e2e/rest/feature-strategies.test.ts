import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Principal } from '../../../src/domain/access/principal';
import { ROLE_EDITOR, ROLE_VIEWER } from '../../../src/domain/access/permissions';
import { createServices } from '../../../src/domain/services';
import { startTestApp, type Reply, type TestApp } from '../../support/harness';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  // A region field with legal values, an environment no project uses, and a second project with its own segment.
  expect((await app.post('/api/admin/context', { name: 'region', legalValues: [{ value: 'eu' }, { value: 'us' }] })).status).toBe(201);
  expect((await app.post('/api/admin/environments', { name: 'staging', type: 'test' })).status).toBe(201);
  expect((await app.post('/api/admin/projects', { id: 'other', name: 'Other', defaultStickiness: 'userId' })).status).toBe(201);
});
afterAll(async () => { await app.close(); });

const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);
const P = '/api/admin/projects';
const featurePath = (f: string, project = 'default') => `${P}/${project}/features/${f}`;
const envPath = (f: string, env = 'development', project = 'default') => `${featurePath(f, project)}/environments/${env}`;
const strategiesPath = (f: string, env = 'development', project = 'default') => `${envPath(f, env, project)}/strategies`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

async function createFeature(name: string, project = 'default'): Promise<void> {
  const res = await app.post(`${P}/${project}/features`, { name });
  expect(res.status).toBe(201);
}

async function addStrategy(f: string, body: Record<string, unknown>, env = 'development', project = 'default'): Promise<any> {
  const res = await app.post(strategiesPath(f, env, project), body);
  expect(res.body).toMatchObject({ featureName: f });
  expect(res.status).toBe(200);
  return res.body;
}

const rollout = (f: string, percent = '50') => ({ name: 'flexibleRollout', parameters: { rollout: percent, stickiness: 'default', groupId: f } });

const lastEventId = async (): Promise<number> => (await app.get('/api/admin/events?limit=1')).body.events[0]?.id ?? 0;
/** Events written after `since`, oldest first. */
async function eventsSince(since: number): Promise<any[]> {
  return (await app.events()).filter((e) => e.id > since).reverse();
}

const feature = async (f: string, project = 'default') => (await app.get(featurePath(f, project))).body;
const environment = async (f: string, env = 'development') => (await feature(f)).environments.find((e: any) => e.name === env);

/** What the audit log records of a strategy. */
const eventData = (s: any) => ({
  id: s.id, name: s.name, title: s.title, disabled: s.disabled, constraints: s.constraints, parameters: s.parameters,
  variants: s.variants, sortOrder: s.sortOrder, segments: s.segments,
});

/** Runs a request that must fail, and checks that nothing was written: no event, the features read back the same. */
async function failsWithoutChange(features: string[], call: () => Promise<Reply>, status: number, name: string): Promise<Reply> {
  const since = await lastEventId();
  const before = await Promise.all(features.map((f) => feature(f)));
  const res = await call();
  expect({ status: res.status, name: res.body?.name }).toEqual({ status, name });
  expect(typeof res.body.message).toBe('string');
  expect(await eventsSince(since)).toEqual([]);
  expect(await Promise.all(features.map((f) => feature(f)))).toEqual(before);
  return res;
}

describe('switching a feature on and off in an environment', () => {
  it('switching on without a strategy adds a 100 % gradual rollout, then enables (two events)', async () => {
    await createFeature('env-on');
    const since = await lastEventId();
    const res = await app.post(`${envPath('env-on')}/on`);
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    const env = await environment('env-on');
    expect(env).toMatchObject({ enabled: true, hasStrategies: true, hasEnabledStrategies: true });
    expect(env.strategies).toEqual([{
      id: expect.stringMatching(UUID), name: 'flexibleRollout', title: null, disabled: false, featureName: 'env-on', sortOrder: 0,
      segments: [], constraints: [], variants: [], parameters: { rollout: '100', stickiness: 'default', groupId: 'env-on' },
    }]);
    const events = await eventsSince(since);
    expect(events.map((e) => e.type)).toEqual(['feature-strategy-add', 'feature-environment-enabled']);
    expect(events[0]).toMatchObject({ project: 'default', environment: 'development', featureName: 'env-on', createdBy: 'admin', preData: null });
    expect(events[0].data).toEqual(eventData(env.strategies[0]));
    expect(events[1]).toMatchObject({ project: 'default', environment: 'development', featureName: 'env-on', data: null, preData: null });
    // Production is untouched.
    expect(await environment('env-on', 'production')).toMatchObject({ enabled: false, hasStrategies: false });
  });

  it('switching on again writes nothing and adds nothing', async () => {
    const before = await feature('env-on');
    const since = await lastEventId();
    const res = await app.post(`${envPath('env-on')}/on`, {});
    expect(res.status).toBe(200);
    expect(await eventsSince(since)).toEqual([]);
    expect(await feature('env-on')).toEqual(before);
  });

  it('switching off keeps the strategies and records feature-environment-disabled once', async () => {
    const strategies = (await environment('env-on')).strategies;
    const since = await lastEventId();
    expect((await app.post(`${envPath('env-on')}/off`)).status).toBe(200);
    expect((await app.post(`${envPath('env-on')}/off`)).status).toBe(200);
    const events = await eventsSince(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'feature-environment-disabled', project: 'default', environment: 'development', featureName: 'env-on', data: null, preData: null });
    expect(await environment('env-on')).toMatchObject({ enabled: false, hasStrategies: true, strategies });
  });

  it('switching on with an active strategy only enables', async () => {
    const since = await lastEventId();
    expect((await app.post(`${envPath('env-on')}/on`)).status).toBe(200);
    expect((await eventsSince(since)).map((e) => e.type)).toEqual(['feature-environment-enabled']);
    expect((await environment('env-on')).strategies).toHaveLength(1);
  });

  it('the default rollout uses the project default stickiness', async () => {
    await createFeature('env-other', 'other');
    expect((await app.post(`${envPath('env-other', 'production', 'other')}/on`)).status).toBe(200);
    const env = (await feature('env-other', 'other')).environments.find((e: any) => e.name === 'production');
    expect(env.strategies[0].parameters).toEqual({ rollout: '100', stickiness: 'userId', groupId: 'env-other' });
  });

  it('adds the project environment default strategy when one is set, with groupId replaced by the feature name', async () => {
    const seg = await app.post('/api/admin/segments', { name: 'default-strategy-segment', constraints: [] });
    expect(seg.status).toBe(201);
    const defaultStrategy = {
      name: 'flexibleRollout', title: 'Project default',
      parameters: { rollout: '25', stickiness: 'sessionId', groupId: 'placeholder' },
      constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'], caseInsensitive: false, inverted: false }],
      segments: [seg.body.id],
    };
    await sql(`update project_environments set default_strategy = ?::jsonb where project_id = 'default' and environment_name = 'production'`, [JSON.stringify(defaultStrategy)]);
    try {
      await createFeature('env-default-strategy');
      const since = await lastEventId();
      expect((await app.post(`${envPath('env-default-strategy', 'production')}/on`)).status).toBe(200);
      const env = await environment('env-default-strategy', 'production');
      expect(env.enabled).toBe(true);
      expect(env.strategies).toEqual([{
        id: expect.stringMatching(UUID), name: 'flexibleRollout', title: 'Project default', disabled: false, featureName: 'env-default-strategy',
        sortOrder: 0, segments: [seg.body.id], constraints: defaultStrategy.constraints, variants: [],
        parameters: { rollout: '25', stickiness: 'sessionId', groupId: 'env-default-strategy' },
      }]);
      const events = await eventsSince(since);
      expect(events.map((e) => e.type)).toEqual(['feature-strategy-add', 'feature-environment-enabled']);
      expect(events[0]).toMatchObject({ environment: 'production', featureName: 'env-default-strategy', data: eventData(env.strategies[0]) });
      // Development has no default strategy: it still gets the gradual rollout.
      expect((await app.post(`${envPath('env-default-strategy')}/on`)).status).toBe(200);
      expect((await environment('env-default-strategy')).strategies[0]).toMatchObject({ name: 'flexibleRollout', title: null, parameters: { rollout: '100' } });
    } finally {
      await sql(`update project_environments set default_strategy = null where project_id = 'default'`);
    }
  });

  it('with only disabled strategies and shouldActivateDisabledStrategies, re-enables them instead of adding one', async () => {
    await createFeature('env-reactivate');
    const a = await addStrategy('env-reactivate', { ...rollout('env-reactivate', '10'), disabled: true });
    const b = await addStrategy('env-reactivate', { name: 'default', disabled: true });
    const since = await lastEventId();
    const res = await app.post(`${envPath('env-reactivate')}/on`, { shouldActivateDisabledStrategies: true });
    expect(res.status).toBe(200);
    const env = await environment('env-reactivate');
    expect(env).toMatchObject({ enabled: true, hasEnabledStrategies: true });
    expect(env.strategies).toEqual([{ ...a, disabled: false }, { ...b, disabled: false }]);
    const events = await eventsSince(since);
    expect(events.map((e) => e.type)).toEqual(['feature-strategy-update', 'feature-strategy-update', 'feature-environment-enabled']);
    expect(events[0]).toMatchObject({ project: 'default', environment: 'development', featureName: 'env-reactivate', data: eventData({ ...a, disabled: false }), preData: eventData(a) });
    expect(events[1]).toMatchObject({ data: eventData({ ...b, disabled: false }), preData: eventData(b) });
  });

  it('with only disabled strategies and no flag, adds the default strategy and leaves the disabled one alone', async () => {
    await createFeature('env-disabled-only');
    const a = await addStrategy('env-disabled-only', { name: 'default', disabled: true });
    const since = await lastEventId();
    expect((await app.post(`${envPath('env-disabled-only')}/on`, { shouldActivateDisabledStrategies: false })).status).toBe(200);
    const env = await environment('env-disabled-only');
    expect(env.strategies).toHaveLength(2);
    expect(env.strategies[0]).toEqual(a);
    expect(env.strategies[1]).toMatchObject({ name: 'flexibleRollout', disabled: false, sortOrder: 1, parameters: { rollout: '100', groupId: 'env-disabled-only' } });
    expect((await eventsSince(since)).map((e) => e.type)).toEqual(['feature-strategy-add', 'feature-environment-enabled']);
  });

  it('with shouldActivateDisabledStrategies but no strategy at all, still adds the default strategy', async () => {
    await createFeature('env-flag-empty');
    const since = await lastEventId();
    expect((await app.post(`${envPath('env-flag-empty')}/on`, { shouldActivateDisabledStrategies: true })).status).toBe(200);
    expect((await environment('env-flag-empty')).strategies).toEqual([expect.objectContaining({ name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: 'env-flag-empty' } })]);
    expect((await eventsSince(since)).map((e) => e.type)).toEqual(['feature-strategy-add', 'feature-environment-enabled']);
  });

  it('answers 404 for an archived feature', async () => {
    await createFeature('env-archived');
    expect((await app.del(featurePath('env-archived'))).status).toBe(202);
    const since = await lastEventId();
    for (const call of [() => app.post(`${envPath('env-archived')}/on`), () => app.post(strategiesPath('env-archived'), { name: 'default' }), () => app.put(`${envPath('env-archived')}/variants`, [{ name: 'a' }])]) {
      const res = await call();
      expect({ status: res.status, name: res.body.name }).toEqual({ status: 404, name: 'NotFoundError' });
    }
    expect(await eventsSince(since)).toEqual([]);
    expect((await sql(`select count(*)::int as n from feature_strategies where feature_name = 'env-archived'`))[0].n).toBe(0);
  });

  it('answers 404 for an unknown environment, feature, or a feature of another project', async () => {
    const unknownEnv = await failsWithoutChange(['env-on'], () => app.post(`${envPath('env-on', 'nowhere')}/on`), 404, 'NotFoundError');
    expect(unknownEnv.body.message).toContain('nowhere');
    await failsWithoutChange([], () => app.post(`${envPath('no-such-feature')}/on`), 404, 'NotFoundError');
    const otherBefore = await feature('env-other', 'other');
    await failsWithoutChange([], () => app.post(`${envPath('env-other', 'production', 'default')}/off`), 404, 'NotFoundError');
    expect(await feature('env-other', 'other')).toEqual(otherBefore);
    await failsWithoutChange([], () => app.post(`${envPath('env-on', 'development', 'no-such-project')}/on`), 404, 'NotFoundError');
  });

  it('answers 400 ValidationError for an environment that is not linked to the project', async () => {
    await createFeature('env-unlinked');
    const res = await failsWithoutChange(['env-unlinked'], () => app.post(`${envPath('env-unlinked', 'staging')}/on`), 400, 'ValidationError');
    expect(res.body.details).toEqual([{ path: 'environment', message: expect.stringContaining('staging') }]);
    expect((await sql(`select count(*)::int as n from feature_environments where feature_name = 'env-unlinked' and environment = 'staging'`))[0].n).toBe(0);
    expect((await sql(`select count(*)::int as n from feature_strategies where feature_name = 'env-unlinked'`))[0].n).toBe(0);
  });

  it('answers 400 ValidationError for a bad body', async () => {
    await createFeature('env-bad-body');
    const wrongType = await failsWithoutChange(['env-bad-body'], () => app.post(`${envPath('env-bad-body')}/on`, { shouldActivateDisabledStrategies: 'yes' }), 400, 'ValidationError');
    expect(wrongType.body.details).toEqual([{ path: 'shouldActivateDisabledStrategies', message: expect.any(String) }]);
    const extra = await failsWithoutChange(['env-bad-body'], () => app.post(`${envPath('env-bad-body')}/on`, { enabled: true }), 400, 'ValidationError');
    expect(extra.body.details[0].message).toContain('enabled');
    await failsWithoutChange(['env-bad-body'], () => app.post(`${envPath('env-bad-body')}/on`, undefined, { raw: '{"shouldActivate' }), 400, 'ValidationError');
    await failsWithoutChange(['env-bad-body'], () => app.post(`${envPath('env-bad-body')}/off`, [1]), 400, 'ValidationError');
  });

  it('GET .../environments/:env returns the environment with its strategies, or the same errors', async () => {
    const res = await app.get(envPath('env-reactivate'));
    expect(res.status).toBe(200);
    const fromFeature = await environment('env-reactivate');
    expect(res.body).toEqual(fromFeature);
    expect(res.body).toEqual({
      name: 'development', featureName: 'env-reactivate', environment: 'development', type: 'development', enabled: true, sortOrder: expect.any(Number),
      variantCount: 0, variants: [], lastSeenAt: null, hasStrategies: true, hasEnabledStrategies: true, strategies: expect.any(Array),
    });
    expect((await app.get(envPath('env-reactivate', 'nowhere'))).body).toMatchObject({ name: 'NotFoundError' });
    expect((await app.get(envPath('env-reactivate', 'nowhere'))).status).toBe(404);
    const unlinked = await app.get(envPath('env-reactivate', 'staging'));
    expect({ status: unlinked.status, name: unlinked.body.name }).toEqual({ status: 400, name: 'ValidationError' });
    const unknown = await app.get(envPath('nope'));
    expect({ status: unknown.status, name: unknown.body.name }).toEqual({ status: 404, name: 'NotFoundError' });
  });
});

describe('adding strategies', () => {
  beforeAll(async () => { await createFeature('strat'); });

  it('answers 200 with the strategy, fills defaults, and records feature-strategy-add', async () => {
    const since = await lastEventId();
    const res = await app.post(strategiesPath('strat'), { name: 'default' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID), name: 'default', title: null, disabled: false, featureName: 'strat', sortOrder: 0,
      segments: [], constraints: [], variants: [], parameters: {},
    });
    const events = await eventsSince(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'feature-strategy-add', project: 'default', environment: 'development', featureName: 'strat', createdBy: 'admin', createdByUserId: -1337,
      data: eventData(res.body), preData: null,
    });
    expect((await app.get(strategiesPath('strat'))).body).toEqual([res.body]);
    expect((await app.get(`${strategiesPath('strat')}/${res.body.id}`)).body).toEqual(res.body);
    // Adding a strategy does not switch the environment on.
    expect(await environment('strat')).toMatchObject({ enabled: false, hasStrategies: true });
  });

  it('the event carries the feature tags, and a body echoing featureName and environment is accepted', async () => {
    expect((await app.post('/api/admin/features/strat/tags', { type: 'simple', value: 'team-a' })).status).toBe(201);
    const since = await lastEventId();
    const s = await addStrategy('strat', { name: 'default', featureName: 'strat', environment: 'development', disabled: null });
    expect(s.disabled).toBe(false);
    const [event] = await eventsSince(since);
    expect(event).toMatchObject({ type: 'feature-strategy-add', tags: [{ type: 'simple', value: 'team-a' }] });
    expect((await app.del(`${strategiesPath('strat')}/${s.id}`)).status).toBe(200);
  });

  it('puts a new strategy last, keeps an explicit sortOrder, and turns parameter numbers and booleans into strings', async () => {
    const second = await addStrategy('strat', { name: 'flexibleRollout', title: 'Half', parameters: { rollout: 50, stickiness: 'userId', groupId: 'strat' } });
    expect(second).toMatchObject({ sortOrder: 1, title: 'Half', parameters: { rollout: '50', stickiness: 'userId', groupId: 'strat' } });
    const custom = await app.post('/api/admin/strategies', { name: 'teamRollout', parameters: [{ name: 'beta', type: 'boolean' }] });
    expect(custom.status).toBe(201);
    const third = await addStrategy('strat', { name: 'teamRollout', sortOrder: 10, parameters: { beta: true } });
    expect(third).toMatchObject({ sortOrder: 10, parameters: { beta: 'true' } });
    const fourth = await addStrategy('strat', { name: 'default' });
    expect(fourth.sortOrder).toBe(11);
    expect((await app.get(strategiesPath('strat'))).body.map((s: any) => s.sortOrder)).toEqual([0, 1, 10, 11]);
    // Production has its own list.
    expect((await app.get(strategiesPath('strat', 'production'))).body).toEqual([]);
  });

  it('refuses an unknown strategy name, a missing name and unknown properties with 400 ValidationError', async () => {
    const unknown = await failsWithoutChange(['strat'], () => app.post(strategiesPath('strat'), { name: 'noSuchStrategy' }), 400, 'ValidationError');
    expect(unknown.body.details).toEqual([{ path: 'name', message: expect.stringContaining('noSuchStrategy') }]);
    const missing = await failsWithoutChange(['strat'], () => app.post(strategiesPath('strat'), { parameters: {} }), 400, 'ValidationError');
    expect(missing.body.details).toEqual([{ path: 'name', message: expect.any(String) }]);
    const extra = await failsWithoutChange(['strat'], () => app.post(strategiesPath('strat'), { name: 'default', colour: 'red' }), 400, 'ValidationError');
    expect(extra.body.details[0].message).toContain('colour');
    const wrongFeature = await failsWithoutChange(['strat'], () => app.post(strategiesPath('strat'), { name: 'default', featureName: 'cons' }), 400, 'ValidationError');
    expect(wrongFeature.body.details[0].path).toBe('featureName');
    const badParams = await failsWithoutChange(['strat'], () => app.post(strategiesPath('strat'), { name: 'default', parameters: { list: ['a'] } }), 400, 'ValidationError');
    expect(badParams.body.details[0].path).toBe('parameters/list');
  });

  it('refuses a gradual rollout outside 0..100 with 400 ValidationError at parameters/rollout', async () => {
    for (const percent of ['101', '-1', 'half', '']) {
      const res = await failsWithoutChange(['strat'], () => app.post(strategiesPath('strat'), rollout('strat', percent)), 400, 'ValidationError');
      expect(res.body.details).toEqual([{ path: 'parameters/rollout', message: expect.stringContaining('0 to 100') }]);
    }
    expect((await addStrategy('strat', rollout('strat', '0'))).parameters.rollout).toBe('0');
    expect((await addStrategy('strat', rollout('strat', '100'))).parameters.rollout).toBe('100');
  });

  it('404 for an unknown feature or environment, 404 for a feature of another project, 400 for an unlinked environment', async () => {
    await failsWithoutChange([], () => app.post(strategiesPath('nope'), { name: 'default' }), 404, 'NotFoundError');
    await failsWithoutChange(['strat'], () => app.post(strategiesPath('strat', 'nowhere'), { name: 'default' }), 404, 'NotFoundError');
    await failsWithoutChange(['strat'], () => app.post(strategiesPath('strat', 'development', 'other'), { name: 'default' }), 404, 'NotFoundError');
    await failsWithoutChange(['strat'], () => app.post(strategiesPath('strat', 'staging'), { name: 'default' }), 400, 'ValidationError');
    const list404 = await app.get(strategiesPath('nope'));
    expect({ status: list404.status, name: list404.body.name }).toEqual({ status: 404, name: 'NotFoundError' });
    const listUnlinked = await app.get(strategiesPath('strat', 'staging'));
    expect({ status: listUnlinked.status, name: listUnlinked.body.name }).toEqual({ status: 400, name: 'ValidationError' });
  });
});

describe('constraints on strategies', () => {
  beforeAll(async () => { await createFeature('cons'); });
  const withConstraints = (...constraints: unknown[]) => ({ name: 'default', constraints });
  const refuse = async (constraints: unknown[], details: Array<{ path: string; message?: unknown }>) => {
    const res = await failsWithoutChange(['cons'], () => app.post(strategiesPath('cons'), withConstraints(...constraints)), 400, 'ValidationError');
    expect(res.body.details).toEqual(details.map((d) => ({ path: d.path, message: d.message ?? expect.any(String) })));
    return res;
  };

  it('stores valid constraints of every kind in their normalised form', async () => {
    const s = await addStrategy('cons', withConstraints(
      { contextName: 'userId', operator: 'IN', values: ['1', '2'] },
      { contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['web'], caseInsensitive: true },
      { contextName: 'userId', operator: 'NUM_GTE', value: '10.5', inverted: true },
      { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2024-01-01T00:00:00.000Z' },
      { contextName: 'appName', operator: 'SEMVER_LT', value: '2.0.0-beta.1' },
      { contextName: 'region', operator: 'NOT_IN', values: ['us'] },
      { contextName: 'appName', operator: 'SEMVER_GTE', value: '1.0.0' },
      { contextName: 'appName', operator: 'SEMVER_LTE', value: '3.0.0', inverted: true },
      { contextName: 'userId', operator: 'REGEX', value: '^(?i)user-\\d+$' },
      { contextName: 'appName', operator: 'REGEX', value: ' web ', caseInsensitive: true, inverted: true },
    ));
    expect(s.constraints).toEqual([
      { contextName: 'userId', operator: 'IN', values: ['1', '2'], caseInsensitive: false, inverted: false },
      { contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['web'], caseInsensitive: true, inverted: false },
      { contextName: 'userId', operator: 'NUM_GTE', values: [], caseInsensitive: false, inverted: true, value: '10.5' },
      { contextName: 'currentTime', operator: 'DATE_AFTER', values: [], caseInsensitive: false, inverted: false, value: '2024-01-01T00:00:00.000Z' },
      { contextName: 'appName', operator: 'SEMVER_LT', values: [], caseInsensitive: false, inverted: false, value: '2.0.0-beta.1' },
      { contextName: 'region', operator: 'NOT_IN', values: ['us'], caseInsensitive: false, inverted: false },
      { contextName: 'appName', operator: 'SEMVER_GTE', values: [], caseInsensitive: false, inverted: false, value: '1.0.0' },
      { contextName: 'appName', operator: 'SEMVER_LTE', values: [], caseInsensitive: false, inverted: true, value: '3.0.0' },
      // A pattern is stored as sent, spaces included.
      { contextName: 'userId', operator: 'REGEX', values: [], caseInsensitive: false, inverted: false, value: '^(?i)user-\\d+$' },
      { contextName: 'appName', operator: 'REGEX', values: [], caseInsensitive: true, inverted: true, value: ' web ' },
    ]);
    expect((await app.get(`${strategiesPath('cons')}/${s.id}`)).body.constraints).toEqual(s.constraints);
  });

  it('NUM_* operators need a numeric value', async () => {
    await refuse([{ contextName: 'userId', operator: 'NUM_EQ', value: 'ten' }], [{ path: 'constraints/0/value', message: expect.stringContaining('must be a number') }]);
    await refuse([{ contextName: 'userId', operator: 'NUM_LT' }], [{ path: 'constraints/0/value' }]);
    await refuse([{ contextName: 'userId', operator: 'NUM_GT', values: ['1'] }], [{ path: 'constraints/0/value' }]);
  });

  it('DATE_* operators need a date, SEMVER_* a valid semver', async () => {
    await refuse([{ contextName: 'currentTime', operator: 'DATE_BEFORE', value: 'next tuesday' }], [{ path: 'constraints/0/value', message: expect.stringContaining('date') }]);
    await refuse([{ contextName: 'appName', operator: 'SEMVER_EQ', value: 'v1' }], [{ path: 'constraints/0/value', message: expect.stringContaining('semver') }]);
    await refuse([{ contextName: 'appName', operator: 'SEMVER_GT', value: '1.2' }], [{ path: 'constraints/0/value' }]);
    await refuse([{ contextName: 'appName', operator: 'SEMVER_GTE', value: 'v2.0.0' }], [{ path: 'constraints/0/value', message: expect.stringContaining('semver') }]);
    await refuse([{ contextName: 'appName', operator: 'SEMVER_LTE' }], [{ path: 'constraints/0/value' }]);
  });

  it('REGEX needs a pattern RE2 compiles, of at most 100 characters; the refusal names the constraint', async () => {
    const res = await refuse([
      { contextName: 'userId', operator: 'IN', values: ['1'] },
      { contextName: 'userId', operator: 'REGEX', value: '(regex' },
    ], [{ path: 'constraints/1/value', message: '"value" must be a regular expression RE2 accepts (missing closing ): `(regex`). You sent "(regex".' }]);
    expect(res.body.message).toContain('(regex');
    // Lookarounds and backreferences: what RE2 leaves out so that matching stays linear.
    await refuse([{ contextName: 'userId', operator: 'REGEX', value: '^(?=a)b$' }], [{ path: 'constraints/0/value', message: expect.stringContaining('(?=') }]);
    await refuse([{ contextName: 'userId', operator: 'REGEX', value: '(a)\\1' }], [{ path: 'constraints/0/value', message: expect.stringContaining('\\1') }]);
    await refuse([{ contextName: 'userId', operator: 'REGEX', value: 'a{1001}' }], [{ path: 'constraints/0/value' }]);
    await refuse([{ contextName: 'userId', operator: 'REGEX' }], [{ path: 'constraints/0/value', message: expect.stringContaining('it is empty') }]);
    await refuse([{ contextName: 'userId', operator: 'REGEX', value: '' }], [{ path: 'constraints/0/value' }]);
    await refuse([{ contextName: 'userId', operator: 'REGEX', value: 'a'.repeat(101) }], [{ path: 'constraints/0/value' }]);
    await refuse([{ contextName: 'userId', operator: 'REGEX', values: ['.*'] }], [{ path: 'constraints/0/value' }]);
    // A field with legal values takes only those as a pattern too (as Unleash 8).
    await refuse([{ contextName: 'region', operator: 'REGEX', value: '^e' }], [{ path: 'constraints/0/value', message: expect.stringContaining('legal value') }]);
    const s = await addStrategy('cons', withConstraints({ contextName: 'region', operator: 'REGEX', value: 'eu' }, { contextName: 'userId', operator: 'REGEX', value: 'a'.repeat(100) }));
    expect(s.constraints.map((c: any) => c.value)).toEqual(['eu', 'a'.repeat(100)]);
  });

  it('refuses an invalid pattern on update too, leaving the strategy as it was', async () => {
    const s = await addStrategy('cons', withConstraints({ contextName: 'userId', operator: 'REGEX', value: '^ok$' }));
    const res = await failsWithoutChange(['cons'], () => app.put(`${strategiesPath('cons')}/${s.id}`, withConstraints({ contextName: 'userId', operator: 'REGEX', value: '[z-a]' })), 400, 'ValidationError');
    expect(res.body.details).toEqual([{ path: 'constraints/0/value', message: expect.stringContaining('invalid character class range') }]);
    expect((await app.get(`${strategiesPath('cons')}/${s.id}`)).body.constraints[0].value).toBe('^ok$');
  });

  it('IN and STR_* operators need at least one value', async () => {
    await refuse([{ contextName: 'userId', operator: 'IN', values: [] }], [{ path: 'constraints/0/values' }]);
    await refuse([{ contextName: 'userId', operator: 'STR_CONTAINS' }], [{ path: 'constraints/0/values' }]);
    await refuse([{ contextName: 'userId', operator: 'STR_ENDS_WITH', values: [''] }], [{ path: 'constraints/0/values/0' }]);
  });

  it('enforces the legal values of a context field, and reports every failing constraint', async () => {
    await refuse([{ contextName: 'region', operator: 'IN', values: ['eu', 'mars'] }], [{ path: 'constraints/0/values', message: expect.stringContaining('"mars"') }]);
    await refuse([
      { contextName: 'userId', operator: 'IN', values: ['1'] },
      { contextName: 'region', operator: 'NOT_IN', values: ['moon'] },
      { contextName: 'userId', operator: 'NUM_EQ', value: 'x' },
    ], [{ path: 'constraints/1/values' }, { path: 'constraints/2/value' }]);
  });

  it('answers 404 NotFoundError for an unknown context field and 400 for an unknown operator or shape', async () => {
    const unknownField = await failsWithoutChange(['cons'], () => app.post(strategiesPath('cons'), withConstraints({ contextName: 'planet', operator: 'IN', values: ['x'] })), 404, 'NotFoundError');
    expect(unknownField.body.message).toContain('planet');
    await refuse([{ contextName: 'userId', operator: 'IN_CIDR', values: ['10.0.0.0/8'] }], [{ path: 'constraints/0/operator' }]);
    await refuse([{ operator: 'IN', values: ['x'] }], [{ path: 'constraints/0/contextName' }]);
    await refuse([{ contextName: 'userId', operator: 'IN', values: ['x'], colour: 'red' }], [{ path: 'constraints/0/colour' }]);
  });
});

describe('strategy variants and segments', () => {
  beforeAll(async () => { await createFeature('strat-variants'); });

  it('resolves fix and variable weights to 1000 and sorts the variants by name', async () => {
    const since = await lastEventId();
    const s = await addStrategy('strat-variants', {
      ...rollout('strat-variants'),
      variants: [
        { name: 'c', weightType: 'variable', weight: 1, stickiness: 'userId', payload: { type: 'json', value: '{"a":1}' } },
        { name: 'a', weightType: 'fix', weight: 250, stickiness: 'default' },
        { name: 'b' },
      ],
    });
    expect(s.variants).toEqual([
      { name: 'a', weight: 250, weightType: 'fix', stickiness: 'default' },
      { name: 'b', weight: 375, weightType: 'variable', stickiness: 'default' },
      { name: 'c', weight: 375, weightType: 'variable', stickiness: 'userId', payload: { type: 'json', value: '{"a":1}' } },
    ]);
    const [event] = await eventsSince(since);
    expect(event.data.variants).toEqual(s.variants);
  });

  it('refuses strategy variants that cannot add up (400 ValidationError at variants)', async () => {
    const onlyFix = await failsWithoutChange(['strat-variants'], () => app.post(strategiesPath('strat-variants'), { name: 'default', variants: [{ name: 'a', weightType: 'fix', weight: 1000 }] }), 400, 'ValidationError');
    expect(onlyFix.body.details).toEqual([{ path: 'variants', message: expect.stringContaining('"variable"') }]);
    const tooMuch = await failsWithoutChange(['strat-variants'], () => app.post(strategiesPath('strat-variants'), {
      name: 'default', variants: [{ name: 'a', weightType: 'fix', weight: 600 }, { name: 'b', weightType: 'fix', weight: 500 }, { name: 'c' }],
    }), 400, 'ValidationError');
    expect(tooMuch.body.details).toEqual([{ path: 'variants', message: expect.any(String) }]);
    const tooHeavy = await failsWithoutChange(['strat-variants'], () => app.post(strategiesPath('strat-variants'), { name: 'default', variants: [{ name: 'a', weight: 1001 }] }), 400, 'ValidationError');
    expect(tooHeavy.body.details[0].path).toBe('variants/0/weight');
    const duplicate = await failsWithoutChange(['strat-variants'], () => app.post(strategiesPath('strat-variants'), { name: 'default', variants: [{ name: 'a' }, { name: 'a' }] }), 400, 'ValidationError');
    expect(duplicate.body.details[0].path).toBe('variants/1/name');
  });

  it('attaches segments by id: global ones, and project-scoped ones of the same project only', async () => {
    const global = await app.post('/api/admin/segments', { name: 'strat-global', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] });
    const mine = await app.post('/api/admin/segments', { name: 'strat-mine', project: 'default', constraints: [] });
    const theirs = await app.post('/api/admin/segments', { name: 'strat-theirs', project: 'other', constraints: [] });
    expect([global.status, mine.status, theirs.status]).toEqual([201, 201, 201]);
    const since = await lastEventId();
    const s = await addStrategy('strat-variants', { name: 'default', segments: [mine.body.id, global.body.id] });
    expect(s.segments).toEqual([global.body.id, mine.body.id].sort((a, b) => a - b));
    expect((await eventsSince(since))[0].data.segments).toEqual(s.segments);
    expect((await app.get(`${strategiesPath('strat-variants')}/${s.id}`)).body.segments).toEqual(s.segments);
    // PUT replaces the segment list; the usage shows in the segment API.
    const replaced = await app.put(`${strategiesPath('strat-variants')}/${s.id}`, { segments: [mine.body.id] });
    expect(replaced.body.segments).toEqual([mine.body.id]);
    const [update] = (await eventsSince(since)).slice(-1);
    expect(update).toMatchObject({ type: 'feature-strategy-update', data: { segments: [mine.body.id] }, preData: { segments: s.segments } });
    expect((await app.get(`/api/admin/segments/${global.body.id}/strategies`)).body.strategies).toEqual([]);
    expect((await app.get(`/api/admin/segments/${mine.body.id}/strategies`)).body.strategies).toEqual([expect.objectContaining({ id: s.id, featureName: 'strat-variants' })]);

    const unknown = await failsWithoutChange(['strat-variants'], () => app.post(strategiesPath('strat-variants'), { name: 'default', segments: [999999] }), 400, 'ValidationError');
    expect(unknown.body.details).toEqual([{ path: 'segments/0', message: expect.stringContaining('999999') }]);
    const foreign = await failsWithoutChange(['strat-variants'], () => app.post(strategiesPath('strat-variants'), { name: 'default', segments: [theirs.body.id] }), 400, 'ValidationError');
    expect(foreign.body.details).toEqual([{ path: 'segments/0', message: expect.stringContaining('other') }]);
    // The detail names the position as sent, not the position in the sorted list.
    const second = await failsWithoutChange(['strat-variants'], () => app.post(strategiesPath('strat-variants'), { name: 'default', segments: [999998, global.body.id] }), 400, 'ValidationError');
    expect(second.body.details).toEqual([{ path: 'segments/0', message: expect.stringContaining('999998') }]);
    const notInt = await failsWithoutChange(['strat-variants'], () => app.post(strategiesPath('strat-variants'), { name: 'default', segments: ['one'] }), 400, 'ValidationError');
    expect(notInt.body.details[0].path).toBe('segments/0');
    expect((await sql(`select count(*)::int as n from feature_strategy_segments where segment_id = ?`, [theirs.body.id]))[0].n).toBe(0);
  });
});

describe('reading, updating and deleting one strategy', () => {
  let a: any;
  let b: any;
  let prod: any;
  beforeAll(async () => {
    await createFeature('one');
    await createFeature('one-sibling');
    a = await addStrategy('one', { ...rollout('one', '30'), title: 'A', constraints: [{ contextName: 'userId', operator: 'IN', values: ['7'] }] });
    b = await addStrategy('one', { name: 'default', title: 'B' });
    prod = await addStrategy('one', { name: 'default' }, 'production');
    await addStrategy('one-sibling', { name: 'default' });
  });

  it('GET answers 404 NotFoundError for an unknown id, a malformed id, another environment or another feature', async () => {
    expect((await app.get(`${strategiesPath('one')}/${a.id}`)).body).toEqual(a);
    for (const path of [
      `${strategiesPath('one')}/${MISSING_ID}`, `${strategiesPath('one')}/not-a-uuid`, `${strategiesPath('one')}/${prod.id}`,
      `${strategiesPath('one-sibling')}/${a.id}`, `${strategiesPath('nope')}/${a.id}`, `${strategiesPath('one', 'development', 'other')}/${a.id}`,
    ]) {
      const res = await app.get(path);
      expect({ path, status: res.status, name: res.body.name }).toEqual({ path, status: 404, name: 'NotFoundError' });
    }
  });

  it('PUT with some properties keeps the absent ones and records feature-strategy-update', async () => {
    const since = await lastEventId();
    const res = await app.put(`${strategiesPath('one')}/${a.id}`, { title: 'A renamed', parameters: { rollout: '40', stickiness: 'default', groupId: 'one' } });
    expect(res.status).toBe(200);
    const after = { ...a, title: 'A renamed', parameters: { rollout: '40', stickiness: 'default', groupId: 'one' } };
    expect(res.body).toEqual(after);
    expect((await app.get(`${strategiesPath('one')}/${a.id}`)).body).toEqual(after);
    const events = await eventsSince(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'feature-strategy-update', project: 'default', environment: 'development', featureName: 'one', data: eventData(after), preData: eventData(a) });
    a = after;
  });

  it('PUT of the strategy as read back (id and featureName included) writes no event; null title clears it', async () => {
    const since = await lastEventId();
    const same = await app.put(`${strategiesPath('one')}/${a.id}`, a);
    expect(same.status).toBe(200);
    expect(same.body).toEqual(a);
    expect(await eventsSince(since)).toEqual([]);
    const cleared = await app.put(`${strategiesPath('one')}/${a.id}`, { title: null });
    expect(cleared.body.title).toBeNull();
    const [event] = await eventsSince(since);
    expect(event.preData.title).toBe('A renamed');
    expect(event.data.title).toBeNull();
    a = cleared.body;
  });

  it('PUT errors: 404 unknown id or wrong environment, 400 invalid values or a different id in the body; nothing changes', async () => {
    await failsWithoutChange(['one'], () => app.put(`${strategiesPath('one')}/${MISSING_ID}`, { title: 'x' }), 404, 'NotFoundError');
    await failsWithoutChange(['one'], () => app.put(`${strategiesPath('one', 'production')}/${a.id}`, { title: 'x' }), 404, 'NotFoundError');
    await failsWithoutChange(['one', 'one-sibling'], () => app.put(`${strategiesPath('one-sibling')}/${a.id}`, { title: 'x' }), 404, 'NotFoundError');
    const badRollout = await failsWithoutChange(['one'], () => app.put(`${strategiesPath('one')}/${a.id}`, { parameters: { rollout: '500', stickiness: 'default', groupId: 'one' } }), 400, 'ValidationError');
    expect(badRollout.body.details[0].path).toBe('parameters/rollout');
    const badConstraint = await failsWithoutChange(['one'], () => app.put(`${strategiesPath('one')}/${a.id}`, { constraints: [{ contextName: 'userId', operator: 'NUM_EQ', value: 'x' }] }), 400, 'ValidationError');
    expect(badConstraint.body.details[0].path).toBe('constraints/0/value');
    await failsWithoutChange(['one'], () => app.put(`${strategiesPath('one')}/${a.id}`, { name: 'noSuchStrategy' }), 400, 'ValidationError');
    const otherFeature = await failsWithoutChange(['one'], () => app.put(`${strategiesPath('one')}/${a.id}`, { ...a, featureName: 'one-sibling', title: 'x' }), 400, 'ValidationError');
    expect(otherFeature.body.details[0].path).toBe('featureName');
    const otherEnv = await failsWithoutChange(['one'], () => app.put(`${strategiesPath('one')}/${a.id}`, { environment: 'production', title: 'x' }), 400, 'ValidationError');
    expect(otherEnv.body.details[0].path).toBe('environment');
    const otherId = await failsWithoutChange(['one'], () => app.put(`${strategiesPath('one')}/${a.id}`, { id: b.id, title: 'x' }), 400, 'ValidationError');
    expect(otherId.body.details[0].path).toBe('id');
  });

  it('PATCH applies a JSON patch and records the update', async () => {
    const since = await lastEventId();
    const res = await app.request('PATCH', `${strategiesPath('one')}/${a.id}`, [
      { op: 'replace', path: '/parameters/rollout', value: '75' },
      { op: 'add', path: '/constraints/-', value: { contextName: 'region', operator: 'IN', values: ['us'] } },
    ]);
    expect(res.status).toBe(200);
    const after = {
      ...a, parameters: { ...a.parameters, rollout: '75' },
      constraints: [...a.constraints, { contextName: 'region', operator: 'IN', values: ['us'], caseInsensitive: false, inverted: false }],
    };
    expect(res.body).toEqual(after);
    const [event] = await eventsSince(since);
    expect(event).toMatchObject({ type: 'feature-strategy-update', data: eventData(after), preData: eventData(a) });
    a = after;
  });

  it('PATCH refuses a malformed patch, a failing test and a result that is invalid (400), and changes nothing', async () => {
    await failsWithoutChange(['one'], () => app.request('PATCH', `${strategiesPath('one')}/${a.id}`, { op: 'replace' }), 400, 'ValidationError');
    await failsWithoutChange(['one'], () => app.request('PATCH', `${strategiesPath('one')}/${a.id}`, [{ op: 'test', path: '/title', value: 'not it' }]), 400, 'ValidationError');
    const invalid = await failsWithoutChange(['one'], () => app.request('PATCH', `${strategiesPath('one')}/${a.id}`, [{ op: 'replace', path: '/constraints/0/values', value: [] }]), 400, 'ValidationError');
    expect(invalid.body.details[0].path).toBe('constraints/0/values');
    await failsWithoutChange(['one'], () => app.request('PATCH', `${strategiesPath('one')}/${MISSING_ID}`, [{ op: 'replace', path: '/title', value: 'x' }]), 404, 'NotFoundError');
  });

  it('disabling the last active strategy of an enabled environment switches it off', async () => {
    await createFeature('one-disable');
    const only = await addStrategy('one-disable', { name: 'default' });
    expect((await app.post(`${envPath('one-disable')}/on`)).status).toBe(200);
    const since = await lastEventId();
    const res = await app.put(`${strategiesPath('one-disable')}/${only.id}`, { disabled: true });
    expect(res.body.disabled).toBe(true);
    const events = await eventsSince(since);
    expect(events.map((e) => e.type)).toEqual(['feature-strategy-update', 'feature-environment-disabled']);
    expect(events[1]).toMatchObject({ project: 'default', environment: 'development', featureName: 'one-disable' });
    expect(await environment('one-disable')).toMatchObject({ enabled: false, hasStrategies: true, hasEnabledStrategies: false });
  });

  it('DELETE removes a strategy (feature-strategy-remove with preData) and keeps an environment with active strategies on', async () => {
    expect((await app.post(`${envPath('one')}/on`)).status).toBe(200);
    const since = await lastEventId();
    const res = await app.del(`${strategiesPath('one')}/${b.id}`);
    expect(res.status).toBe(200);
    const events = await eventsSince(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'feature-strategy-remove', project: 'default', environment: 'development', featureName: 'one', data: null, preData: eventData(b) });
    expect((await app.get(`${strategiesPath('one')}/${b.id}`)).status).toBe(404);
    expect(await environment('one')).toMatchObject({ enabled: true, strategies: [a] });
  });

  it('DELETE of the last active strategy of an enabled environment switches it off with feature-environment-disabled', async () => {
    const since = await lastEventId();
    expect((await app.del(`${strategiesPath('one')}/${a.id}`)).status).toBe(200);
    const events = await eventsSince(since);
    expect(events.map((e) => e.type)).toEqual(['feature-strategy-remove', 'feature-environment-disabled']);
    expect(events[1]).toMatchObject({ project: 'default', environment: 'development', featureName: 'one', data: null, preData: null });
    expect(await environment('one')).toMatchObject({ enabled: false, hasStrategies: false, strategies: [] });
    // The production strategy is untouched.
    expect((await app.get(strategiesPath('one', 'production'))).body).toEqual([prod]);
  });

  it('DELETE answers 404 for an unknown id, another environment or another feature, and changes nothing', async () => {
    await failsWithoutChange(['one'], () => app.del(`${strategiesPath('one')}/${a.id}`), 404, 'NotFoundError');
    await failsWithoutChange(['one'], () => app.del(`${strategiesPath('one')}/${prod.id}`), 404, 'NotFoundError');
    await failsWithoutChange(['one', 'one-sibling'], () => app.del(`${strategiesPath('one-sibling')}/${prod.id}`), 404, 'NotFoundError');
    await failsWithoutChange(['one'], () => app.del(`${strategiesPath('one')}/not-a-uuid`), 404, 'NotFoundError');
  });
});

describe('strategy sort order', () => {
  let ids: string[];
  beforeAll(async () => {
    await createFeature('order');
    ids = [];
    for (const title of ['first', 'second', 'third']) ids.push((await addStrategy('order', { name: 'default', title })).id);
  });

  it('reorders the strategies and records strategy-order-changed with data and preData', async () => {
    const since = await lastEventId();
    const res = await app.post(`${strategiesPath('order')}/set-sort-order`, [{ id: ids[2], sortOrder: 0 }, { id: ids[0], sortOrder: 1 }, { id: ids[1], sortOrder: 2 }]);
    expect(res.status).toBe(200);
    expect((await app.get(strategiesPath('order'))).body.map((s: any) => s.title)).toEqual(['third', 'first', 'second']);
    const events = await eventsSince(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'strategy-order-changed', project: 'default', environment: 'development', featureName: 'order',
      data: { strategyIds: [{ id: ids[2], sortOrder: 0 }, { id: ids[0], sortOrder: 1 }, { id: ids[1], sortOrder: 2 }] },
      preData: { strategyIds: [{ id: ids[0], sortOrder: 0 }, { id: ids[1], sortOrder: 1 }, { id: ids[2], sortOrder: 2 }] },
    });
  });

  it('writes no event when the order does not change', async () => {
    const since = await lastEventId();
    expect((await app.post(`${strategiesPath('order')}/set-sort-order`, [{ id: ids[2], sortOrder: 0 }])).status).toBe(200);
    expect(await eventsSince(since)).toEqual([]);
  });

  it('refuses an unknown id (400 ValidationError naming the position) and a bad body, changing nothing', async () => {
    const unknown = await failsWithoutChange(['order'], () => app.post(`${strategiesPath('order')}/set-sort-order`, [{ id: ids[0], sortOrder: 5 }, { id: MISSING_ID, sortOrder: 1 }]), 400, 'ValidationError');
    expect(unknown.body.details).toEqual([{ path: '1/id', message: expect.stringContaining(MISSING_ID) }]);
    const prodStrategy = await addStrategy('order', { name: 'default' }, 'production');
    const otherEnv = await failsWithoutChange(['order'], () => app.post(`${strategiesPath('order')}/set-sort-order`, [{ id: prodStrategy.id, sortOrder: 1 }]), 400, 'ValidationError');
    expect(otherEnv.body.details[0].path).toBe('0/id');
    const noOrder = await failsWithoutChange(['order'], () => app.post(`${strategiesPath('order')}/set-sort-order`, [{ id: ids[0] }]), 400, 'ValidationError');
    expect(noOrder.body.details[0].path).toBe('0/sortOrder');
    await failsWithoutChange(['order'], () => app.post(`${strategiesPath('order')}/set-sort-order`, []), 400, 'ValidationError');
    await failsWithoutChange([], () => app.post(`${strategiesPath('nope')}/set-sort-order`, [{ id: ids[0], sortOrder: 1 }]), 404, 'NotFoundError');
  });
});

describe('permissions (service level)', () => {
  const user = (rootRoleId: number): Principal => ({ kind: 'user', name: `role-${rootRoleId}@example.com`, userId: 200 + rootRoleId, isAdmin: false, rootRoleId });
  const as = (p: Principal) => createServices(app.orm.em.fork(), p);

  it('a Viewer cannot add strategies or switch environments (NoAccessError naming permission and environment); an Editor can', async () => {
    await createFeature('perm');
    const since = await lastEventId();
    const viewer = as(user(ROLE_VIEWER));
    const addError = await viewer.featureStrategies.add('default', 'perm', 'production', { name: 'default' }).then(() => null, (e: any) => e);
    expect(addError).toMatchObject({ name: 'NoAccessError', permission: 'CREATE_FEATURE_STRATEGY', environment: 'production' });
    const onError = await viewer.featureStrategies.setEnabled('default', 'perm', 'production', true).then(() => null, (e: any) => e);
    expect(onError).toMatchObject({ name: 'NoAccessError', permission: 'UPDATE_FEATURE_ENVIRONMENT' });
    expect(await eventsSince(since)).toEqual([]);

    const editor = as(user(ROLE_EDITOR));
    const added = await editor.featureStrategies.add('default', 'perm', 'production', { name: 'default' });
    const [event] = await eventsSince(since);
    expect(event).toMatchObject({ type: 'feature-strategy-add', createdBy: 'role-2@example.com', createdByUserId: 202, data: eventData(added) });
  });
});
