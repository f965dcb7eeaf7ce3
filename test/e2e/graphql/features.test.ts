import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);
const P = '/api/admin/projects';

// ---- documents

const GqlFeatStrategyParts = graphql(`
  fragment GqlFeatStrategyParts on FeatureStrategy {
    id name title disabled featureName sortOrder parameters segmentIds
    constraints { contextName operator values value caseInsensitive inverted }
    variants { name weight weightType stickiness payload { type value } }
  }
`);
const GqlFeatParts = graphql(`
  fragment GqlFeatParts on Feature {
    name type description project stale impressionData favorite archived archivedAt createdAt lastSeenAt enabled
    environments {
      name featureName environment type enabled sortOrder variantCount lastSeenAt hasStrategies hasEnabledStrategies
      variants { name weight weightType stickiness payload { type value } overrides { contextName values } }
      strategies { ...GqlFeatStrategyParts }
    }
    variants { name weight weightType stickiness payload { type value } overrides { contextName values } }
    tags { type value }
    dependencies { feature enabled variants }
    children
  }
`);
const GqlFeatOne = graphql(`query GqlFeatOne($name: String!) { feature(name: $name) { ...GqlFeatParts } }`);
const GqlFeatNested = graphql(`
  query GqlFeatNested($name: String!) {
    feature(name: $name) {
      name
      environments { name strategies { id segments { id name project constraints { contextName operator values } } } }
    }
  }
`);
const GqlFeatProjectPage = graphql(`
  query GqlFeatProjectPage($id: String!, $first: Int, $after: String) {
    project(id: $id) {
      id
      features(first: $first, after: $after) {
        edges { cursor node { name project } }
        nodes { name }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);
const GqlFeatEvents = graphql(`
  query GqlFeatEvents($name: String!, $first: Int, $after: String) {
    feature(name: $name) {
      events(first: $first, after: $after) {
        totalCount
        edges { cursor node { id type featureName } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);
const GqlFeatQueryCount = graphql(`
  query GqlFeatQueryCount {
    projects { features(first: 200) { nodes { environments { strategies { segments { id } } } tags { type value } } } }
  }
`);

const GqlFeatCreate = graphql(`mutation GqlFeatCreate($input: CreateFeatureInput!) { createFeature(input: $input) { ...GqlFeatParts } }`);
const GqlFeatUpdate = graphql(`mutation GqlFeatUpdate($input: UpdateFeatureInput!) { updateFeature(input: $input) { name description type } }`);
const GqlFeatStale = graphql(`mutation GqlFeatStale($input: SetFeatureStaleInput!) { setFeaturesStale(input: $input) }`);
const GqlFeatArchive = graphql(`mutation GqlFeatArchive($input: FeatureNamesInput!) { archiveFeatures(input: $input) }`);
const GqlFeatRevive = graphql(`mutation GqlFeatRevive($input: FeatureNamesInput!) { reviveFeatures(input: $input) }`);
const GqlFeatDelete = graphql(`mutation GqlFeatDelete($input: FeatureNamesInput!) { deleteFeatures(input: $input) }`);
const GqlFeatClone = graphql(`mutation GqlFeatClone($input: CloneFeatureInput!) { cloneFeature(input: $input) { ...GqlFeatParts } }`);
const GqlFeatTag = graphql(`mutation GqlFeatTag($input: FeatureTagInput!) { tagFeature(input: $input) { type value } }`);
const GqlFeatUntag = graphql(`mutation GqlFeatUntag($input: FeatureTagInput!) { untagFeature(input: $input) }`);
const GqlFeatAddDependency = graphql(`mutation GqlFeatAddDependency($input: AddFeatureDependencyInput!) { addFeatureDependency(input: $input) { name dependencies { feature enabled variants } } }`);
const GqlFeatRemoveDependency = graphql(`mutation GqlFeatRemoveDependency($input: RemoveFeatureDependencyInput!) { removeFeatureDependency(input: $input) { name dependencies { feature } } }`);
const GqlFeatRemoveDependencies = graphql(`mutation GqlFeatRemoveDependencies($input: FeatureRefInput!) { removeFeatureDependencies(input: $input) { name dependencies { feature } } }`);
const GqlFeatSetEnabled = graphql(`
  mutation GqlFeatSetEnabled($input: SetFeatureEnvironmentEnabledInput!) {
    setFeatureEnvironmentEnabled(input: $input) { name enabled hasEnabledStrategies strategies { ...GqlFeatStrategyParts } }
  }
`);
const GqlFeatAddStrategy = graphql(`mutation GqlFeatAddStrategy($input: AddFeatureStrategyInput!) { addFeatureStrategy(input: $input) { ...GqlFeatStrategyParts } }`);
const GqlFeatUpdateStrategy = graphql(`mutation GqlFeatUpdateStrategy($input: UpdateFeatureStrategyInput!) { updateFeatureStrategy(input: $input) { ...GqlFeatStrategyParts } }`);
const GqlFeatDeleteStrategy = graphql(`mutation GqlFeatDeleteStrategy($input: DeleteFeatureStrategyInput!) { deleteFeatureStrategy(input: $input) }`);
const GqlFeatSortStrategies = graphql(`mutation GqlFeatSortStrategies($input: SetStrategySortOrderInput!) { setStrategySortOrder(input: $input) { id title sortOrder } }`);
const GqlFeatSetVariants = graphql(`
  mutation GqlFeatSetVariants($input: SetFeatureVariantsInput!) {
    setFeatureVariants(input: $input) { name weight weightType stickiness payload { type value } overrides { contextName values } }
  }
`);
const GqlFeatSetVariantsEverywhere = graphql(`
  mutation GqlFeatSetVariantsEverywhere($input: SetFeatureVariantsEverywhereInput!) {
    setFeatureVariantsInAllEnvironments(input: $input) { name weight weightType }
  }
`);
const GqlFeatUpdateType = graphql(`mutation GqlFeatUpdateType($input: UpdateFeatureTypeInput!) { updateFeatureType(input: $input) { id name lifetimeDays } }`);

// ---- helpers

type GqlError = { message: string; extensions: Record<string, any> };

async function gqlData<R, V>(doc: TypedDocumentNode<R, V>, variables: V): Promise<R> {
  const res = await app.gql(doc, variables);
  expect(res.body.errors).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data as R;
}

async function gqlError<R, V>(doc: TypedDocumentNode<R, V>, variables: V): Promise<GqlError> {
  const res = await app.gql(doc, variables);
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.data ?? null).toBeNull();
  return res.body.errors![0];
}

const lastEventId = async (): Promise<number> => (await app.get('/api/admin/events?limit=1')).body.events[0]?.id ?? 0;
/** Events written after `since`, oldest first. */
const eventsSince = async (since: number): Promise<any[]> => (await app.events()).filter((e) => e.id > since).reverse();

/** Runs a mutation and returns its data together with the events it wrote (oldest first). */
async function mutate<R, V>(doc: TypedDocumentNode<R, V>, variables: V): Promise<{ data: R; events: any[] }> {
  const since = await lastEventId();
  const data = await gqlData(doc, variables);
  return { data, events: await eventsSince(since) };
}

/** A failing operation writes nothing. */
async function failsWithoutChange<R, V>(doc: TypedDocumentNode<R, V>, variables: V, name: string, code: number): Promise<GqlError> {
  const since = await lastEventId();
  const error = await gqlError(doc, variables);
  expect(error.extensions).toMatchObject({ name, code });
  expect(await eventsSince(since)).toEqual([]);
  return error;
}

async function restCreate(name: string, project = 'default'): Promise<any> {
  const res = await app.post(`${P}/${project}/features`, { name });
  expect(res.status).toBe(201);
  return res.body;
}
async function restStrategy(feature: string, env: string, body: Record<string, unknown>): Promise<any> {
  const res = await app.post(`${P}/default/features/${feature}/environments/${env}/strategies`, body);
  expect(res.status).toBe(200);
  return res.body;
}

/** REST's strategy in GraphQL's shape: `segments` is `segmentIds`; absent optional values are null. */
const restStrategyAsGql = (s: any) => ({
  id: s.id, name: s.name, title: s.title, disabled: s.disabled, featureName: s.featureName, sortOrder: s.sortOrder,
  parameters: s.parameters, segmentIds: s.segments,
  constraints: s.constraints.map((c: any) => ({ value: null, ...c })),
  variants: s.variants.map((v: any) => ({ payload: null, ...v })),
});
const restVariantAsGql = (v: any) => ({ payload: null, ...v });
/** REST's feature (GET /api/admin/projects/:p/features/:f) in the shape of the GraphQL selection GqlFeatParts. */
const restFeatureAsGql = (f: any) => ({
  name: f.name, type: f.type, description: f.description, project: f.project, stale: f.stale, impressionData: f.impressionData,
  favorite: f.favorite, archived: f.archived, archivedAt: f.archivedAt, createdAt: f.createdAt, lastSeenAt: f.lastSeenAt, enabled: f.enabled,
  environments: f.environments.map((e: any) => ({
    name: e.name, featureName: e.featureName, environment: e.environment, type: e.type, enabled: e.enabled, sortOrder: e.sortOrder,
    variantCount: e.variantCount, lastSeenAt: e.lastSeenAt, hasStrategies: e.hasStrategies, hasEnabledStrategies: e.hasEnabledStrategies,
    variants: e.variants.map(restVariantAsGql), strategies: e.strategies.map(restStrategyAsGql),
  })),
  variants: f.variants.map(restVariantAsGql),
  tags: f.tags,
  dependencies: f.dependencies.map((d: any) => ({ variants: [], ...d })),
  children: f.children,
});

// ---- the acceptance test: the number of SQL statements does not grow with the number of features

describe('query count of a nested feature query', () => {
  /** Runs the nested query with a fresh count; returns the statements, without the token lookup. */
  async function countQueries(): Promise<{ statements: string[]; features: number; strategies: number; segments: number; tags: number }> {
    app.resetQueryCount();
    const data = await gqlData(GqlFeatQueryCount, {});
    const statements = [...app.queries];
    const nodes = data.projects.flatMap((p) => p.features.nodes);
    const strategies = nodes.flatMap((n) => n.environments.flatMap((e) => e.strategies));
    return {
      statements, features: nodes.length, strategies: strategies.length,
      segments: strategies.reduce((sum, s) => sum + s.segments.length, 0), tags: nodes.reduce((sum, n) => sum + n.tags.length, 0),
    };
  }

  it('is the same for 1 and for 200 features (2 strategies per environment, a segment and a tag each)', async () => {
    const segment = await app.post('/api/admin/segments', { name: 'qc-first', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] });
    expect(segment.status).toBe(201);
    const addOne = async (name: string, segmentId: number) => {
      await restCreate(name);
      for (const env of ['development', 'production']) {
        await restStrategy(name, env, { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: name }, segments: [segmentId] });
        await restStrategy(name, env, { name: 'default', segments: [segmentId] });
      }
      expect((await app.post(`/api/admin/features/${name}/tags`, { type: 'simple', value: `tag-${name}` })).status).toBe(201);
    };
    await addOne('qc-000', segment.body.id);

    const one = await countQueries();
    expect(one).toMatchObject({ features: 1, strategies: 4, segments: 4, tags: 1 });

    // Two more through the API, then 197 in bulk, each with its own segment and tag.
    const second = await app.post('/api/admin/segments', { name: 'qc-second', constraints: [] });
    await addOne('qc-001', second.body.id);
    await addOne('qc-002', segment.body.id);
    await sql(`insert into tags (type, value) values ('simple', 'bulk') on conflict do nothing`);
    await sql(`insert into features (name, project, type) select 'qc-' || lpad(i::text, 3, '0'), 'default', 'release' from generate_series(3, 199) i`);
    await sql(`insert into segments (name, constraints) select name, '[]'::jsonb from features where name like 'qc-%' and name >= 'qc-003'`);
    await sql(`insert into feature_environments (feature_name, environment, enabled)
               select f.name, pe.environment_name, true from features f join project_environments pe on pe.project_id = f.project
                where f.name like 'qc-%' and f.name >= 'qc-003'`);
    await sql(`insert into feature_strategies (id, feature_name, project, environment, strategy_name, parameters, sort_order)
               select gen_random_uuid(), fe.feature_name, 'default', fe.environment, 'flexibleRollout',
                      jsonb_build_object('rollout', '50', 'stickiness', 'default', 'groupId', fe.feature_name), n
                 from feature_environments fe cross join generate_series(0, 1) n
                where fe.feature_name like 'qc-%' and fe.feature_name >= 'qc-003'`);
    await sql(`insert into feature_strategy_segments (feature_strategy_id, segment_id)
               select fs.id, s.id from feature_strategies fs join segments s on s.name = fs.feature_name`);
    await sql(`insert into feature_tags (feature_name, tag_type, tag_value) select name, 'simple', 'bulk' from features where name like 'qc-%' and name >= 'qc-003'`);

    const many = await countQueries();
    expect(many).toMatchObject({ features: 200, strategies: 800, segments: 800, tags: 200 });
    console.log(`SQL statements for the nested feature query: ${one.statements.length} with 1 feature, ${many.statements.length} with 200 features`);
    expect(many.statements.length).toBe(one.statements.length);
    // At most 10 to resolve it, and the response cache's read of model_version (the query is cacheable).
    expect(one.statements.length).toBeLessThanOrEqual(11);
  });

  it('does not grow with the number of projects either (features of all projects load in one batch)', async () => {
    // Project pages come from the cached overviews (src/domain/projects/feature-overview.ts): each count is taken both
    // cold (the counter they are keyed by moved, so they load) and warm, and compared with its like.
    const cold = async () => {
      await sql('update model_version set version = version + 1');
      return countQueries();
    };
    const baseline = (await cold()).statements.length;
    const warmBaseline = (await countQueries()).statements.length;
    expect(warmBaseline).toBeLessThan(baseline);
    for (const id of ['qc-p1', 'qc-p2', 'qc-p3']) {
      expect((await app.post('/api/admin/projects', { id, name: id })).status).toBe(201);
      await restCreate(`${id}-feature`, id);
      const strategy = await app.post(`${P}/${id}/features/${id}-feature/environments/development/strategies`, { name: 'default' });
      expect(strategy.status).toBe(200);
    }
    const after = await cold();
    expect(after.features).toBe(203);
    expect(after.statements.length).toBe(baseline);
    expect((await countQueries()).statements.length).toBe(warmBaseline);
    await sql(`delete from features where project like 'qc-p%'`);
    await sql(`delete from projects where id like 'qc-p%'`);
  });

  afterAll(async () => {
    // The other tests of this file start from an empty default project.
    await sql(`delete from features where name like 'qc-%'`);
    await sql(`delete from segments where name like 'qc-%'`);
  });
});

// ---- reads

describe('reading features', () => {
  let parentStrategy: any;
  let segmentId: number;
  beforeAll(async () => {
    expect((await app.post('/api/admin/context', { name: 'plan', legalValues: [{ value: 'free' }, { value: 'pro' }] })).status).toBe(201);
    const segment = await app.post('/api/admin/segments', { name: 'gql-beta', constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] });
    expect(segment.status).toBe(201);
    segmentId = segment.body.id;
    await restCreate('gql-parent');
    await restCreate('gql-child');
    parentStrategy = await restStrategy('gql-parent', 'development', {
      name: 'flexibleRollout', title: 'Pro users', parameters: { rollout: '40', stickiness: 'userId', groupId: 'gql-parent' },
      constraints: [
        { contextName: 'plan', operator: 'IN', values: ['pro'], caseInsensitive: true },
        { contextName: 'userId', operator: 'NUM_GT', value: '10', inverted: true },
      ],
      variants: [{ name: 'blue', weightType: 'fix', weight: 200, payload: { type: 'json', value: '{"c":"blue"}' } }, { name: 'red' }],
      segments: [segmentId],
    });
    await restStrategy('gql-parent', 'development', { name: 'default', disabled: true });
    expect((await app.post(`${P}/default/features/gql-parent/environments/development/on`)).status).toBe(200);
    expect((await app.put(`${P}/default/features/gql-parent/environments/production/variants`, [
      { name: 'a', payload: { type: 'string', value: 'x' }, overrides: [{ contextName: 'userId', values: ['1'] }] }, { name: 'b' },
    ])).status).toBe(200);
    expect((await app.post('/api/admin/features/gql-parent/tags', { type: 'simple', value: 'team-web' })).status).toBe(201);
    expect((await app.post(`${P}/default/features/gql-child/dependencies`, { feature: 'gql-parent', variants: ['blue'] })).status).toBe(200);
  });

  it('feature(name) returns the same data as REST GET /api/admin/projects/default/features/:f', async () => {
    for (const name of ['gql-parent', 'gql-child']) {
      const rest = await app.get(`${P}/default/features/${name}`);
      expect(rest.status).toBe(200);
      const data = await gqlData(GqlFeatOne, { name });
      expect(data.feature).toEqual(restFeatureAsGql(rest.body));
    }
  });

  it('nests environments, strategies with constraints, variants and segments, tags, dependencies and children', async () => {
    const { feature: parent } = await gqlData(GqlFeatOne, { name: 'gql-parent' });
    expect(parent).toMatchObject({ name: 'gql-parent', enabled: true, tags: [{ type: 'simple', value: 'team-web' }], children: ['gql-child'], dependencies: [] });
    const dev = parent.environments.find((e) => e.name === 'development')!;
    expect(dev).toMatchObject({ enabled: true, hasStrategies: true, hasEnabledStrategies: true });
    expect(dev.strategies.map((s) => [s.name, s.disabled])).toEqual([['flexibleRollout', false], ['default', true]]);
    expect(dev.strategies[0]).toEqual({
      id: parentStrategy.id, name: 'flexibleRollout', title: 'Pro users', disabled: false, featureName: 'gql-parent', sortOrder: 0,
      parameters: { rollout: '40', stickiness: 'userId', groupId: 'gql-parent' }, segmentIds: [segmentId],
      constraints: [
        { contextName: 'plan', operator: 'IN', values: ['pro'], value: null, caseInsensitive: true, inverted: false },
        { contextName: 'userId', operator: 'NUM_GT', values: [], value: '10', caseInsensitive: false, inverted: true },
      ],
      variants: [
        { name: 'blue', weight: 200, weightType: 'fix', stickiness: 'default', payload: { type: 'json', value: '{"c":"blue"}' } },
        { name: 'red', weight: 800, weightType: 'variable', stickiness: 'default', payload: null },
      ],
    });
    const prod = parent.environments.find((e) => e.name === 'production')!;
    expect(prod).toMatchObject({ enabled: false, variantCount: 2, hasStrategies: false });
    expect(prod.variants).toEqual([
      { name: 'a', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'x' }, overrides: [{ contextName: 'userId', values: ['1'] }] },
      { name: 'b', weight: 500, weightType: 'variable', stickiness: 'default', payload: null, overrides: [] },
    ]);
    expect(parent.variants).toEqual(prod.variants);

    const nested = await gqlData(GqlFeatNested, { name: 'gql-parent' });
    const strategies = nested.feature.environments.find((e) => e.name === 'development')!.strategies;
    expect(strategies[0].segments).toEqual([{ id: segmentId, name: 'gql-beta', project: null, constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] }]);
    expect(strategies[1].segments).toEqual([]);

    const { feature: child } = await gqlData(GqlFeatOne, { name: 'gql-child' });
    expect(child).toMatchObject({ enabled: false, dependencies: [{ feature: 'gql-parent', enabled: true, variants: ['blue'] }], children: [], tags: [] });
  });

  it('feature(name) of an unknown feature is a NotFoundError', async () => {
    const error = await gqlError(GqlFeatOne, { name: 'gql-nope' });
    expect(error.extensions).toMatchObject({ name: 'NotFoundError', code: 404 });
    expect(error.message).toContain('gql-nope');
  });

  it('project(id).features pages through the features by name with cursors', async () => {
    expect((await app.post(P, { id: 'gql-paging', name: 'Paging' })).status).toBe(201);
    const names = ['pg-e', 'pg-a', 'pg-d', 'pg-b', 'pg-c'];
    for (const name of names) await restCreate(name, 'gql-paging');
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const data: any = await gqlData(GqlFeatProjectPage, { id: 'gql-paging', first: 2, after });
      const page = data.project.features;
      pages++;
      expect(page.nodes.map((n: any) => n.name)).toEqual(page.edges.map((e: any) => e.node.name));
      for (const e of page.edges) expect(e.node.project).toBe('gql-paging');
      expect(page.pageInfo.endCursor).toBe(page.edges[page.edges.length - 1].cursor);
      seen.push(...page.nodes.map((n: any) => n.name));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([...names].sort());
    // The REST list of the project has the same features.
    const rest = await app.get(`${P}/gql-paging/features`);
    expect(rest.body.features.map((f: any) => f.name).sort()).toEqual(seen);
    // Default page size holds them all; an empty project has an empty page.
    const all = await gqlData(GqlFeatProjectPage, { id: 'gql-paging' });
    expect(all.project.features).toMatchObject({ pageInfo: { hasNextPage: false }, nodes: seen.map((name) => ({ name })) });
  });

  it('refuses a page size outside 1..1000 and a foreign cursor with ValidationError', async () => {
    for (const first of [0, 1001]) {
      const error = await gqlError(GqlFeatProjectPage, { id: 'gql-paging', first });
      expect(error.extensions).toMatchObject({ name: 'ValidationError', code: 400, details: [{ path: 'first', message: expect.any(String) }] });
    }
    const error = await gqlError(GqlFeatProjectPage, { id: 'gql-paging', after: 'not-a-cursor' });
    expect(error.extensions).toMatchObject({ name: 'ValidationError', details: [{ path: 'after', message: expect.any(String) }] });
  });

  it('Feature.events pages through every event of the feature, newest first, as REST lists them', async () => {
    await restCreate('gql-busy');
    for (let i = 0; i < 4; i++) {
      expect((await app.put(`${P}/default/features/gql-busy`, { description: `version ${i}` })).status).toBe(200);
    }
    expect((await app.post(`${P}/default/features/gql-busy/environments/development/on`)).status).toBe(200);
    const rest = await app.get('/api/admin/events/gql-busy');
    const restIds = rest.body.events.map((e: any) => e.id);
    expect(restIds).toHaveLength(7);
    const ids: number[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const data: any = await gqlData(GqlFeatEvents, { name: 'gql-busy', first: 3, after });
      const events = data.feature.events;
      pages++;
      expect(events.totalCount).toBe(rest.body.totalEvents);
      for (const e of events.edges) expect(e.node.featureName).toBe('gql-busy');
      ids.push(...events.edges.map((e: any) => e.node.id));
      if (!events.pageInfo.hasNextPage) break;
      after = events.pageInfo.endCursor;
    }
    expect(pages).toBe(3);
    expect(ids).toEqual(restIds);
    const types = (await gqlData(GqlFeatEvents, { name: 'gql-busy', first: 1 })).feature.events.edges.map((e) => e.node.type);
    expect(types).toEqual(['feature-environment-enabled']);
  });
});

