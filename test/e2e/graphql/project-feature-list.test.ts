import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FeatureOverviewCache } from '../../../src/domain/projects/feature-overview';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * `project { features }` pages through the project's cached feature overview (the one behind REST's project feature
 * list), with the environments and tags of its features handed to the request's loaders. Its answer must be the one
 * the database gives field for field: the comparator is the top-level `features` list, which still reads every
 * page, environment and tag with queries. Changes show at once; filters and cursors the overview cannot answer go to
 * the queries.
 */
let app: TestApp;
beforeAll(async () => { app = await startTestApp(); }, 60_000);
afterAll(async () => { await app.close(); });

const PROJECT = 'plist';
const F = `/api/admin/projects/${PROJECT}/features`;
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);

const FIELDS = `name type description project stale impressionData favorite archived archivedAt createdAt lastSeenAt enabled
  environments {
    name featureName environment type enabled sortOrder variantCount lastSeenAt hasStrategies hasEnabledStrategies
    variants { name weight weightType stickiness payload { type value } overrides { contextName values } }
    strategies { id name disabled }
  }
  variants { name weight stickiness }
  tags { type value }
  dependencies { feature enabled }
  children`;

async function ask(query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const res = await app.post('/graphql', { query, variables });
  expect({ status: res.status, errors: (res.body as any).errors }).toEqual({ status: 200, errors: undefined });
  expect((res.body as any).errors).toBeUndefined();
  return (res.body as any).data;
}

/** The project's list from the overview: every page of `first`, following the cursors. */
async function fromOverview(first = 100, filter: Record<string, unknown> | null = null): Promise<any[]> {
  const nodes: any[] = [];
  let after: string | null = null;
  for (let page = 0; page < 100; page++) {
    const data = await ask(`query L($first: Int, $after: String, $filter: FeatureFilter) {
      project(id: "${PROJECT}") { features(first: $first, after: $after, filter: $filter) { nodes { ${FIELDS} } pageInfo { hasNextPage endCursor } } } }`,
    { first, after, filter });
    const connection = data.project.features;
    nodes.push(...connection.nodes);
    if (!connection.pageInfo.hasNextPage) return nodes;
    after = connection.pageInfo.endCursor;
  }
  throw new Error('more than 100 pages');
}

/** The same features read by queries: the top-level list, narrowed to the project. */
async function fromQueries(filter: Record<string, unknown> | null = null): Promise<any[]> {
  const data = await ask(`query A($filter: FeatureFilter) { features(first: 100, filter: $filter) { nodes { ${FIELDS} } } }`, { filter });
  return data.features.nodes.filter((n: any) => n.project === PROJECT);
}

async function created(name: string, body: Record<string, unknown> = {}) {
  expect((await app.post(F, { name, ...body })).status).toBe(201);
}

beforeAll(async () => {
  expect((await app.post('/api/admin/projects', { id: PROJECT, name: 'Project list' })).status).toBe(201);
  expect((await app.post('/api/admin/environments', { name: 'plist-staging', type: 'test' })).status).toBe(201);
  expect((await app.post(`/api/admin/projects/${PROJECT}/environments`, { environment: 'plist-staging' })).status).toBe(200);
  // An environment switched off, and one not linked to the project: neither is listed.
  expect((await app.post('/api/admin/environments', { name: 'plist-off', type: 'test' })).status).toBe(201);
  expect((await app.post(`/api/admin/projects/${PROJECT}/environments`, { environment: 'plist-off' })).status).toBe(200);
  expect((await app.post('/api/admin/environments/plist-off/off')).status).toBe(204);
  expect((await app.post('/api/admin/environments', { name: 'plist-elsewhere', type: 'production' })).status).toBe(201);

  await created('pl-alpha', { description: 'first', type: 'experiment' });
  await created('pl-beta', { impressionData: true });
  await created('pl-gamma', { type: 'operational' });
  await created('pl-delta');
  await created('pl-archived');
  await created('pl-parent');
  expect((await app.post(`${F}/pl-alpha/environments/development/strategies`, { name: 'default' })).status).toBe(200);
  expect((await app.post(`${F}/pl-alpha/environments/plist-staging/strategies`, { name: 'default', disabled: true })).status).toBe(200);
  expect((await app.post(`${F}/pl-alpha/environments/development/on`)).status).toBe(200);
  expect((await app.put(`${F}/pl-beta/environments/production/variants`, [
    { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'b' }, overrides: [{ contextName: 'userId', values: ['7'] }] },
    { name: 'green', weight: 500, weightType: 'variable', stickiness: 'default' },
  ])).status).toBe(200);
  for (const value of ['one', 'two']) expect((await app.post('/api/admin/features/pl-beta/tags', { type: 'simple', value })).status).toBe(201);
  expect((await app.post(`${F}/pl-gamma/dependencies`, { feature: 'pl-parent', enabled: true })).status).toBe(200);
  expect((await app.del(`${F}/pl-archived`)).status).toBe(202);
  // A feature without the configuration row of an environment (written by SQL): that environment is not listed.
  await sql(`delete from feature_environments where feature_name = 'pl-delta' and environment = 'plist-staging'`);
  await sql(`update features set last_seen_at = '2026-01-02T03:04:05.678Z' where name = 'pl-gamma'`);
  await sql(`update feature_environments set last_seen_at = '2026-01-02T03:04:05.678Z' where feature_name = 'pl-gamma' and environment = 'development'`);
}, 60_000);

