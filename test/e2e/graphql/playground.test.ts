import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { graphql } from '../../gql';
import { startTestApp, type Reply, type TestApp } from '../../support/harness';

/**
 * GraphQL `playground(input)` and `advancedPlayground(input)`: the same results as REST endpoints 3 and 4 for the same
 * context (field names mapped: `editLink` is REST's `links.edit`, advanced environments are a list), the same errors.
 */

let app: TestApp;

const P = '/api/admin/projects';
const envPath = (f: string, env = 'development', project = 'default') => `${P}/${project}/features/${f}/environments/${env}`;

async function ok<T = any>(call: Promise<Reply<T>>, status = 200): Promise<T> {
  const res = await call;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
const createFeature = (name: string, project = 'default') => ok(app.post(`${P}/${project}/features`, { name }), 201);
const addStrategy = (f: string, body: Record<string, unknown>, project = 'default', env = 'development') =>
  ok(app.post(`${envPath(f, env, project)}/strategies`, body));
const switchOn = (f: string, project = 'default', env = 'development') => ok(app.post(`${envPath(f, env, project)}/on`));

const GqlPgFeatureParts = graphql(`
  fragment GqlPgFeatureParts on PlaygroundFeature {
    name projectId hasUnsatisfiedDependency isEnabledInCurrentEnvironment isEnabled
    variant { name enabled payload { type value } }
    variants { name weight weightType stickiness payload { type value } overrides { contextName values } }
    strategies {
      result
      data {
        id name title disabled parameters editLink
        result {
          enabled evaluationStatus
          variant { name enabled payload { type value } }
          variants { name weight weightType stickiness payload { type value } }
        }
        constraints { contextName operator values value caseInsensitive inverted result }
        segments { id name result constraints { contextName operator values value caseInsensitive inverted result } }
      }
    }
  }
`);
const GqlPgPlayground = graphql(`
  query GqlPgPlayground($input: PlaygroundInput!) { playground(input: $input) { ...GqlPgFeatureParts } }
`);
const GqlPgAdvanced = graphql(`
  query GqlPgAdvanced($input: AdvancedPlaygroundInput!) {
    advancedPlayground(input: $input) {
      name projectId
      environments { environment entries { environment context evaluation { ...GqlPgFeatureParts } } }
    }
  }
`);
const GqlPgNames = graphql(`query GqlPgNames($input: PlaygroundInput!) { playground(input: $input) { name isEnabled } }`);

async function gqlData<R, V>(doc: TypedDocumentNode<R, V>, variables?: V): Promise<R> {
  const res = await app.gql(doc, variables);
  expect(res.body.errors).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data as R;
}
async function gqlError<R, V>(doc: TypedDocumentNode<R, V>, variables?: V): Promise<Record<string, any>> {
  const res = await app.gql(doc, variables);
  expect(res.body.errors).toHaveLength(1);
  return res.body.errors![0].extensions;
}

// ---- REST shape → GraphQL shape ------------------------------------------------------------------------------
const payload = (v: any) => (v.payload ? { type: v.payload.type, value: v.payload.value } : null);
const variantToGql = (v: any) => ({ name: v.name, enabled: v.enabled, payload: payload(v) });
const constraintToGql = (c: any) => ({
  contextName: c.contextName, operator: c.operator, values: c.values, value: c.value ?? null, caseInsensitive: c.caseInsensitive, inverted: c.inverted, result: c.result,
});
const strategyVariantToGql = (v: any) => ({ name: v.name, weight: v.weight, weightType: v.weightType, stickiness: v.stickiness, payload: payload(v) });
const featureToGql = (f: any) => ({
  name: f.name,
  projectId: f.projectId,
  hasUnsatisfiedDependency: f.hasUnsatisfiedDependency,
  isEnabledInCurrentEnvironment: f.isEnabledInCurrentEnvironment,
  isEnabled: f.isEnabled,
  variant: variantToGql(f.variant),
  variants: f.variants.map((v: any) => ({ ...strategyVariantToGql(v), overrides: v.overrides ?? [] })),
  strategies: {
    result: f.strategies.result,
    data: f.strategies.data.map((s: any) => ({
      id: s.id,
      name: s.name,
      title: s.title ?? null,
      disabled: s.disabled,
      parameters: s.parameters,
      editLink: s.links.edit,
      result: {
        enabled: s.result.enabled,
        evaluationStatus: s.result.evaluationStatus,
        variant: s.result.variant ? variantToGql(s.result.variant) : null,
        variants: s.result.variants ? s.result.variants.map(strategyVariantToGql) : null,
      },
      constraints: s.constraints.map(constraintToGql),
      segments: s.segments.map((g: any) => ({ id: g.id, name: g.name, result: g.result, constraints: g.constraints.map(constraintToGql) })),
    })),
  },
});
const advancedToGql = (f: any) => ({
  name: f.name,
  projectId: f.projectId,
  environments: Object.entries(f.environments).map(([environment, entries]) => ({
    environment,
    entries: (entries as any[]).map((e) => ({ environment: e.environment, context: e.context, evaluation: featureToGql(e) })),
  })),
});

let segment: any;
beforeAll(async () => {
  app = await startTestApp();
  await ok(app.post(P, { id: 'gq-other', name: 'GraphQL other' }), 201);
  await ok(app.post('/api/admin/context', { name: 'region' }), 201);
  segment = await ok(app.post('/api/admin/segments', { name: 'gq-eu', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }] }), 201);

  await createFeature('gq-rollout');
  await addStrategy('gq-rollout', { name: 'flexibleRollout', title: 'Half', parameters: { rollout: '50', stickiness: 'default', groupId: 'gq-rollout' } });
  await switchOn('gq-rollout');

  await createFeature('gq-users');
  await addStrategy('gq-users', { name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1', '2'] }, { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2020-01-01T00:00:00.000Z' }] });
  await addStrategy('gq-users', { name: 'default', disabled: true, sortOrder: 5 });
  await switchOn('gq-users');

  await createFeature('gq-segment');
  await addStrategy('gq-segment', {
    name: 'default', segments: [segment.id], parameters: { groupId: 'gq-segment' },
    variants: [{ name: 'seg-variant', weightType: 'variable', weight: 1000, stickiness: 'default', payload: { type: 'json', value: '{"a":1}' } }],
  });
  await switchOn('gq-segment');

  await createFeature('gq-variants');
  await addStrategy('gq-variants', { name: 'default' });
  await switchOn('gq-variants');
  await ok(app.put(`${envPath('gq-variants')}/variants`, [
    { name: 'one', weightType: 'variable', weight: 500, stickiness: 'default', payload: { type: 'string', value: '1' }, overrides: [{ contextName: 'userId', values: ['9'] }] },
    { name: 'two', weightType: 'variable', weight: 500, stickiness: 'default' },
  ]));

  await createFeature('gq-parent');
  await createFeature('gq-child');
  await addStrategy('gq-child', { name: 'default' });
  await switchOn('gq-child');
  await ok(app.post(`${P}/default/features/gq-child/dependencies`, { feature: 'gq-parent' }));

  await createFeature('gq-env', 'default');
  await addStrategy('gq-env', { name: 'default', constraints: [{ contextName: 'environment', operator: 'IN', values: ['development'] }] });
  await switchOn('gq-env');

  await createFeature('gq-foreign', 'gq-other');
  await addStrategy('gq-foreign', { name: 'default' }, 'gq-other');
  await switchOn('gq-foreign', 'gq-other', 'production');
});
afterAll(async () => { await app?.close(); });