// ---- mutations: each once, with its event

describe('feature mutations', () => {
  it('createFeature → feature-created; updateFeature → feature-metadata-updated; setFeaturesStale → feature-stale-on', async () => {
    const created = await mutate(GqlFeatCreate, { input: { project: 'default', name: 'gql-m', description: 'first', type: 'experiment' } });
    expect(created.data.createFeature).toEqual(restFeatureAsGql((await app.get(`${P}/default/features/gql-m`)).body));
    expect(created.data.createFeature).toMatchObject({ name: 'gql-m', type: 'experiment', description: 'first', enabled: false, stale: false });
    expect(created.events).toHaveLength(1);
    expect(created.events[0]).toMatchObject({ type: 'feature-created', project: 'default', environment: null, featureName: 'gql-m', data: { name: 'gql-m', type: 'experiment' } });

    const updated = await mutate(GqlFeatUpdate, { input: { project: 'default', feature: 'gql-m', description: 'second' } });
    expect(updated.data.updateFeature).toEqual({ name: 'gql-m', description: 'second', type: 'experiment' });
    expect(updated.events).toHaveLength(1);
    expect(updated.events[0]).toMatchObject({ type: 'feature-metadata-updated', featureName: 'gql-m', data: { description: 'second' }, preData: { description: 'first' } });

    const stale = await mutate(GqlFeatStale, { input: { project: 'default', features: ['gql-m'], stale: true } });
    expect(stale.data.setFeaturesStale).toBe(true);
    expect(stale.events.map((e) => [e.type, e.featureName, e.project])).toEqual([['feature-stale-on', 'gql-m', 'default']]);
  });

  it('archiveFeatures, reviveFeatures and deleteFeatures → feature-archived, feature-revived, feature-deleted', async () => {
    await restCreate('gql-gone');
    const archived = await mutate(GqlFeatArchive, { input: { project: 'default', features: ['gql-gone'] } });
    expect(archived.events.map((e) => [e.type, e.featureName])).toEqual([['feature-archived', 'gql-gone']]);
    expect((await gqlData(GqlFeatOne, { name: 'gql-gone' })).feature).toMatchObject({ archived: true, archivedAt: expect.any(String) });

    const revived = await mutate(GqlFeatRevive, { input: { project: 'default', features: ['gql-gone'] } });
    expect(revived.events.map((e) => [e.type, e.featureName])).toEqual([['feature-revived', 'gql-gone']]);
    expect((await gqlData(GqlFeatOne, { name: 'gql-gone' })).feature).toMatchObject({ archived: false, archivedAt: null });

    await gqlData(GqlFeatArchive, { input: { project: 'default', features: ['gql-gone'] } });
    const deleted = await mutate(GqlFeatDelete, { input: { project: 'default', features: ['gql-gone'] } });
    expect(deleted.events).toHaveLength(1);
    expect(deleted.events[0]).toMatchObject({ type: 'feature-deleted', project: 'default', featureName: 'gql-gone', preData: { name: 'gql-gone' } });
    expect((await gqlError(GqlFeatOne, { name: 'gql-gone' })).extensions.name).toBe('NotFoundError');
  });

  it('tagFeature → tag-created + feature-tagged; untagFeature → feature-untagged', async () => {
    const tagged = await mutate(GqlFeatTag, { input: { feature: 'gql-m', value: 'gql-new-tag' } });
    expect(tagged.data.tagFeature).toEqual({ type: 'simple', value: 'gql-new-tag' });
    expect(tagged.events.map((e) => e.type)).toEqual(['tag-created', 'feature-tagged']);
    expect(tagged.events[1]).toMatchObject({ project: 'default', featureName: 'gql-m', data: { type: 'simple', value: 'gql-new-tag' } });
    const untagged = await mutate(GqlFeatUntag, { input: { feature: 'gql-m', type: 'simple', value: 'gql-new-tag' } });
    expect(untagged.data.untagFeature).toBe(true);
    expect(untagged.events).toHaveLength(1);
    expect(untagged.events[0]).toMatchObject({ type: 'feature-untagged', featureName: 'gql-m', preData: { type: 'simple', value: 'gql-new-tag' } });
  });

  it('addFeatureDependency, removeFeatureDependency and removeFeatureDependencies', async () => {
    await restCreate('gql-dep-parent');
    await restCreate('gql-dep-child');
    const added = await mutate(GqlFeatAddDependency, { input: { project: 'default', feature: 'gql-dep-child', parent: 'gql-dep-parent', enabled: false } });
    expect(added.data.addFeatureDependency).toEqual({ name: 'gql-dep-child', dependencies: [{ feature: 'gql-dep-parent', enabled: false, variants: [] }] });
    expect(added.events).toHaveLength(1);
    expect(added.events[0]).toMatchObject({ type: 'feature-dependency-added', featureName: 'gql-dep-child', data: { feature: 'gql-dep-parent', enabled: false } });

    const removed = await mutate(GqlFeatRemoveDependency, { input: { project: 'default', feature: 'gql-dep-child', parent: 'gql-dep-parent' } });
    expect(removed.data.removeFeatureDependency.dependencies).toEqual([]);
    expect(removed.events).toHaveLength(1);
    expect(removed.events[0]).toMatchObject({ type: 'feature-dependency-removed', featureName: 'gql-dep-child', data: { feature: 'gql-dep-parent' } });

    await gqlData(GqlFeatAddDependency, { input: { project: 'default', feature: 'gql-dep-child', parent: 'gql-dep-parent' } });
    const all = await mutate(GqlFeatRemoveDependencies, { input: { project: 'default', feature: 'gql-dep-child' } });
    expect(all.data.removeFeatureDependencies.dependencies).toEqual([]);
    expect(all.events.map((e) => [e.type, e.featureName])).toEqual([['feature-dependencies-removed', 'gql-dep-child']]);
  });

  it('setFeatureEnvironmentEnabled → feature-strategy-add + feature-environment-enabled, then feature-environment-disabled', async () => {
    const on = await mutate(GqlFeatSetEnabled, { input: { project: 'default', feature: 'gql-m', environment: 'production', enabled: true } });
    expect(on.data.setFeatureEnvironmentEnabled).toMatchObject({ name: 'production', enabled: true, hasEnabledStrategies: true });
    const [strategy] = on.data.setFeatureEnvironmentEnabled.strategies;
    expect(strategy).toMatchObject({ name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: 'gql-m' } });
    expect(on.events.map((e) => [e.type, e.environment])).toEqual([['feature-strategy-add', 'production'], ['feature-environment-enabled', 'production']]);
    expect(on.events[0].data).toMatchObject({ id: strategy.id, name: 'flexibleRollout' });

    const off = await mutate(GqlFeatSetEnabled, { input: { project: 'default', feature: 'gql-m', environment: 'production', enabled: false } });
    expect(off.data.setFeatureEnvironmentEnabled).toMatchObject({ enabled: false, strategies: [{ id: strategy.id }] });
    expect(off.events.map((e) => [e.type, e.environment, e.featureName])).toEqual([['feature-environment-disabled', 'production', 'gql-m']]);
  });

  it('addFeatureStrategy, updateFeatureStrategy, setStrategySortOrder and deleteFeatureStrategy', async () => {
    const base = { project: 'default', feature: 'gql-m', environment: 'development' };
    const added = await mutate(GqlFeatAddStrategy, {
      input: {
        ...base, name: 'flexibleRollout', title: 'First', parameters: { rollout: '20', stickiness: 'default', groupId: 'gql-m' },
        constraints: [{ contextName: 'userId', operator: 'STR_STARTS_WITH', values: ['admin-'] }],
        variants: [{ name: 'x' }, { name: 'y', weightType: 'fix', weight: 100 }],
      },
    });
    const first = added.data.addFeatureStrategy;
    expect(first).toMatchObject({
      title: 'First', sortOrder: 0, featureName: 'gql-m',
      constraints: [{ contextName: 'userId', operator: 'STR_STARTS_WITH', values: ['admin-'], value: null, caseInsensitive: false, inverted: false }],
      variants: [{ name: 'x', weight: 900, weightType: 'variable' }, { name: 'y', weight: 100, weightType: 'fix' }],
    });
    expect(added.events).toHaveLength(1);
    expect(added.events[0]).toMatchObject({ type: 'feature-strategy-add', project: 'default', environment: 'development', featureName: 'gql-m', data: { id: first.id, title: 'First' } });
    const rest = await app.get(`${P}/default/features/gql-m/environments/development/strategies/${first.id}`);
    expect(first).toEqual(restStrategyAsGql(rest.body));

    const updated = await mutate(GqlFeatUpdateStrategy, { input: { ...base, id: first.id, title: 'Renamed' } });
    expect(updated.data.updateFeatureStrategy).toEqual({ ...first, title: 'Renamed' });
    expect(updated.events).toHaveLength(1);
    expect(updated.events[0]).toMatchObject({ type: 'feature-strategy-update', data: { title: 'Renamed', parameters: first.parameters }, preData: { title: 'First' } });

    const second = (await gqlData(GqlFeatAddStrategy, { input: { ...base, name: 'default', title: 'Second' } })).addFeatureStrategy;
    const sorted = await mutate(GqlFeatSortStrategies, { input: { ...base, order: [{ id: second.id, sortOrder: 0 }, { id: first.id, sortOrder: 1 }] } });
    expect(sorted.data.setStrategySortOrder).toEqual([{ id: second.id, title: 'Second', sortOrder: 0 }, { id: first.id, title: 'Renamed', sortOrder: 1 }]);
    expect(sorted.events).toHaveLength(1);
    expect(sorted.events[0]).toMatchObject({
      type: 'strategy-order-changed', environment: 'development', featureName: 'gql-m',
      data: { strategyIds: [{ id: second.id, sortOrder: 0 }, { id: first.id, sortOrder: 1 }] },
      preData: { strategyIds: [{ id: first.id, sortOrder: 0 }, { id: second.id, sortOrder: 1 }] },
    });

    const deleted = await mutate(GqlFeatDeleteStrategy, { input: { ...base, id: second.id } });
    expect(deleted.data.deleteFeatureStrategy).toBe(true);
    expect(deleted.events).toHaveLength(1);
    expect(deleted.events[0]).toMatchObject({ type: 'feature-strategy-remove', featureName: 'gql-m', preData: { id: second.id, title: 'Second' } });
  });

  it('setFeatureVariants → feature-environment-variants-updated per environment', async () => {
    const set = await mutate(GqlFeatSetVariants, {
      input: {
        project: 'default', feature: 'gql-m', environments: ['development', 'production'],
        variants: [{ name: 'b' }, { name: 'a' }, { name: 'c', payload: { type: 'json', value: '[1]' }, overrides: [{ contextName: 'userId', values: ['9'] }] }],
      },
    });
    expect(set.data.setFeatureVariants).toEqual([
      { name: 'a', weight: 333, weightType: 'variable', stickiness: 'default', payload: null, overrides: [] },
      { name: 'b', weight: 334, weightType: 'variable', stickiness: 'default', payload: null, overrides: [] },
      { name: 'c', weight: 333, weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '[1]' }, overrides: [{ contextName: 'userId', values: ['9'] }] },
    ]);
    expect(set.events.map((e) => [e.type, e.environment])).toEqual([
      ['feature-environment-variants-updated', 'development'], ['feature-environment-variants-updated', 'production'],
    ]);
    expect(set.events[0]).toMatchObject({ featureName: 'gql-m', data: { variants: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }, preData: { variants: [] } });
    const rest = await app.get(`${P}/default/features/gql-m/environments/production/variants`);
    expect(set.data.setFeatureVariants).toEqual(rest.body.variants.map(restVariantAsGql));
  });

  it('setFeatureVariantsInAllEnvironments → one feature-variants-updated; every environment gets them', async () => {
    const set = await mutate(GqlFeatSetVariantsEverywhere, { input: { project: 'default', feature: 'gql-m', variants: [{ name: 'x' }, { name: 'y', weight: 100, weightType: 'fix' }] } });
    expect(set.data.setFeatureVariantsInAllEnvironments).toEqual([
      { name: 'x', weight: 900, weightType: 'variable' }, { name: 'y', weight: 100, weightType: 'fix' },
    ]);
    expect(set.events.map((e) => [e.type, e.environment])).toEqual([['feature-variants-updated', null]]);
    expect(set.events[0]).toMatchObject({ featureName: 'gql-m', data: { variants: [{ name: 'x' }, { name: 'y' }] }, preData: { variants: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } });
    for (const env of ['development', 'production']) {
      const rest = await app.get(`${P}/default/features/gql-m/environments/${env}/variants`);
      expect(rest.body.variants.map((v: any) => [v.name, v.weight])).toEqual([['x', 900], ['y', 100]]);
    }
  });

  it('cloneFeature → feature-created + feature-strategy-add for each strategy', async () => {
    const cloned = await mutate(GqlFeatClone, { input: { project: 'default', feature: 'gql-m', name: 'gql-m-copy' } });
    const copy = cloned.data.cloneFeature;
    expect(copy).toMatchObject({ name: 'gql-m-copy', type: 'experiment', description: 'second', enabled: false });
    const strategies = copy.environments.flatMap((e) => e.strategies);
    expect(strategies.map((s) => s.parameters)).toEqual(expect.arrayContaining([{ rollout: '20', stickiness: 'default', groupId: 'gql-m-copy' }]));
    expect(cloned.events.map((e) => e.type)).toEqual(['feature-created', ...strategies.map(() => 'feature-strategy-add')]);
    for (const e of cloned.events) expect(e).toMatchObject({ project: 'default', featureName: 'gql-m-copy' });
    expect(copy).toEqual(restFeatureAsGql((await app.get(`${P}/default/features/gql-m-copy`)).body));
  });

  it('updateFeatureType → feature-type-updated', async () => {
    const updated = await mutate(GqlFeatUpdateType, { input: { id: 'operational', lifetimeDays: 14 } });
    expect(updated.data.updateFeatureType).toEqual({ id: 'operational', name: 'Operational', lifetimeDays: 14 });
    expect(updated.events).toHaveLength(1);
    expect(updated.events[0]).toMatchObject({ type: 'feature-type-updated', project: null, featureName: null, data: { id: 'operational', lifetimeDays: 14 }, preData: { lifetimeDays: 7 } });
  });
});

