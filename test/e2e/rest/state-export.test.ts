import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Spec endpoint 16, GET /api/admin/state/export (the legacy state export): ADMIN only, every section's rows and
 * shapes, the flags and their parsing, YAML, downloads, no event, and a fixed number of statements.
 */
let app: TestApp;
let viewerToken: string;
let viewerId: number;
let segmentId: number;
let rolloutId: string;
let customId: string;
let goneStrategyId: string;

const EXPORT = '/api/admin/state/export';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const PASSWORD = 'State-Export-42';
const feature = (project: string, name: string) => `/api/admin/projects/${project}/features/${name}`;
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);
const eventCount = async () => Number((await sql('select count(*)::int as n from events'))[0].n);

/** Sends a request that must succeed (status below 300) and returns its body. */
async function must(method: string, path: string, body?: unknown): Promise<any> {
  const res = await app.request(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const exportOf = async (query = '') => {
  const res = await app.get(`${EXPORT}${query}`);
  expect(res.status).toBe(200);
  return res.body;
};

/** Byte-wise order (what `collate "C"` gives), to check the sections' order. */
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

beforeAll(async () => {
  app = await startTestApp();
  viewerId = (await must('POST', '/api/admin/user-admin', { username: 'se-viewer', password: PASSWORD, rootRole: 'Viewer' })).id;
  const login = await app.post('/auth/simple/login', { username: 'se-viewer', password: PASSWORD }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  viewerToken = (await app.post('/api/admin/user/tokens', { description: 'se', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } })).body.secret;

  // Definitions: a custom strategy type, a tag type with a tag, an environment switched off, a global segment.
  await must('POST', '/api/admin/strategies', {
    name: 'teamRollout', displayName: 'Team rollout', title: 'Team', description: 'On for some teams',
    parameters: [{ name: 'teams', type: 'list', description: 'Team names', required: true }, { name: 'beta', type: 'boolean' }],
  });
  await must('POST', '/api/admin/tag-types', { name: 'team', description: 'Owning team', icon: 'T' });
  await must('POST', '/api/admin/tags', { type: 'team', value: 'core' });
  await must('POST', '/api/admin/tags', { type: 'simple', value: 'frontend' });
  await must('POST', '/api/admin/environments', { name: 'se-stage', type: 'test', sortOrder: 5 });
  segmentId = (await must('POST', '/api/admin/segments', {
    name: 'se-segment', description: 'Web only', constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }],
  })).id;
  await must('POST', '/api/admin/environments/se-stage/off');

  // A project with a naming pattern and a member.
  await must('POST', '/api/admin/projects', { id: 'se', name: 'State export', description: 'Exported' });
  await must('PUT', '/api/admin/projects/se/settings', { featureNaming: { pattern: 'se-.*', example: 'se-one', description: 'Start with se-' } });
  await must('POST', '/api/admin/projects/se/access', { roles: [5], users: [{ id: viewerId }] });

  // se-alpha: two strategies in development (one with a constraint, a segment and variants), variants, on, tagged.
  await must('POST', '/api/admin/projects/se/features', { name: 'se-alpha', description: 'Alpha', type: 'experiment', impressionData: true });
  rolloutId = (await must('POST', `${feature('se', 'se-alpha')}/environments/development/strategies`, {
    name: 'flexibleRollout', title: 'Half', parameters: { rollout: '50', stickiness: 'default', groupId: 'se-alpha' },
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['1', '2'], caseInsensitive: true }],
    segments: [segmentId],
    variants: [{ name: 'v1', weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'one' } }],
  })).id;
  customId = (await must('POST', `${feature('se', 'se-alpha')}/environments/development/strategies`, {
    name: 'teamRollout', parameters: { teams: 'a,b', beta: 'true' }, disabled: true,
  })).id;
  await must('PUT', `${feature('se', 'se-alpha')}/environments/development/variants`, [
    { name: 'blue', weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"a":1}' }, overrides: [{ contextName: 'userId', values: ['7'] }] },
  ]);
  await must('POST', `${feature('se', 'se-alpha')}/environments/development/on`);
  await must('POST', '/api/admin/features/se-alpha/tags', { type: 'team', value: 'core' });

  // se-beta in default: stale, nothing else. se-gone: archived, with a strategy, a segment and a tag (all left out).
  await must('POST', '/api/admin/projects/default/features', { name: 'se-beta' });
  await must('POST', '/api/admin/features/se-beta/stale/on');
  await must('POST', '/api/admin/projects/default/features', { name: 'se-gone' });
  goneStrategyId = (await must('POST', `${feature('default', 'se-gone')}/environments/production/strategies`, { name: 'default', segments: [segmentId] })).id;
  await must('POST', '/api/admin/features/se-gone/tags', { type: 'simple', value: 'frontend' });
  await must('DELETE', feature('default', 'se-gone'));
});
afterAll(async () => { await app.close(); });