describe('GraphQL playground', () => {
  it('needs a token (401 AuthenticationRequired)', async () => {
    const res = await app.gql(GqlPgPlayground, { input: { environment: 'development', context: { appName: 'a' } } }, { token: null });
    expect(res.status).toBe(401);
    expect(res.body.errors![0].extensions.name).toBe('AuthenticationRequired');
  });

  it.each([
    ['user 1 in the EU', { appName: 'gq', userId: '1', properties: { region: 'eu' } }, undefined],
    ['user 3 elsewhere, before 2020', { appName: 'gq', userId: '3', currentTime: '2019-01-01T00:00:00Z', properties: { region: 'us' } }, undefined],
    ['user 9 (a variant override) with the environment in the context', { appName: 'gq', userId: '9', environment: 'development', sessionId: 's1', remoteAddress: '10.0.0.1' }, undefined],
    ['only project gq-other', { appName: 'gq', userId: '1' }, ['gq-other']],
  ])('equals REST for %s', async (_label, context, projects) => {
    const rest = await ok(app.post('/api/admin/playground', { environment: 'development', ...(projects ? { projects } : {}), context }));
    const data = await gqlData(GqlPgPlayground, { input: { environment: 'development', ...(projects ? { projects } : {}), context } });
    expect(data.playground).toEqual(rest.features.map(featureToGql));
    expect(data.playground.length).toBe(projects ? 1 : 8);
  });

  it('shows what the REST tests check, through GraphQL field names', async () => {
    const data = await gqlData(GqlPgPlayground, { input: { environment: 'development', context: { appName: 'gq', userId: '1', properties: { region: 'eu' } } } });
    const byName = Object.fromEntries(data.playground.map((f) => [f.name, f]));
    const rollout = byName['gq-rollout'].strategies.data[0];
    expect(rollout.title).toBe('Half');
    expect(rollout.editLink).toBe(`/projects/default/features/gq-rollout/strategies/edit?environmentId=development&strategyId=${rollout.id}`);
    expect(byName['gq-users'].strategies.data.map((s) => s.result)).toEqual([
      { enabled: true, evaluationStatus: 'complete', variant: null, variants: null },
      { enabled: 'unknown', evaluationStatus: 'unevaluated', variant: null, variants: null },
    ]);
    expect(byName['gq-users'].strategies.data[1].title).toBeNull();
    expect(byName['gq-segment']).toMatchObject({
      isEnabled: true,
      variant: { name: 'seg-variant', enabled: true, payload: { type: 'json', value: '{"a":1}' } },
      strategies: { result: true, data: [{ segments: [{ id: segment.id, name: 'gq-eu', result: true }] }] },
    });
    expect(byName['gq-variants'].variants.map((v) => v.name)).toEqual(['one', 'two']);
    expect(byName['gq-child']).toMatchObject({ hasUnsatisfiedDependency: true, isEnabled: false, variant: { name: 'disabled', enabled: false, payload: null } });
    // The selected environment is not the context's: `environment IN [development]` is false without it.
    expect(byName['gq-env']).toMatchObject({ isEnabled: false, strategies: { result: false } });
    // gq-foreign is switched on in production only.
    expect(byName['gq-foreign']).toMatchObject({ isEnabledInCurrentEnvironment: false, isEnabled: false, strategies: { result: true } });
  });

  it('answers an unknown environment with every feature disabled', async () => {
    const data = await gqlData(GqlPgNames, { input: { environment: 'nowhere', context: { appName: 'gq' } } });
    expect(data.playground).toHaveLength(8);
    expect(data.playground.every((f) => !f.isEnabled)).toBe(true);
  });

  it.each([
    ['an empty appName', { environment: 'development', context: { appName: '' } }, 'context/appName'],
    ['a currentTime that is not a date', { environment: 'development', context: { appName: 'gq', currentTime: 'later' } }, 'context/currentTime'],
    ['properties that are not strings', { environment: 'development', context: { appName: 'gq', properties: { region: ['eu'] } } }, 'context/properties/region'],
  ])('refuses %s: extensions.name ValidationError with the path', async (_label, input, path) => {
    const extensions = await gqlError(GqlPgPlayground, { input });
    expect(extensions.name).toBe('ValidationError');
    expect(extensions.details.map((d: any) => d.path)).toContain(path);
  });
});