// ---- errors through GraphQL

describe('errors through GraphQL carry the same names as REST', () => {
  it('NameExistsError for a name that is taken', async () => {
    const error = await failsWithoutChange(GqlFeatCreate, { input: { project: 'default', name: 'gql-m' } }, 'NameExistsError', 409);
    const rest = await app.post(`${P}/default/features`, { name: 'gql-m' });
    expect({ status: rest.status, name: rest.body.name }).toEqual({ status: 409, name: 'NameExistsError' });
    expect(error.message).toBe(rest.body.message);
  });

  it('PatternError for a name that does not match the project naming pattern', async () => {
    expect((await app.post(P, { id: 'gql-named', name: 'Named' })).status).toBe(201);
    expect((await app.put(`${P}/gql-named/settings`, { featureNaming: { pattern: 'gqln-[a-z]+', example: 'gqln-abc' } })).status).toBe(200);
    await failsWithoutChange(GqlFeatCreate, { input: { project: 'gql-named', name: 'Wrong_Name' } }, 'PatternError', 400);
    const ok = await gqlData(GqlFeatCreate, { input: { project: 'gql-named', name: 'gqln-fine' } });
    expect(ok.createFeature.project).toBe('gql-named');
  });

  it('ValidationError with details for invalid input, NotFoundError for unknown things', async () => {
    const base = { project: 'default', feature: 'gql-m', environment: 'development' };
    const before = (await app.get(`${P}/default/features/gql-m`)).body;
    const badConstraint = await failsWithoutChange(GqlFeatAddStrategy, { input: { ...base, name: 'default', constraints: [{ contextName: 'userId', operator: 'NUM_EQ', value: 'ten' }] } }, 'ValidationError', 400);
    expect(badConstraint.extensions.details).toEqual([{ path: 'constraints/0/value', message: expect.any(String) }]);
    const badRollout = await failsWithoutChange(GqlFeatAddStrategy, { input: { ...base, name: 'flexibleRollout', parameters: { rollout: '150' } } }, 'ValidationError', 400);
    expect(badRollout.extensions.details).toEqual([{ path: 'parameters/rollout', message: expect.any(String) }]);
    const badVariants = await failsWithoutChange(GqlFeatSetVariants, { input: { project: 'default', feature: 'gql-m', environments: ['development'], variants: [{ name: 'a', weightType: 'fix', weight: 10 }] } }, 'ValidationError', 400);
    expect(badVariants.extensions.details[0].path).toBe('variants');
    await failsWithoutChange(GqlFeatSetEnabled, { input: { ...base, environment: 'nowhere', enabled: true } }, 'NotFoundError', 404);
    await failsWithoutChange(GqlFeatUpdateStrategy, { input: { ...base, id: '00000000-0000-4000-8000-000000000000', title: 'x' } }, 'NotFoundError', 404);
    await failsWithoutChange(GqlFeatAddStrategy, { input: { ...base, name: 'default', constraints: [{ contextName: 'planet', operator: 'IN', values: ['x'] }] } }, 'NotFoundError', 404);
    await failsWithoutChange(GqlFeatUpdate, { input: { project: 'default', feature: 'gql-nope', description: 'x' } }, 'NotFoundError', 404);
    expect((await app.get(`${P}/default/features/gql-m`)).body).toEqual(before);
  });
});
