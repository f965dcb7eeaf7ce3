import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildApp } from '../../../src/app';
import { PlaygroundService } from '../../../src/domain/playground/playground.service';
import { ValidationError } from '../../../src/domain/errors';
import { createLogger } from '../../../src/logger';
import { ADMIN_TOKEN, startTestApp, type Reply, type TestApp } from '../../support/harness';

/**
 * Spec endpoints 3 and 4: POST /api/admin/playground and /api/admin/playground/advanced.
 * Every piece of test data is created through the API, so what the playground reads is what the admin API wrote.
 */

let app: TestApp;

const P = '/api/admin/projects';
const featurePath = (f: string, project = 'default') => `${P}/${project}/features/${f}`;
const envPath = (f: string, env = 'development', project = 'default') => `${featurePath(f, project)}/environments/${env}`;
const PLAYGROUND = '/api/admin/playground';
const ADVANCED = '/api/admin/playground/advanced';

async function ok<T = any>(call: Promise<Reply<T>>, status = 200): Promise<T> {
  const res = await call;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
const createProject = (id: string) => ok(app.post(P, { id, name: id }), 201);
const createFeature = (name: string, project = 'default') => ok(app.post(`${P}/${project}/features`, { name }), 201);
const addStrategy = (f: string, body: Record<string, unknown>, project = 'default', env = 'development') =>
  ok(app.post(`${envPath(f, env, project)}/strategies`, body));
const switchOn = (f: string, project = 'default', env = 'development') => ok(app.post(`${envPath(f, env, project)}/on`));
const setVariants = async (f: string, variants: unknown[], env = 'development') => (await ok(app.put(`${envPath(f, env)}/variants`, variants))).variants;
const createSegment = (name: string, constraints: unknown[]) => ok(app.post('/api/admin/segments', { name, constraints }), 201);

const playground = (body: unknown) => app.post(PLAYGROUND, body);
const advanced = (body: unknown) => app.post(ADVANCED, body);
const evaluated = async (body: unknown): Promise<Record<string, any>> => {
  const res = await ok(playground(body));
  return Object.fromEntries(res.features.map((f: any) => [f.name, f]));
};

const DISABLED = { name: 'disabled', enabled: false };
const editLink = (project: string, feature: string, env: string, id: string) =>
  `/projects/${project}/features/${feature}/strategies/edit?environmentId=${env}&strategyId=${id}`;

/** The expected `strategies.data` item for a strategy as the admin API returned it. */
function strategyResult(s: any, result: unknown, constraintResults: boolean[], segments: unknown[] = [], env = 'development', project = 'default') {
  expect(s.constraints).toHaveLength(constraintResults.length);
  const out: Record<string, unknown> = {
    name: s.name,
    id: s.id,
    disabled: s.disabled,
    parameters: s.parameters,
    result,
    constraints: s.constraints.map((c: any, i: number) => ({ ...c, result: constraintResults[i] })),
    segments,
    links: { edit: editLink(project, s.featureName, env, s.id) },
  };
  if (s.title) out.title = s.title;
  return out;
}
const COMPLETE_TRUE = { enabled: true, evaluationStatus: 'complete' };
const COMPLETE_FALSE = { enabled: false, evaluationStatus: 'complete' };
const UNEVALUATED = { enabled: 'unknown', evaluationStatus: 'unevaluated' };

// Strategies and other data created in beforeAll, used by the expectations.
const s: Record<string, any> = {};
let segEu: any;
let segBeta: any;
let envVariants: any[];
let offVariants: any[];
let strategyEnvVariants: any[];
const ALL_NAMES = [
  'rollout-all', 'rollout-none', 'user-in', 'user-with-id', 'disabled-strategy', 'env-off', 'bare-on', 'bare-off', 'incomplete', 'segmented',
  'parent', 'child', 'parent-on', 'child-ok', 'child-not', 'child-variant', 'child-other-variant', 'env-constraint', 'env-default', 'date-after', 'env-variants', 'strategy-variants', 'other-feature',
];

beforeAll(async () => {
  app = await startTestApp();
  await createProject('other');
  await ok(app.post('/api/admin/context', { name: 'region' }), 201);

  await createFeature('rollout-all');
  s.rolloutAll = await addStrategy('rollout-all', { name: 'flexibleRollout', title: 'Everyone', parameters: { rollout: '100', stickiness: 'default', groupId: 'rollout-all' } });
  await switchOn('rollout-all');

  await createFeature('rollout-none');
  s.rolloutNone = await addStrategy('rollout-none', { name: 'flexibleRollout', parameters: { rollout: '0', stickiness: 'default', groupId: 'rollout-none' } });
  await switchOn('rollout-none');

  await createFeature('user-in');
  s.userIn = await addStrategy('user-in', {
    name: 'default',
    constraints: [
      { contextName: 'userId', operator: 'IN', values: ['1', '2'] },
      { contextName: 'userId', operator: 'NOT_IN', values: ['3'], inverted: false },
    ],
  });
  await switchOn('user-in');

  await createFeature('user-with-id');
  s.userWithId = await addStrategy('user-with-id', { name: 'userWithId', parameters: { userIds: '1, 2' } });
  await switchOn('user-with-id');

  await createFeature('disabled-strategy');
  s.disabledFalse = await addStrategy('disabled-strategy', { name: 'flexibleRollout', sortOrder: 0, parameters: { rollout: '0', stickiness: 'default', groupId: 'disabled-strategy' } });
  s.disabledDefault = await addStrategy('disabled-strategy', { name: 'default', sortOrder: 1, disabled: true });
  await switchOn('disabled-strategy');

  await createFeature('env-off');
  s.envOff = await addStrategy('env-off', { name: 'default' });
  offVariants = await setVariants('env-off', [{ name: 'grey', weightType: 'variable', weight: 1000, stickiness: 'default' }]);

  // The API never leaves an environment switched on without an active strategy: switching on adds the default strategy,
  // and removing the last one switches the environment off. Such rows can still exist (older or imported data), so the
  // switch is set directly, after the API removed the strategy, to check how the playground reads them.
  await createFeature('bare-on');
  await switchOn('bare-on');
  const added = await ok(app.get(`${envPath('bare-on')}/strategies`));
  expect(added).toHaveLength(1);
  await ok(app.del(`${envPath('bare-on')}/strategies/${added[0].id}`));
  await app.orm.em.fork().execute(`update feature_environments set enabled = true where feature_name = 'bare-on' and environment = 'development'`);

  await createFeature('bare-off');

  // applicationHostname cannot be evaluated by the server, nor can a custom strategy: both are `incomplete`.
  await ok(app.post('/api/admin/strategies', { name: 'teamRollout', parameters: [{ name: 'team', type: 'string' }] }), 201);
  await createFeature('incomplete');
  s.hostname = await addStrategy('incomplete', { name: 'applicationHostname', sortOrder: 0, parameters: { hostNames: 'example.com' }, constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] });
  s.custom = await addStrategy('incomplete', { name: 'teamRollout', sortOrder: 1, parameters: { team: 'a' } });
  await switchOn('incomplete');

  segEu = await createSegment('eu-users', [{ contextName: 'region', operator: 'IN', values: ['eu'] }]);
  segBeta = await createSegment('beta-users', [{ contextName: 'userId', operator: 'IN', values: ['1'] }]);
  await createFeature('segmented');
  s.segmented = await addStrategy('segmented', { name: 'default', segments: [segEu.id, segBeta.id] });
  await switchOn('segmented');

  await createFeature('parent');
  await addStrategy('parent', { name: 'default' });
  await createFeature('child');
  s.child = await addStrategy('child', { name: 'default' });
  await switchOn('child');
  await ok(app.post(`${featurePath('child')}/dependencies`, { feature: 'parent' }));
  await createFeature('archived');
  await addStrategy('archived', { name: 'default' });
  await switchOn('archived');
  await ok(app.del(featurePath('archived')), 202);

  await createFeature('env-constraint');
  s.envConstraint = await addStrategy('env-constraint', { name: 'default', constraints: [{ contextName: 'environment', operator: 'IN', values: ['development'] }] });
  await switchOn('env-constraint');
  await createFeature('env-default');
  s.envDefault = await addStrategy('env-default', { name: 'default', constraints: [{ contextName: 'environment', operator: 'IN', values: ['default'] }] });
  await switchOn('env-default');

  await createFeature('date-after');
  s.dateAfter = await addStrategy('date-after', { name: 'default', constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: '2030-01-01T00:00:00.000Z' }] });
  await switchOn('date-after');

  await createFeature('env-variants');
  s.envVariants = await addStrategy('env-variants', { name: 'default' });
  await switchOn('env-variants');
  envVariants = await setVariants('env-variants', [{ name: 'blue', weightType: 'variable', weight: 1000, stickiness: 'default', payload: { type: 'string', value: 'b' } }]);

  await createFeature('strategy-variants');
  s.strategyVariants = await addStrategy('strategy-variants', {
    name: 'default', parameters: { groupId: 'strategy-variants' },
    variants: [{ name: 'sv', weightType: 'variable', weight: 1000, stickiness: 'default' }],
  });
  await switchOn('strategy-variants');
  strategyEnvVariants = await setVariants('strategy-variants', [{ name: 'ev', weightType: 'variable', weight: 1000, stickiness: 'default' }]);

  // Dependencies that hold or not: on a parent that is on, with enabled false, and on the parent's variant.
  await createFeature('parent-on');
  await addStrategy('parent-on', { name: 'default' });
  await switchOn('parent-on');
  for (const [child, dependency] of [
    ['child-ok', { feature: 'parent-on' }],
    ['child-not', { feature: 'parent-on', enabled: false }],
    ['child-variant', { feature: 'env-variants', variants: ['blue'] }],
    ['child-other-variant', { feature: 'env-variants', variants: ['red'] }],
  ] as const) {
    await createFeature(child);
    await addStrategy(child, { name: 'default' });
    await switchOn(child);
    await ok(app.post(`${featurePath(child)}/dependencies`, dependency));
  }

  await createFeature('other-feature', 'other');
  s.other = await addStrategy('other-feature', { name: 'default' }, 'other');
  await switchOn('other-feature', 'other');
});
afterAll(async () => { await app?.close(); });