describe('access', () => {
  it('401 AuthenticationRequired without a token', async () => {
    const res = await app.get(EXPORT, { token: null });
    expect(res.status).toBe(401);
    expect(res.body.name).toBe('AuthenticationRequired');
  });

  it('403 NoAccessError naming ADMIN for a Viewer (before its flags are read)', async () => {
    for (const query of ['', '?tags=a&tags=b']) {
      const res = await app.get(`${EXPORT}${query}`, { token: viewerToken });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ name: 'NoAccessError', permissions: ['ADMIN'] });
      expect(res.body.message).toContain('"ADMIN" permission');
    }
  });
});

describe('the sections', () => {
  it('version 4 and every key, in the documented order', async () => {
    const state = await exportOf();
    expect(Object.keys(state)).toEqual([
      'version', 'features', 'strategies', 'projects', 'tagTypes', 'tags', 'featureTags', 'featureStrategies', 'environments',
      'featureEnvironments', 'segments', 'featureStrategySegments',
    ]);
    expect(state.version).toBe(4);
  });

  it('features: the non-archived ones, by name, in their export shape', async () => {
    const { features } = await exportOf();
    const alpha = (await app.get(feature('se', 'se-alpha'))).body;
    expect(features).toEqual([
      {
        name: 'se-alpha', description: 'Alpha', type: 'experiment', project: 'se', stale: false, createdAt: alpha.createdAt,
        lastSeenAt: null, impressionData: true, archivedAt: null, archived: false,
      },
      {
        name: 'se-beta', description: null, type: 'release', project: 'default', stale: true, createdAt: expect.stringMatching(ISO),
        lastSeenAt: null, impressionData: false, archivedAt: null, archived: false,
      },
    ]);
  });

  it('strategies: only the custom definitions, in the spec shape', async () => {
    const { strategies } = await exportOf();
    expect(strategies).toEqual([{
      title: 'Team', name: 'teamRollout', displayName: 'Team rollout', description: 'On for some teams', editable: true, deprecated: false,
      parameters: [
        { name: 'teams', type: 'list', description: 'Team names', required: true },
        { name: 'beta', type: 'boolean', description: '', required: false },
      ],
    }]);
  });

  it('projects: by id, with live health, counts and the naming pattern ({} when unset)', async () => {
    const { projects } = await exportOf();
    expect(projects.map((p: { id: string }) => p.id)).toEqual(['default', 'se']);
    const listed = (await app.get('/api/admin/projects')).body.projects;
    const se = listed.find((p: { id: string }) => p.id === 'se');
    expect(projects[1]).toEqual({
      id: 'se', name: 'State export', description: 'Exported', health: se.health, featureCount: 1, memberCount: 1,
      createdAt: se.createdAt, updatedAt: se.updatedAt, favorite: false, mode: 'open', defaultStickiness: 'default',
      featureNaming: { pattern: 'se-.*', example: 'se-one', description: 'Start with se-' },
    });
    expect(projects[0]).toMatchObject({ id: 'default', featureCount: 1, memberCount: 0, favorite: false, featureNaming: {} });
    expect(Object.keys(projects[0])).toEqual(Object.keys(projects[1]));
  });

  it('tagTypes, tags and featureTags (tags of archived features left out)', async () => {
    const { tagTypes, tags, featureTags } = await exportOf();
    expect(tagTypes).toEqual([
      { name: 'simple', description: 'Used to simplify filtering of features', icon: '#' },
      { name: 'team', description: 'Owning team', icon: 'T' },
    ]);
    expect(tags).toEqual([{ type: 'simple', value: 'frontend' }, { type: 'team', value: 'core' }]);
    expect(featureTags).toEqual([{ featureName: 'se-alpha', tagType: 'team', tagValue: 'core', createdByUserId: -1337 }]);
  });

  it('featureStrategies: strategyName, not name; no sortOrder or segments; evaluation order; archived features left out', async () => {
    const { featureStrategies } = await exportOf();
    expect(featureStrategies).toEqual([
      {
        id: rolloutId, featureName: 'se-alpha', projectId: 'se', environment: 'development', strategyName: 'flexibleRollout', title: 'Half',
        parameters: { rollout: '50', stickiness: 'default', groupId: 'se-alpha' },
        constraints: [{ contextName: 'userId', operator: 'IN', values: ['1', '2'], caseInsensitive: true, inverted: false }],
        variants: [{ name: 'v1', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'one' } }],
        createdAt: expect.stringMatching(ISO), disabled: false,
      },
      {
        id: customId, featureName: 'se-alpha', projectId: 'se', environment: 'development', strategyName: 'teamRollout', title: null,
        parameters: { teams: 'a,b', beta: 'true' }, constraints: [], variants: [], createdAt: expect.stringMatching(ISO), disabled: true,
      },
    ]);
    expect(featureStrategies.map((s: { id: string }) => s.id)).not.toContain(goneStrategyId);
  });

  it('environments: all of them (switched off too), by name', async () => {
    const { environments } = await exportOf();
    const listed = (await app.get('/api/admin/environments')).body.environments;
    expect(environments).toEqual([...listed].sort((a, b) => byteOrder(a.name, b.name)));
    expect(environments.map((e: { name: string }) => e.name)).toEqual(['development', 'production', 'se-stage']);
    expect(environments[2]).toEqual({ name: 'se-stage', type: 'test', sortOrder: 5, enabled: false, protected: false });
  });

  it('featureEnvironments: each exported feature in each environment of its project, with variants', async () => {
    const { featureEnvironments } = await exportOf();
    expect(featureEnvironments).toEqual([
      {
        enabled: true, featureName: 'se-alpha', environment: 'development',
        variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"a":1}' }, overrides: [{ contextName: 'userId', values: ['7'] }] }],
      },
      { enabled: false, featureName: 'se-alpha', environment: 'production', variants: [] },
      { enabled: false, featureName: 'se-beta', environment: 'development', variants: [] },
      { enabled: false, featureName: 'se-beta', environment: 'production', variants: [] },
    ]);
  });

  it('segments and featureStrategySegments (links of archived features left out)', async () => {
    const { segments, featureStrategySegments } = await exportOf();
    expect(segments).toEqual([{
      id: segmentId, name: 'se-segment', description: 'Web only', project: null,
      constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'], caseInsensitive: false, inverted: false }],
      createdBy: 'admin', createdAt: expect.stringMatching(ISO), usedInProjects: 2, usedInFeatures: 2,
    }]);
    expect(featureStrategySegments).toEqual([{ featureStrategyId: rolloutId, segmentId }]);
  });

  it('two exports of the same data are identical', async () => {
    expect(await exportOf()).toEqual(await exportOf());
  });
});