describe('GraphQL project { features } from the cached overview', () => {
  it('answers what the queries answer, field for field, on one page and on pages of 1, 2 and 3', async () => {
    const expected = await fromQueries();
    expect(expected.map((n) => n.name)).toEqual(['pl-alpha', 'pl-beta', 'pl-delta', 'pl-gamma', 'pl-parent']);
    // The cases the setup built are there.
    const byName = new Map(expected.map((n) => [n.name, n]));
    expect(byName.get('pl-alpha').environments.map((e: any) => [e.name, e.enabled, e.hasStrategies, e.hasEnabledStrategies]))
      .toEqual([['plist-staging', false, true, false], ['development', true, true, true], ['production', false, false, false]]);
    expect(byName.get('pl-delta').environments.map((e: any) => e.name)).toEqual(['development', 'production']);
    expect(byName.get('pl-beta').environments.find((e: any) => e.name === 'production').variants).toHaveLength(2);
    expect(byName.get('pl-beta').tags).toEqual([{ type: 'simple', value: 'one' }, { type: 'simple', value: 'two' }]);
    expect(byName.get('pl-gamma').lastSeenAt).toBe('2026-01-02T03:04:05.678Z');

    expect(await fromOverview()).toEqual(expected);
    for (const first of [1, 2, 3]) expect(await fromOverview(first)).toEqual(expected);
  });

  it('a warm page reads no page of features, environments or tags: only the version counters (and the strategies asked for)', async () => {
    await fromOverview(2);
    app.resetQueryCount();
    await fromOverview(2);
    // (The project itself still reads its feature counts.)
    const reads = app.queries.filter((q) => /\bfeature_environments\b|\bfeature_tags\b|row_number\(\)/.test(q));
    expect(reads).toEqual([]);
    expect(app.queries.some((q) => /model_version/.test(q))).toBe(true);
  });

  it('a type filter, and filters and cursors the overview cannot answer, give what the queries give', async () => {
    expect(await fromOverview(100, { type: 'experiment' })).toEqual(await fromQueries({ type: 'experiment' }));
    expect((await fromOverview(1, { type: 'release' })).map((n) => n.name)).toEqual(['pl-beta', 'pl-delta', 'pl-parent']);
    expect(await fromOverview(100, { type: '' })).toEqual(await fromQueries());
    expect(await fromOverview(100, { query: 'ALP' })).toEqual(await fromQueries({ query: 'ALP' }));
    expect(await fromOverview(100, { archived: true })).toEqual(await fromQueries({ archived: true }));
    // A cursor naming an archived feature (not in the overview) and one naming no feature at all.
    for (const name of ['pl-archived', 'pl-c']) {
      const after = Buffer.from(`feature:${name}`).toString('base64url');
      const data = await ask(`query C($after: String) { project(id: "${PROJECT}") { features(after: $after) { nodes { name } } } }`, { after });
      expect(data.project.features.nodes.map((n: any) => n.name)).toEqual((await fromQueries()).map((n) => n.name).filter((n) => n > name));
    }
  });

  it('shows every change at once: toggles, variants, tags, descriptions, archiving, new features and environments', async () => {
    const changes: Array<[string, () => Promise<unknown>]> = [
      ['enable', () => app.post(`${F}/pl-beta/environments/production/on`)],
      ['variants', () => app.put(`${F}/pl-alpha/environments/development/variants`, [{ name: 'solo', weight: 1000, weightType: 'variable', stickiness: 'default' }])],
      ['tag', () => app.post('/api/admin/features/pl-gamma/tags', { type: 'simple', value: 'three' })],
      ['untag', () => app.del('/api/admin/features/pl-beta/tags/simple/one')],
      ['description', () => app.put(`${F}/pl-delta`, { description: 'now described', type: 'kill-switch' })],
      ['stale', () => app.post('/api/admin/features/pl-parent/stale/on')],
      ['archive', () => app.del(`${F}/pl-delta`)],
      ['create', () => app.post(F, { name: 'pl-epsilon' })],
      ['strategy', () => app.post(`${F}/pl-epsilon/environments/production/strategies`, { name: 'default' })],
      ['environment unlinked', () => app.del(`/api/admin/projects/${PROJECT}/environments/plist-staging`)],
      ['environment linked', () => app.post(`/api/admin/projects/${PROJECT}/environments`, { environment: 'plist-elsewhere' })],
    ];
    let before = await fromOverview();
    for (const [label, apply] of changes) {
      const res = await apply() as { status: number };
      expect({ label, status: res.status < 300 }).toEqual({ label, status: true });
      const after = await fromOverview();
      expect({ label, changed: JSON.stringify(after) !== JSON.stringify(before) }).toEqual({ label, changed: true });
      expect({ label, after }).toEqual({ label, after: await fromQueries() });
      before = after;
    }
  });
});

describe('a large project is not loaded for a page of it', () => {
  it('with loadUpTo, a stale overview of a project that had more features is not reloaded; a current one is used; an unknown size loads', async () => {
    const cache = new FeatureOverviewCache();
    const em = () => app.orm.em.fork();
    const size = (await cache.get(em(), PROJECT)).features.length;
    expect(size).toBeGreaterThan(2);
    // Current: used whatever its size.
    expect((await cache.getMany(em(), [PROJECT], { loadUpTo: 1 })).has(PROJECT)).toBe(true);
    await sql('update model_version set version = version + 1');
    app.resetQueryCount();
    expect((await cache.getMany(em(), [PROJECT], { loadUpTo: size - 1 })).has(PROJECT)).toBe(false);
    expect(app.queries.filter((q) => /\bfeature_environments\b/.test(q))).toEqual([]);
    expect((await cache.getMany(em(), [PROJECT], { loadUpTo: size })).has(PROJECT)).toBe(true);
    // Never loaded by this cache: loaded (its size becomes known).
    expect((await new FeatureOverviewCache().getMany(em(), [PROJECT], { loadUpTo: 1 })).has(PROJECT)).toBe(true);
  });
});