const BASE = { environment: 'development', context: { appName: 'playground-test', userId: '1', properties: { region: 'eu' } } };

describe('POST /api/admin/playground', () => {
  it('answers 200 {input, features}, echoing the body as sent, unknown top-level keys included', async () => {
    const body = { ...BASE, projects: '*', somethingElse: { kept: true } };
    const res = await playground(body);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['features', 'input']);
    expect(res.body.input).toEqual(body);
    expect(res.body.features.map((f: any) => f.name).sort()).toEqual([...ALL_NAMES].sort());
    for (const f of res.body.features) {
      expect(Object.keys(f).sort()).toEqual(['hasUnsatisfiedDependency', 'isEnabled', 'isEnabledInCurrentEnvironment', 'name', 'projectId', 'strategies', 'variant', 'variants']);
      expect(Object.keys(f.strategies).sort()).toEqual(['data', 'result']);
    }
  });

  it('evaluates flexibleRollout at 100% and 0%, with the exact strategy result, title only when set, and the edit link', async () => {
    const features = await evaluated(BASE);
    expect(features['rollout-all']).toEqual({
      name: 'rollout-all', projectId: 'default',
      strategies: { result: true, data: [strategyResult(s.rolloutAll, COMPLETE_TRUE, [])] },
      hasUnsatisfiedDependency: false, isEnabledInCurrentEnvironment: true, isEnabled: true, variant: DISABLED, variants: [],
    });
    const data = features['rollout-all'].strategies.data[0];
    expect(data.title).toBe('Everyone');
    expect(data.links.edit).toBe(`/projects/default/features/rollout-all/strategies/edit?environmentId=development&strategyId=${s.rolloutAll.id}`);
    expect(data.parameters).toEqual({ rollout: '100', stickiness: 'default', groupId: 'rollout-all' });
    expect(features['rollout-none']).toEqual({
      name: 'rollout-none', projectId: 'default',
      strategies: { result: false, data: [strategyResult(s.rolloutNone, COMPLETE_FALSE, [])] },
      hasUnsatisfiedDependency: false, isEnabledInCurrentEnvironment: true, isEnabled: false, variant: DISABLED, variants: [],
    });
    expect(Object.keys(features['rollout-none'].strategies.data[0])).not.toContain('title');
    // The disabled variant has no payload key at all.
    expect(Object.keys(features['rollout-none'].variant).sort()).toEqual(['enabled', 'name']);
  });

  it('gives each constraint its own result (userId IN / NOT_IN), and evaluates userWithId', async () => {
    const one = await evaluated(BASE);
    expect(one['user-in'].strategies).toEqual({ result: true, data: [strategyResult(s.userIn, COMPLETE_TRUE, [true, true])] });
    expect(one['user-in'].isEnabled).toBe(true);
    expect(one['user-with-id'].strategies).toEqual({ result: true, data: [strategyResult(s.userWithId, COMPLETE_TRUE, [])] });
    expect(one['user-with-id'].isEnabled).toBe(true);

    const three = await evaluated({ ...BASE, context: { appName: 'a', userId: '3' } });
    expect(three['user-in'].strategies).toEqual({ result: false, data: [strategyResult(s.userIn, COMPLETE_FALSE, [false, false])] });
    expect(three['user-in']).toMatchObject({ isEnabled: false, isEnabledInCurrentEnvironment: true, variant: DISABLED });
    expect(three['user-with-id']).toMatchObject({ isEnabled: false, strategies: { result: false } });

    // No userId: IN is false, NOT_IN true.
    const none = await evaluated({ ...BASE, context: { appName: 'a' } });
    expect(none['user-in'].strategies.data[0].constraints.map((c: any) => c.result)).toEqual([false, true]);
    // userIds are split on commas ignoring the whitespace around them.
    expect((await evaluated({ ...BASE, context: { appName: 'a', userId: '2' } }))['user-with-id'].isEnabled).toBe(true);
  });

  it('reports a disabled strategy as unevaluated: strategies.result "unknown" and isEnabled false', async () => {
    const f = (await evaluated(BASE))['disabled-strategy'];
    expect(f).toEqual({
      name: 'disabled-strategy', projectId: 'default',
      strategies: {
        result: 'unknown',
        data: [strategyResult(s.disabledFalse, COMPLETE_FALSE, []), strategyResult(s.disabledDefault, UNEVALUATED, [])],
      },
      hasUnsatisfiedDependency: false, isEnabledInCurrentEnvironment: true, isEnabled: false, variant: DISABLED, variants: [],
    });
    expect(f.strategies.data[1].disabled).toBe(true);
  });

  it('still evaluates strategies when the environment is switched off, but isEnabled is false; env variants are listed', async () => {
    const f = (await evaluated(BASE))['env-off'];
    expect(f).toEqual({
      name: 'env-off', projectId: 'default',
      strategies: { result: true, data: [strategyResult(s.envOff, COMPLETE_TRUE, [])] },
      hasUnsatisfiedDependency: false, isEnabledInCurrentEnvironment: false, isEnabled: false, variant: DISABLED, variants: offVariants,
    });
  });

  it('takes the environment switch as the result of a feature without strategies', async () => {
    const features = await evaluated(BASE);
    expect(features['bare-on']).toEqual({
      name: 'bare-on', projectId: 'default', strategies: { result: true, data: [] },
      hasUnsatisfiedDependency: false, isEnabledInCurrentEnvironment: true, isEnabled: true, variant: DISABLED, variants: [],
    });
    expect(features['bare-off']).toEqual({
      name: 'bare-off', projectId: 'default', strategies: { result: false, data: [] },
      hasUnsatisfiedDependency: false, isEnabledInCurrentEnvironment: false, isEnabled: false, variant: DISABLED, variants: [],
    });
  });

  it('reports strategies the server cannot evaluate (applicationHostname, custom) as incomplete', async () => {
    const one = (await evaluated(BASE)).incomplete;
    const INCOMPLETE_UNKNOWN = { enabled: 'unknown', evaluationStatus: 'incomplete' };
    expect(one).toEqual({
      name: 'incomplete', projectId: 'default',
      strategies: { result: 'unknown', data: [strategyResult(s.hostname, INCOMPLETE_UNKNOWN, [true]), strategyResult(s.custom, INCOMPLETE_UNKNOWN, [])] },
      hasUnsatisfiedDependency: false, isEnabledInCurrentEnvironment: true, isEnabled: false, variant: DISABLED, variants: [],
    });
    // A failing constraint makes it `false`, still incomplete.
    const two = (await evaluated({ ...BASE, context: { appName: 'a', userId: '2' } })).incomplete;
    expect(two.strategies.data[0].result).toEqual({ enabled: false, evaluationStatus: 'incomplete' });
    expect(two.strategies.data[0].constraints[0].result).toBe(false);
    expect(two.strategies.result).toBe('unknown');
  });

  it('lists every segment of a strategy with its own result and constraint results (properties are read as context fields)', async () => {
    const segments = (eu: boolean, beta: boolean) => [
      { id: segEu.id, name: 'eu-users', result: eu, constraints: segEu.constraints.map((c: any) => ({ ...c, result: eu })) },
      { id: segBeta.id, name: 'beta-users', result: beta, constraints: segBeta.constraints.map((c: any) => ({ ...c, result: beta })) },
    ];
    const both = (await evaluated(BASE)).segmented;
    expect(both.strategies).toEqual({ result: true, data: [strategyResult(s.segmented, COMPLETE_TRUE, [], segments(true, true))] });
    expect(both.isEnabled).toBe(true);

    const notBeta = (await evaluated({ ...BASE, context: { appName: 'a', userId: '2', region: 'eu' } })).segmented;
    expect(notBeta.strategies).toEqual({ result: false, data: [strategyResult(s.segmented, COMPLETE_FALSE, [], segments(true, false))] });
    expect(notBeta.isEnabled).toBe(false);

    const neither = (await evaluated({ ...BASE, context: { appName: 'a', userId: '1', properties: { region: 'us' } } })).segmented;
    expect(neither.strategies.data[0].segments.map((x: any) => x.result)).toEqual([false, true]);
    expect(neither.isEnabled).toBe(false);

    // A truthy top-level value wins over properties; an empty one falls back to them.
    const topLevel = (await evaluated({ ...BASE, context: { appName: 'a', userId: '1', region: 'us', properties: { region: 'eu' } } })).segmented;
    expect(topLevel.strategies.data[0].segments[0].result).toBe(false);
    const fallback = (await evaluated({ ...BASE, context: { appName: 'a', userId: '1', region: '', properties: { region: 'eu' } } })).segmented;
    expect(fallback.strategies.data[0].segments[0].result).toBe(true);
  });

  it('marks a child whose parent is switched off as hasUnsatisfiedDependency, forcing isEnabled false', async () => {
    const features = await evaluated(BASE);
    expect(features.child).toEqual({
      name: 'child', projectId: 'default',
      strategies: { result: true, data: [strategyResult(s.child, COMPLETE_TRUE, [])] },
      hasUnsatisfiedDependency: true, isEnabledInCurrentEnvironment: true, isEnabled: false, variant: DISABLED, variants: [],
    });
    expect(features.parent).toMatchObject({ hasUnsatisfiedDependency: false, isEnabledInCurrentEnvironment: false, isEnabled: false });
  });

  it('satisfies dependencies on a parent that is on, on a parent that is off (enabled false), and on the parent\'s variant', async () => {
    const features = await evaluated(BASE);
    expect(features['parent-on']).toMatchObject({ isEnabled: true, hasUnsatisfiedDependency: false });
    const summary = (name: string) => ({ hasUnsatisfiedDependency: features[name].hasUnsatisfiedDependency, isEnabled: features[name].isEnabled, variant: features[name].variant, result: features[name].strategies.result });
    expect(summary('child-ok')).toEqual({ hasUnsatisfiedDependency: false, isEnabled: true, variant: DISABLED, result: true });
    expect(summary('child-not')).toEqual({ hasUnsatisfiedDependency: true, isEnabled: false, variant: DISABLED, result: true });
    expect(summary('child-variant')).toEqual({ hasUnsatisfiedDependency: false, isEnabled: true, variant: DISABLED, result: true });
    expect(summary('child-other-variant')).toEqual({ hasUnsatisfiedDependency: true, isEnabled: false, variant: DISABLED, result: true });
  });

  it('leaves archived features out', async () => {
    const res = await ok(playground(BASE));
    expect(res.features.map((f: any) => f.name)).not.toContain('archived');
  });

  it('filters by projects: "*" and a missing list mean all, a list only those projects', async () => {
    const all = (await ok(playground({ ...BASE, projects: '*' }))).features.map((f: any) => f.name).sort();
    expect(all).toEqual([...ALL_NAMES].sort());
    expect((await ok(playground(BASE))).features.map((f: any) => f.name).sort()).toEqual(all);
    const other = await ok(playground({ ...BASE, projects: ['other'] }));
    expect(other.features).toEqual([{
      name: 'other-feature', projectId: 'other',
      strategies: { result: true, data: [strategyResult(s.other, COMPLETE_TRUE, [], [], 'development', 'other')] },
      hasUnsatisfiedDependency: false, isEnabledInCurrentEnvironment: true, isEnabled: true, variant: DISABLED, variants: [],
    }]);
    expect(other.features[0].strategies.data[0].links.edit).toBe(editLink('other', 'other-feature', 'development', s.other.id));
    const both = (await ok(playground({ ...BASE, projects: ['other', 'default'] }))).features.map((f: any) => f.name).sort();
    expect(both).toEqual(all);
    expect((await ok(playground({ ...BASE, projects: ['no-such-project'] }))).features).toEqual([]);
    expect((await ok(playground({ ...BASE, projects: [] }))).features).toEqual([]);
  });

  it('answers 200 for an unknown environment, with every feature disabled and no strategies', async () => {
    const res = await ok(playground({ ...BASE, environment: 'nowhere' }));
    expect(res.features.map((f: any) => f.name).sort()).toEqual([...ALL_NAMES].sort());
    for (const f of res.features) {
      expect(f).toEqual({
        name: f.name, projectId: f.projectId, strategies: { result: false, data: [] },
        // No parent is switched on in an unknown environment: only `enabled: false` holds.
        hasUnsatisfiedDependency: f.name.startsWith('child') && f.name !== 'child-not', isEnabledInCurrentEnvironment: false, isEnabled: false, variant: DISABLED, variants: [],
      });
    }
  });

  it('evaluates a constraint on `environment` against context.environment (default "default"), not the selected environment', async () => {
    const pick = async (context: Record<string, unknown>, environment = 'development') =>
      (await evaluated({ environment, context: { appName: 'a', ...context } }))['env-constraint'];
    const implicit = await pick({});
    expect(implicit.strategies).toEqual({ result: false, data: [strategyResult(s.envConstraint, COMPLETE_FALSE, [false])] });
    expect(implicit.isEnabled).toBe(false);
    const explicit = await pick({ environment: 'development' });
    expect(explicit.strategies).toEqual({ result: true, data: [strategyResult(s.envConstraint, COMPLETE_TRUE, [true])] });
    expect(explicit.isEnabled).toBe(true);
    expect((await pick({ environment: 'production' })).isEnabled).toBe(false);
    // The implicit value is the literal "default": `environment IN [default]` holds in the development playground.
    const literal = (await evaluated({ environment: 'development', context: { appName: 'a' } }))['env-default'];
    expect(literal.strategies).toEqual({ result: true, data: [strategyResult(s.envDefault, COMPLETE_TRUE, [true])] });
    expect(literal.isEnabled).toBe(true);
    expect((await evaluated({ environment: 'development', context: { appName: 'a', environment: 'development' } }))['env-default'].isEnabled).toBe(false);
  });

  it('uses context.currentTime for DATE_AFTER', async () => {
    const at = async (currentTime: string) => (await evaluated({ ...BASE, context: { appName: 'a', currentTime } }))['date-after'];
    const after = await at('2031-06-01T00:00:00.000Z');
    expect(after.strategies).toEqual({ result: true, data: [strategyResult(s.dateAfter, COMPLETE_TRUE, [true])] });
    expect(after.isEnabled).toBe(true);
    const before = await at('2029-06-01T00:00:00.000Z');
    expect(before.strategies).toEqual({ result: false, data: [strategyResult(s.dateAfter, COMPLETE_FALSE, [false])] });
    expect(before.isEnabled).toBe(false);
    // An RFC 3339 offset is honoured: 01:00+02:00 is still 2029 in UTC.
    expect((await at('2030-01-01T01:00:00+02:00')).isEnabled).toBe(false);
    expect((await at('2030-01-01T01:00:00.000Z')).isEnabled).toBe(true);
    // Without currentTime it is now, which is before 2030.
    expect((await evaluated(BASE))['date-after'].isEnabled).toBe(false);
  });

  it('gives the environment variant (with its payload) when no strategy variant applies; variants = the environment variants', async () => {
    expect(envVariants).toEqual([expect.objectContaining({ name: 'blue', weight: 1000 })]);
    const f = (await evaluated(BASE))['env-variants'];
    expect(f).toEqual({
      name: 'env-variants', projectId: 'default',
      strategies: { result: true, data: [strategyResult(s.envVariants, COMPLETE_TRUE, [])] },
      hasUnsatisfiedDependency: false, isEnabledInCurrentEnvironment: true, isEnabled: true,
      variant: { name: 'blue', enabled: true, payload: { type: 'string', value: 'b' } },
      variants: envVariants,
    });
  });

  it('gives the enabling strategy\'s variant and variants, before the environment variants', async () => {
    expect(s.strategyVariants.variants).toHaveLength(1);
    const f = (await evaluated(BASE))['strategy-variants'];
    expect(f).toEqual({
      name: 'strategy-variants', projectId: 'default',
      strategies: {
        result: true,
        data: [strategyResult(s.strategyVariants, {
          enabled: true, evaluationStatus: 'complete', variant: { name: 'sv', enabled: true }, variants: s.strategyVariants.variants,
        }, [])],
      },
      hasUnsatisfiedDependency: false, isEnabledInCurrentEnvironment: true, isEnabled: true,
      variant: { name: 'sv', enabled: true },
      variants: s.strategyVariants.variants,
    });
    expect(Object.keys(f.variant).sort()).toEqual(['enabled', 'name']);
    expect(strategyEnvVariants.map((v: any) => v.name)).toEqual(['ev']);
  });

  it('needs a token: 401 AuthenticationRequired', async () => {
    const res = await app.post(PLAYGROUND, BASE, { token: null });
    expect(res.status).toBe(401);
    expect(res.body.name).toBe('AuthenticationRequired');
  });

  it('refuses a body that is not JSON: 415 ContentTypeerror', async () => {
    const res = await app.post(PLAYGROUND, undefined, { raw: JSON.stringify(BASE), headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.body.name).toBe('ContentTypeerror');
  });
});

