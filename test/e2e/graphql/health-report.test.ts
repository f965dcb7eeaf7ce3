import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * GraphQL side of the project settings and the health report: `updateProjectSettings`, `Project.healthReport`
 * (equal to the REST report) and its batching across projects. Feature rows are SQL fixtures (no feature API yet).
 */

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);

const GqlHealthUpdateSettings = graphql(`
  mutation GqlHealthUpdateSettings($input: UpdateProjectSettingsInput!) {
    updateProjectSettings(input: $input) { id mode updatedAt featureNaming { pattern example description } }
  }
`);
const GqlHealthReportParts = graphql(`
  fragment GqlHealthReportParts on ProjectHealthReport {
    name description defaultStickiness mode featureLimit members health updatedAt createdAt
    potentiallyStaleCount activeCount staleCount
    featureNaming { pattern example description }
    environments { environment changeRequestsEnabled defaultStrategy }
    features {
      type description name createdAt stale impressionData lastSeenAt
      environments { name enabled type sortOrder variantCount lastSeenAt hasStrategies hasEnabledStrategies }
      tags { value type }
    }
    stats {
      avgTimeToProdCurrentWindow createdCurrentWindow createdPastWindow archivedCurrentWindow archivedPastWindow
      projectActivityCurrentWindow projectActivityPastWindow projectMembersAddedCurrentWindow
    }
  }
`);
const GqlHealthProjectReport = graphql(`
  query GqlHealthProjectReport($id: String!) { project(id: $id) { id healthReport { ...GqlHealthReportParts } } }
`);
const GqlHealthAllReports = graphql(`
  query GqlHealthAllReports { projects { id healthReport { health activeCount features { name environments { name } tags { value } } stats { createdCurrentWindow } } } }
`);

/** The REST report in GraphQL's terms: no envelope (`version`, `favorite`); absent `tags` and `defaultStrategy` are `[]` and null. */
function restAsGraphql(body: any) {
  const { version: _version, favorite: _favorite, ...rest } = body;
  return {
    ...rest,
    environments: rest.environments.map((e: any) => ({ defaultStrategy: null, ...e })),
    features: rest.features.map((f: any) => ({ tags: [], ...f })),
  };
}

const sortKeys = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(sortKeys)
    : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, sortKeys(x)]))
      : v;

describe('updateProjectSettings', () => {
  beforeAll(async () => {
    expect((await app.post('/api/admin/projects', { id: 'gql-web', name: 'Web' })).status).toBe(201);
  });

  it('sets the mode and the naming pattern, returns the project and records project-updated', async () => {
    const res = await app.gql(GqlHealthUpdateSettings, {
      input: { project: 'gql-web', mode: 'protected', featureNaming: { pattern: 'web-[0-9]+', example: 'web-7', description: 'numbered' } },
    });
    expect(res.body.errors).toBeUndefined();
    const updated = res.body.data!.updateProjectSettings;
    expect(updated).toEqual({
      id: 'gql-web', mode: 'protected', updatedAt: expect.any(String), featureNaming: { pattern: 'web-[0-9]+', example: 'web-7', description: 'numbered' },
    });
    const rest = (await app.get('/api/admin/projects/gql-web')).body;
    expect(rest).toMatchObject({ mode: updated.mode, featureNaming: updated.featureNaming, updatedAt: updated.updatedAt });
    const [event] = await app.events('project-updated');
    expect(event).toMatchObject({ project: 'gql-web', preData: { mode: 'open' }, data: { mode: 'protected', featureNaming: updated.featureNaming } });
  });

  it('leaves absent fields untouched and writes no event when nothing changes', async () => {
    const events = (await app.events()).length;
    const res = await app.gql(GqlHealthUpdateSettings, { input: { project: 'gql-web', mode: 'protected' } });
    expect(res.body.data!.updateProjectSettings.featureNaming.pattern).toBe('web-[0-9]+');
    expect((await app.events()).length).toBe(events);
  });

  it('takes an absent pattern as null: the pattern, example and description are cleared', async () => {
    const res = await app.gql(GqlHealthUpdateSettings, { input: { project: 'gql-web', featureNaming: {} } });
    expect(res.body.data!.updateProjectSettings.featureNaming).toEqual({ pattern: null, example: null, description: null });
  });

  it('refuses an unsafe pattern with ValidationError and its details path, changing nothing', async () => {
    const events = (await app.events()).length;
    const res = await app.gql(GqlHealthUpdateSettings, { input: { project: 'gql-web', mode: 'private', featureNaming: { pattern: '(a+)+b', example: 'a'.repeat(40) } } });
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors![0].extensions).toMatchObject({ name: 'ValidationError', code: 400 });
    expect(res.body.errors![0].extensions.details).toEqual([{ path: 'featureNaming/pattern', message: expect.stringContaining('catastrophic backtracking') }]);
    expect((await app.get('/api/admin/projects/gql-web')).body.mode).toBe('protected');
    expect((await app.events()).length).toBe(events);
  });

  it('refuses an example that does not match, and an unknown project', async () => {
    const mismatch = await app.gql(GqlHealthUpdateSettings, { input: { project: 'gql-web', featureNaming: { pattern: 'a|b', example: 'ab' } } });
    expect(mismatch.body.errors![0].extensions).toMatchObject({ name: 'ValidationError', details: [{ path: 'featureNaming/example', message: expect.stringContaining('doesn\'t match') }] });
    const unknown = await app.gql(GqlHealthUpdateSettings, { input: { project: 'nope', mode: 'open' } });
    expect(unknown.body.errors![0].extensions).toMatchObject({ name: 'NotFoundError', code: 404 });
  });
});