describe('flags', () => {
  const EMPTY_WITHOUT: Record<string, string[]> = {
    strategies: ['strategies'],
    featureToggles: ['features', 'featureTags', 'featureStrategies', 'featureEnvironments'],
    projects: ['projects'],
    tags: ['tagTypes', 'tags', 'featureTags'],
    environments: ['environments'],
  };

  it('each flag set false empties its sections and only those; segments and their links always stay', async () => {
    const full = await exportOf();
    for (const [flag, sections] of Object.entries(EMPTY_WITHOUT)) {
      const state = await exportOf(`?${flag}=false`);
      for (const [key, value] of Object.entries(full)) {
        if (sections.includes(key)) expect({ flag, key, value: state[key] }).toEqual({ flag, key, value: [] });
        else expect({ flag, key, value: state[key] }).toEqual({ flag, key, value });
      }
    }
    const none = await exportOf('?strategies=0&featureToggles=0&projects=0&tags=0&environments=0');
    expect(none).toEqual({
      version: 4, features: [], strategies: [], projects: [], tagTypes: [], tags: [], featureTags: [], featureStrategies: [],
      environments: [], featureEnvironments: [], segments: full.segments, featureStrategySegments: full.featureStrategySegments,
    });
  });

  it('reads values as Unleash does: "true" in any case or a non-zero number is true; anything else false', async () => {
    const table: Array<[string, boolean]> = [
      ['tags=true', true], ['tags=TRUE', true], ['tags=True', true], ['tags=1', true], ['tags=2', true], ['tags=-1', true],
      ['tags=0', false], ['tags=no', false], ['tags=false', false], ['tags=yes', false], ['tags=', false], ['tags', false], ['', true],
    ];
    const got: Array<[string, boolean]> = [];
    for (const [query] of table) got.push([query, (await exportOf(`?${query}`)).tagTypes.length > 0]);
    expect(got).toEqual(table);
  });

  it('a repeated parameter is a 400 ValidationError naming it, never a 500', async () => {
    for (const name of ['tags', 'featureToggles', 'format', 'download']) {
      const res = await app.get(`${EXPORT}?${name}=true&${name}=false`);
      expect({ name, status: res.status, error: res.body.name, path: res.body.details?.[0]?.path }).toEqual({ name, status: 400, error: 'ValidationError', path: name });
    }
    const two = await app.get(`${EXPORT}?tags=1&tags=0&projects=a&projects=b`);
    expect(two.body.details.map((d: { path: string }) => d.path)).toEqual(['projects', 'tags']);
  });
});