/** A 400 ValidationError whose details include `path`. */
function expectInvalid(res: Reply, path: string): void {
  expect({ status: res.status, name: res.body?.name }).toEqual({ status: 400, name: 'ValidationError' });
  expect(typeof res.body.id).toBe('string');
  expect(res.body.details.map((d: any) => d.path)).toContain(path);
  for (const d of res.body.details) expect(typeof d.message).toBe('string');
}

describe('playground validation (400 ValidationError with the property path)', () => {
  it.each([
    ['missing context.appName', { environment: 'development', context: { userId: '1' } }, 'context/appName'],
    ['empty context.appName', { environment: 'development', context: { appName: '' } }, 'context/appName'],
    ['missing environment', { context: { appName: 'a' } }, 'environment'],
    ['missing context', { environment: 'development' }, 'context'],
    ['projects neither "*" nor a list (a string)', { ...BASE, projects: 'default' }, 'projects'],
    ['projects neither "*" nor a list (an object)', { ...BASE, projects: { default: true } }, 'projects'],
    ['currentTime not a date', { environment: 'development', context: { appName: 'a', currentTime: 'garbage' } }, 'context/currentTime'],
    ['currentTime a date without a time', { environment: 'development', context: { appName: 'a', currentTime: '2031-06-01' } }, 'context/currentTime'],
    ['currentTime a bare number', { environment: 'development', context: { appName: 'a', currentTime: '1' } }, 'context/currentTime'],
    ['currentTime not a string', { environment: 'development', context: { appName: 'a', currentTime: 1 } }, 'context/currentTime'],
    ['properties not strings', { environment: 'development', context: { appName: 'a', properties: { region: 1 } } }, 'context/properties/region'],
  ])('basic: %s', async (_label, body, path) => {
    expectInvalid(await playground(body), path);
  });

  it('basic: a body that is not an object', async () => {
    const res = await playground([1, 2]);
    expect({ status: res.status, name: res.body.name }).toEqual({ status: 400, name: 'ValidationError' });
  });

  it.each([
    ['empty environments', { environments: [], context: { appName: 'a' } }, 'environments'],
    ['environment name not URL friendly', { environments: ['development', 'no spaces'], context: { appName: 'a' } }, 'environments/1'],
    ['environment name empty', { environments: [''], context: { appName: 'a' } }, 'environments/0'],
    ['missing environments', { context: { appName: 'a' } }, 'environments'],
    ['missing context.appName', { environments: ['development'], context: {} }, 'context/appName'],
    ['currentTime not a date', { environments: ['development'], context: { appName: 'a', currentTime: 'soon' } }, 'context/currentTime'],
    ['projects neither "*" nor a list', { environments: ['development'], projects: 5, context: { appName: 'a' } }, 'projects'],
  ])('advanced: %s', async (_label, body, path) => {
    expectInvalid(await advanced(body), path);
  });

  it('advanced: 401 without a token, 415 for a non-JSON body', async () => {
    const body = { environments: ['development'], context: { appName: 'a' } };
    const anonymous = await app.post(ADVANCED, body, { token: null });
    expect({ status: anonymous.status, name: anonymous.body.name }).toEqual({ status: 401, name: 'AuthenticationRequired' });
    const text = await app.post(ADVANCED, undefined, { raw: 'environments=development', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect({ status: text.status, name: text.body.name }).toEqual({ status: 415, name: 'ContentTypeerror' });
  });
});

describe('POST /api/admin/playground/advanced', () => {
  it('expands comma-separated values (properties flattened) into every combination, first key slowest', async () => {
    const body = { environments: ['development'], projects: ['default'], context: { appName: 'app', userId: '1,9', properties: { region: 'eu,us' } }, extra: 1 };
    const res = await ok(advanced(body));
    expect(res.input).toEqual(body);
    const segmented = res.features.find((f: any) => f.name === 'segmented');
    expect(Object.keys(segmented).sort()).toEqual(['environments', 'name', 'projectId']);
    expect(segmented.projectId).toBe('default');
    expect(Object.keys(segmented.environments)).toEqual(['development']);
    const entries = segmented.environments.development;
    expect(entries.map((e: any) => e.context)).toEqual([
      { appName: 'app', userId: '1', region: 'eu' },
      { appName: 'app', userId: '1', region: 'us' },
      { appName: 'app', userId: '9', region: 'eu' },
      { appName: 'app', userId: '9', region: 'us' },
    ]);
    for (const e of entries) {
      expect(e.environment).toBe('development');
      expect(e.context).not.toHaveProperty('properties');
    }
    // The flattened region still reaches the segment constraint; only (1, eu) passes both segments.
    expect(entries.map((e: any) => e.isEnabled)).toEqual([true, false, false, false]);
    expect(entries.map((e: any) => e.strategies.data[0].segments.map((x: any) => x.result))).toEqual([[true, true], [false, true], [true, false], [false, false]]);
  });

  it('does not trim the parts: "a, b" gives "a" and " b"', async () => {
    const res = await ok(advanced({ environments: ['development'], projects: ['other'], context: { appName: 'app', userId: 'a, b' } }));
    expect(res.features).toHaveLength(1);
    expect(res.features[0].environments.development.map((e: any) => e.context)).toEqual([
      { appName: 'app', userId: 'a' }, { appName: 'app', userId: ' b' },
    ]);
  });

  it('keeps non-string values as one value each', async () => {
    const res = await ok(advanced({ environments: ['development'], projects: ['other'], context: { appName: 'x,y', tier: 3, flag: true } }));
    expect(res.features[0].environments.development.map((e: any) => e.context)).toEqual([
      { appName: 'x', tier: 3, flag: true }, { appName: 'y', tier: 3, flag: true },
    ]);
  });

  it('refuses a context with more than 100 fields (properties included) promptly, and evaluates one with 100', async () => {
    const context: Record<string, unknown> = { appName: 'app', userId: '1,2', properties: {} as Record<string, string> };
    for (let i = 0; i < 8000; i++) (context.properties as Record<string, string>)[`k${i}`] = 'v';
    const started = Date.now();
    const refused = await advanced({ environments: ['development'], projects: ['other'], context });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ name: 'ValidationError', details: [{ path: 'context', message: expect.stringContaining('8002 fields') }] });
    const fits: Record<string, unknown> = { appName: 'app', userId: '1,2' };
    for (let i = 0; i < 98; i++) fits[`k${i}`] = 'v';
    const res = await ok(advanced({ environments: ['development'], projects: ['other'], context: fits }));
    const entries = res.features[0].environments.development;
    expect(entries.map((e: any) => e.context.userId)).toEqual(['1', '2']);
    expect(Object.keys(entries[1].context)).toHaveLength(100);
  });

  it('refuses combinations whose repeated context values would make the answer huge, though under the combination limit', async () => {
    // 5000 userIds × the features of `other` stays under 15000 combinations, but each entry would repeat a 60 kB value.
    const userIds = Array.from({ length: 5000 }, (_, i) => String(i)).join(',');
    const res = await advanced({ environments: ['development'], projects: ['other'], context: { appName: 'app', userId: userIds, note: 'n'.repeat(60_000) } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'ValidationError', details: [{ path: 'context', message: expect.stringContaining('MB of context values') }] });
  });

  it('keeps a "__proto__" context key as a plain field, and a property repeating a top-level key takes its place', async () => {
    const raw = '{"environments":["development"],"projects":["other"],"context":{"appName":"app","__proto__":"x,y","userId":"1","properties":{"appName":"p,q"}}}';
    const res = await ok(app.post(ADVANCED, undefined, { raw }));
    const contexts = res.features[0].environments.development.map((e: any) => e.context);
    expect(contexts.map((c: any) => [c.appName, c.__proto__, c.userId])).toEqual([['p', 'x', '1'], ['p', 'y', '1'], ['q', 'x', '1'], ['q', 'y', '1']]);
    for (const c of contexts) expect(Object.keys(c)).toEqual(['appName', '__proto__', 'userId']);
  });

  it('evaluates 2 environments × 3 userIds per feature, grouped by feature then environment; each entry equals the basic playground', async () => {
    const res = await ok(advanced({ environments: ['development', 'production'], projects: '*', context: { appName: 'app', userId: '1,2,3' } }));
    expect(res.features.map((f: any) => f.name).sort()).toEqual([...ALL_NAMES].sort());
    for (const environment of ['development', 'production']) {
      for (const userId of ['1', '2', '3']) {
        const basic = await evaluated({ environment, projects: '*', context: { appName: 'app', userId } });
        for (const f of res.features) {
          expect(Object.keys(f.environments)).toEqual(['development', 'production']);
          expect(f.environments[environment]).toHaveLength(3);
          const entry = f.environments[environment][Number(userId) - 1];
          expect(entry).toEqual({ ...basic[f.name], environment, context: { appName: 'app', userId } });
        }
      }
    }
    const userIn = res.features.find((f: any) => f.name === 'user-in');
    expect(userIn.environments.development.map((e: any) => e.isEnabled)).toEqual([true, true, false]);
    // Not switched on in production.
    expect(userIn.environments.production.map((e: any) => e.isEnabled)).toEqual([false, false, false]);
    const strategy = userIn.environments.development[0].strategies.data[0];
    expect(strategy.links.edit).toBe(editLink('default', 'user-in', 'development', s.userIn.id));
  });

  it('answers 200 for an unknown environment with every entry disabled', async () => {
    const res = await ok(advanced({ environments: ['nowhere'], context: { appName: 'app', userId: '1,2' } }));
    expect(res.features).toHaveLength(ALL_NAMES.length);
    for (const f of res.features) {
      expect(f.environments.nowhere).toHaveLength(2);
      for (const e of f.environments.nowhere) {
        expect(e).toMatchObject({ environment: 'nowhere', isEnabled: false, isEnabledInCurrentEnvironment: false, strategies: { result: false, data: [] }, variant: DISABLED });
      }
    }
  });

  describe('the combination limit (D9: 15000)', () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `u${i}`).join(',');
    beforeAll(async () => {
      await createProject('limits');
      for (const name of ['limit-a', 'limit-b', 'limit-c']) await createFeature(name, 'limits');
    });

    it('refuses 2 environments × 3 features × 2501 contexts = 15006 with 400 ValidationError naming the numbers', async () => {
      const res = await advanced({ environments: ['development', 'production'], projects: ['limits'], context: { appName: 'app', userId: values(2501) } });
      expect({ status: res.status, name: res.body.name }).toEqual({ status: 400, name: 'ValidationError' });
      const message = 'Rejecting evaluation as it would generate 15006 combinations exceeding 15000 limit. Please reduce the number of selected environments (2), features (3), context field combinations (2501).';
      expect(res.body.message).toContain(message);
      expect(res.body.details).toEqual([expect.objectContaining({ path: 'context', message })]);
    });

    it('counts the combinations of every key (properties included) in the product', async () => {
      // 2 × 3 × (61 × 41 = 2501)
      const res = await advanced({ environments: ['development', 'production'], projects: ['limits'], context: { appName: 'app', userId: values(61), properties: { region: values(41) } } });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('context field combinations (2501)');
    });

    it('allows exactly 15000 (2 × 3 × 2500)', async () => {
      const res = await ok(advanced({ environments: ['development', 'production'], projects: ['limits'], context: { appName: 'app', userId: values(2500) } }));
      expect(res.features.map((f: any) => f.name)).toEqual(['limit-a', 'limit-b', 'limit-c']);
      for (const f of res.features) {
        expect(f.environments.development).toHaveLength(2500);
        expect(f.environments.production).toHaveLength(2500);
        expect(f.environments.production[2499].context).toEqual({ appName: 'app', userId: 'u2499' });
      }
    });

    it('does not build the combinations when no feature is selected (a huge product answers at once, with no features)', async () => {
      // 16000 × 16000 = 256 million contexts: expanding them would exhaust the memory. 0 features × that is 0 evaluations.
      const many = Array.from({ length: 16000 }, () => 'x').join(',');
      const started = Date.now();
      const res = await ok(advanced({ environments: ['development'], projects: ['no-such-project'], context: { appName: 'app', userId: many, sessionId: many } }));
      expect(res.features).toEqual([]);
      expect(Date.now() - started).toBeLessThan(5000);
    }, 15000);

    it('takes a configured limit (buildApp playgroundCombinationLimit) over HTTP', async () => {
      const small = buildApp({ orm: app.orm, logger: createLogger('silent'), playgroundCombinationLimit: 10 });
      const server: Server = await new Promise((resolve) => { const sv = small.listen(0, '127.0.0.1', () => resolve(sv)); });
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${ADVANCED}`;
        const send = async (body: unknown) => {
          const res = await fetch(url, { method: 'POST', headers: { authorization: ADMIN_TOKEN, 'content-type': 'application/json' }, body: JSON.stringify(body) });
          return { status: res.status, body: await res.json() as any };
        };
        // 1 feature × 2 environments × 5 = 10: allowed.
        const atLimit = await send({ environments: ['development', 'production'], projects: ['other'], context: { appName: 'app', userId: '1,2,3,4,5' } });
        expect(atLimit.status).toBe(200);
        expect(atLimit.body.features[0].environments.production).toHaveLength(5);
        // 1 × 2 × 6 = 12: refused.
        const over = await send({ environments: ['development', 'production'], projects: ['other'], context: { appName: 'app', userId: '1,2,3,4,5,6' } });
        expect({ status: over.status, name: over.body.name }).toEqual({ status: 400, name: 'ValidationError' });
        expect(over.body.message).toContain('Rejecting evaluation as it would generate 12 combinations exceeding 10 limit. Please reduce the number of selected environments (2), features (1), context field combinations (6).');
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it('takes a configured limit in the service', async () => {
      const service = new PlaygroundService(app.orm.em.fork(), 4);
      const ok4 = await service.evaluateAdvanced({ environments: ['development', 'production'], projects: ['other'], context: { appName: 'app', userId: '1,2' } });
      expect(ok4.features[0].environments.development).toHaveLength(2);
      await expect(service.evaluateAdvanced({ environments: ['development'], projects: ['limits'], context: { appName: 'app', userId: '1,2' } }))
        .rejects.toBeInstanceOf(ValidationError);
    });
  });
});

describe('query count', () => {
  /** SQL statements of one playground call (the harness leaves credential lookups out). */
  async function statements(call: () => Promise<unknown>): Promise<string[]> {
    app.resetQueryCount();
    await call();
    return [...app.queries];
  }

  it('is the same for 1 feature and for 50 features, on both endpoints', async () => {
    await createProject('count-one');
    await createProject('count-fifty');
    const seg = await createSegment('count-segment', [{ contextName: 'userId', operator: 'IN', values: ['1'] }]);
    const build = async (name: string, project: string) => {
      await createFeature(name, project);
      await addStrategy(name, { name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }], segments: [seg.id] }, project);
      await switchOn(name, project);
    };
    await build('count-single', 'count-one');
    for (let i = 0; i < 50; i++) await build(`count-${i}`, 'count-fifty');

    const context = { appName: 'app', userId: '1' };
    const one = await statements(async () => expect((await ok(playground({ environment: 'development', projects: ['count-one'], context }))).features).toHaveLength(1));
    const fifty = await statements(async () => expect((await ok(playground({ environment: 'development', projects: ['count-fifty'], context }))).features).toHaveLength(50));
    expect(one.length).toBeGreaterThan(0);
    expect(one.length).toBeLessThanOrEqual(6);
    expect(fifty.length).toBe(one.length);

    const advOne = await statements(async () => ok(advanced({ environments: ['development', 'production'], projects: ['count-one'], context: { appName: 'app', userId: '1,2' } })));
    const advFifty = await statements(async () => ok(advanced({ environments: ['development', 'production'], projects: ['count-fifty'], context: { appName: 'app', userId: '1,2' } })));
    expect(advFifty.length).toBe(advOne.length);
    expect(advOne.length).toBeLessThanOrEqual(6);
  });
});