describe('Project.healthReport', () => {
  beforeAll(async () => {
    expect((await app.post('/api/admin/projects', { id: 'gql-debt', name: 'Debt', featureLimit: 10 })).status).toBe(201);
    expect((await app.put('/api/admin/projects/gql-debt/settings', { featureNaming: { pattern: 'g-.+', example: 'g-one' } })).status).toBe(200);
    await sql(`update project_environments set default_strategy = ?::jsonb where project_id = 'gql-debt' and environment_name = 'development'`,
      [JSON.stringify({ name: 'default', constraints: [], parameters: {} })]);
    expect((await app.post('/api/admin/tags', { type: 'simple', value: 'gql-tag' })).status).toBe(201);
    const features: Array<[string, string, number, boolean, number | null]> = [
      ['g-old', 'release', 45, false, null], ['g-stale', 'operational', 2, true, null], ['g-new', 'experiment', 3, false, null],
      ['g-gone', 'release', 70, false, 40],
    ];
    for (const [name, type, days, stale, archived] of features) {
      await sql(`insert into features (name, project, type, created_at, stale, archived_at, last_seen_at) values (?, 'gql-debt', ?, ?, ?, ?, ?)`,
        [name, type, ago(days), stale, archived === null ? null : ago(archived), name === 'g-new' ? ago(1) : null]);
    }
    await sql(`insert into feature_environments (feature_name, environment, enabled, variants) values ('g-old', 'production', true, '[{"name":"v"}]'), ('g-new', 'development', false, '[]')`);
    await sql(`insert into feature_strategies (id, feature_name, project, environment, strategy_name, disabled) values (?, 'g-old', 'gql-debt', 'production', 'default', false), (?, 'g-new', 'gql-debt', 'development', 'default', true)`,
      [randomUUID(), randomUUID()]);
    await sql(`insert into feature_tags (feature_name, tag_type, tag_value) values ('g-new', 'simple', 'gql-tag')`);
    await sql(`insert into events (type, created_by, project, environment, feature_name, created_at) values ('feature-environment-enabled', 'fixture', 'gql-debt', 'production', 'g-old', ?)`, [ago(43.5)]);
  });

  it('equals the REST report, field for field', async () => {
    const rest = await app.get('/api/admin/projects/gql-debt/health-report');
    expect(rest.status).toBe(200);
    const res = await app.gql(GqlHealthProjectReport, { id: 'gql-debt' });
    expect(res.body.errors).toBeUndefined();
    const gql = res.body.data!.project.healthReport;
    expect(sortKeys(gql)).toEqual(sortKeys(restAsGraphql(rest.body)));
    // hand-computed: 3 features, 1 stale, 2 active of which g-old (release, 45 d) is potentially stale: round(100 − 33.3 − 33.3) = 33
    expect(gql).toMatchObject({ health: 33, staleCount: 1, activeCount: 2, potentiallyStaleCount: 1, featureLimit: 10 });
    expect(gql.stats).toMatchObject({ avgTimeToProdCurrentWindow: 1, createdCurrentWindow: 2, archivedPastWindow: 1 });
    expect(gql.features.map((f) => f.name)).toEqual(['g-new', 'g-old', 'g-stale']);
    expect(gql.features[0].tags).toEqual([{ value: 'gql-tag', type: 'simple' }]);
    expect(gql.environments.map((e) => e.defaultStrategy)).toEqual([{ name: 'default', constraints: [], parameters: {} }, null]);
  });

  it('answers NotFoundError for an unknown project', async () => {
    const res = await app.gql(GqlHealthProjectReport, { id: 'nope' });
    expect(res.body.errors![0].extensions).toMatchObject({ name: 'NotFoundError', code: 404 });
  });

  it('loads the reports of every project in a fixed number of queries', async () => {
    const count = async () => {
      app.resetQueryCount();
      const res = await app.gql(GqlHealthAllReports, {});
      expect(res.body.errors).toBeUndefined();
      return { queries: app.queries.length, projects: res.body.data!.projects };
    };
    const before = await count();
    for (const id of ['gql-extra-1', 'gql-extra-2', 'gql-extra-3']) {
      expect((await app.post('/api/admin/projects', { id, name: id })).status).toBe(201);
      await sql(`insert into features (name, project) values (?, ?)`, [`${id}-f`, id]);
    }
    const after = await count();
    expect(after.projects.length).toBe(before.projects.length + 3);
    expect(after.queries).toBe(before.queries);
    const extra = after.projects.find((p) => p.id === 'gql-extra-2')!;
    expect(extra.healthReport).toEqual({
      health: 100, activeCount: 1, stats: { createdCurrentWindow: 1 },
      features: [{ name: 'gql-extra-2-f', environments: [{ name: 'development' }, { name: 'production' }], tags: [] }],
    });
  });
});