describe('GraphQL advancedPlayground', () => {
  it('equals REST for 2 environments and the combinations of userId and a property', async () => {
    // GraphQL coerces an input object in the schema's field order (sorted by name), whatever order the client wrote:
    // `properties` comes before `userId`, so the region varies slowest. REST follows the JSON key order it is sent.
    const context = { appName: 'gq', properties: { region: 'eu,us' }, userId: '1,3,9' };
    const rest = await ok(app.post('/api/admin/playground/advanced', { environments: ['development', 'production'], projects: '*', context }));
    const data = await gqlData(GqlPgAdvanced, { input: { environments: ['development', 'production'], context: { appName: 'gq', userId: '1,3,9', properties: { region: 'eu,us' } } } });
    expect(data.advancedPlayground).toEqual(rest.features.map(advancedToGql));
    expect(data.advancedPlayground).toHaveLength(8);
    const segmented = data.advancedPlayground.find((f) => f.name === 'gq-segment')!;
    expect(segmented.environments.map((e) => e.environment)).toEqual(['development', 'production']);
    expect(segmented.environments[0].entries.map((e) => e.context)).toEqual([
      { appName: 'gq', region: 'eu', userId: '1' }, { appName: 'gq', region: 'eu', userId: '3' }, { appName: 'gq', region: 'eu', userId: '9' },
      { appName: 'gq', region: 'us', userId: '1' }, { appName: 'gq', region: 'us', userId: '3' }, { appName: 'gq', region: 'us', userId: '9' },
    ]);
    expect(segmented.environments[0].entries.map((e) => e.evaluation.isEnabled)).toEqual([true, true, true, false, false, false]);
    expect(segmented.environments[1].entries.every((e) => e.environment === 'production' && !e.evaluation.isEnabled)).toBe(true);
  });

  it('filters by projects like REST', async () => {
    const context = { appName: 'gq', userId: '1' };
    const rest = await ok(app.post('/api/admin/playground/advanced', { environments: ['production'], projects: ['gq-other'], context }));
    const data = await gqlData(GqlPgAdvanced, { input: { environments: ['production'], projects: ['gq-other'], context } });
    expect(data.advancedPlayground).toEqual(rest.features.map(advancedToGql));
    expect(data.advancedPlayground.map((f) => [f.name, f.environments[0].entries[0].evaluation.isEnabled])).toEqual([['gq-foreign', true]]);
  });

  it.each([
    ['no environments', { environments: [], context: { appName: 'gq' } }, 'environments'],
    ['an environment name that is not URL friendly', { environments: ['dev elopment'], context: { appName: 'gq' } }, 'environments/0'],
    ['an empty appName', { environments: ['development'], context: { appName: '' } }, 'context/appName'],
  ])('refuses %s: extensions.name ValidationError with the path', async (_label, input, path) => {
    const extensions = await gqlError(GqlPgAdvanced, { input });
    expect(extensions.name).toBe('ValidationError');
    expect(extensions.details.map((d: any) => d.path)).toContain(path);
  });

  it('refuses more than 15000 combinations with ValidationError naming the numbers', async () => {
    const userId = Array.from({ length: 2501 }, (_, i) => String(i)).join(',');
    // 8 features × 1 environment × 2501 = 20008.
    const extensions = await gqlError(GqlPgAdvanced, { input: { environments: ['development'], context: { appName: 'gq', userId } } });
    expect(extensions.name).toBe('ValidationError');
    expect(extensions.details[0].message).toBe('Rejecting evaluation as it would generate 20008 combinations exceeding 15000 limit. Please reduce the number of selected environments (1), features (8), context field combinations (2501).');
  });
});

describe('GraphQL playground query count', () => {
  it('runs as many SQL statements for 1 feature as for 20', async () => {
    await ok(app.post(P, { id: 'gq-count-one', name: 'one' }), 201);
    await ok(app.post(P, { id: 'gq-count-many', name: 'many' }), 201);
    const build = async (name: string, project: string) => {
      await createFeature(name, project);
      await addStrategy(name, { name: 'default', segments: [segment.id], constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] }, project);
      await switchOn(name, project);
    };
    await build('gq-count-single', 'gq-count-one');
    for (let i = 0; i < 20; i++) await build(`gq-count-${i}`, 'gq-count-many');
    const count = async (project: string, expected: number) => {
      app.resetQueryCount();
      const data = await gqlData(GqlPgPlayground, { input: { environment: 'development', projects: [project], context: { appName: 'gq', userId: '1' } } });
      expect(data.playground).toHaveLength(expected);
      return app.queries.length;
    };
    const one = await count('gq-count-one', 1);
    expect(one).toBeLessThanOrEqual(6);
    expect(await count('gq-count-many', 20)).toBe(one);
  });
});