describe('formats and downloads', () => {
  it('format=yaml answers text/yaml that parses back to the JSON export', async () => {
    const json = await app.get(EXPORT);
    const yaml = await app.get(`${EXPORT}?format=yaml`);
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get('content-type')).toMatch(/^text\/yaml/);
    expect(typeof yaml.body).toBe('string');
    expect(parse(yaml.body as string)).toEqual(json.body);
    expect(yaml.headers.get('content-disposition')).toBeNull();
  });

  it('any other format is JSON', async () => {
    for (const format of ['json', 'xml', 'YAML', '']) {
      const res = await app.get(`${EXPORT}?format=${format}`);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body.version).toBe(4);
    }
  });

  it('download adds an attachment file name: .json, or .yml with format=yaml', async () => {
    const json = await app.get(`${EXPORT}?download=true`);
    expect(json.headers.get('content-disposition')).toMatch(/^attachment; filename="export-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.json"$/);
    expect(json.body.version).toBe(4);
    const yaml = await app.get(`${EXPORT}?download=1&format=yaml`);
    expect(yaml.headers.get('content-disposition')).toMatch(/^attachment; filename="export-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.yml"$/);
    expect(yaml.headers.get('content-type')).toMatch(/^text\/yaml/);
    for (const off of ['', '?download=false', '?download=0', '?download=no']) {
      expect((await app.get(`${EXPORT}${off}`)).headers.get('content-disposition')).toBeNull();
    }
  });
});

describe('cost', () => {
  it('writes no event', async () => {
    const before = await eventCount();
    await exportOf();
    await exportOf('?format=yaml&download=true');
    expect(await eventCount()).toBe(before);
  });

  it('runs the same number of statements whatever the amount of data', async () => {
    app.resetQueryCount();
    await exportOf();
    const small = app.queries.length;
    for (let i = 0; i < 6; i++) {
      const name = `se-many-${i}`;
      await must('POST', '/api/admin/projects/se/features', { name });
      await must('POST', `${feature('se', name)}/environments/production/strategies`, { name: 'default', segments: [segmentId] });
      await must('POST', `/api/admin/features/${name}/tags`, { type: 'team', value: 'core' });
    }
    app.resetQueryCount();
    const state = await exportOf();
    expect(state.features).toHaveLength(8);
    expect(app.queries.length).toBe(small);
    expect(small).toBeLessThanOrEqual(16);
    // Byte-wise order by name within each section.
    const names = state.features.map((f: { name: string }) => f.name);
    expect(names).toEqual([...names].sort(byteOrder));
  });
});
