import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * GET /api/admin/projects/:projectId/health-report (spec endpoint 10, design D5: computed live).
 * Features, their environments, strategies, tags and events are fixture rows written with SQL (the feature API
 * is not there yet); timestamps are back-dated relative to now. Every expected figure is worked out by hand.
 */

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);
const report = (project: string, options?: Parameters<TestApp['get']>[1]) => app.get(`/api/admin/projects/${project}/health-report`, options);
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

interface FeatureFixture {
  type: string;
  createdDaysAgo: number;
  stale?: boolean;
  archivedDaysAgo?: number;
  description?: string;
  impressionData?: boolean;
  lastSeenDaysAgo?: number;
}

async function feature(project: string, name: string, f: FeatureFixture): Promise<void> {
  await sql(
    `insert into features (name, project, type, created_at, archived_at, stale, description, impression_data, last_seen_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [name, project, f.type, ago(f.createdDaysAgo), f.archivedDaysAgo === undefined ? null : ago(f.archivedDaysAgo), f.stale ?? false,
      f.description ?? null, f.impressionData ?? false, f.lastSeenDaysAgo === undefined ? null : ago(f.lastSeenDaysAgo)]);
}

async function featureEnvironment(feature: string, environment: string, enabled: boolean, variants: unknown[] = [], lastSeenDaysAgo?: number) {
  await sql(`insert into feature_environments (feature_name, environment, enabled, variants, last_seen_at) values (?, ?, ?, ?::jsonb, ?)`,
    [feature, environment, enabled, JSON.stringify(variants), lastSeenDaysAgo === undefined ? null : ago(lastSeenDaysAgo)]);
}

async function strategy(feature: string, project: string, environment: string, disabled: boolean) {
  await sql(`insert into feature_strategies (id, feature_name, project, environment, strategy_name, disabled) values (?, ?, ?, ?, 'default', ?)`,
    [randomUUID(), feature, project, environment, disabled]);
}

async function event(type: string, project: string | null, daysAgo: number, environment: string | null = null, featureName: string | null = null) {
  await sql(`insert into events (type, created_by, project, environment, feature_name, created_at) values (?, 'fixture', ?, ?, ?, ?)`,
    [type, project, environment, featureName, ago(daysAgo)]);
}

const zeroStats = {
  avgTimeToProdCurrentWindow: 0, createdCurrentWindow: 0, createdPastWindow: 0, archivedCurrentWindow: 0, archivedPastWindow: 0,
  projectActivityCurrentWindow: 0, projectActivityPastWindow: 0, projectMembersAddedCurrentWindow: 0,
};

describe('access and unknown projects', () => {
  it('answers 401 AuthenticationRequired without a token', async () => {
    const res = await report('default', { token: null });
    expect(res.status).toBe(401);
    expect(res.body.name).toBe('AuthenticationRequired');
  });

  it('answers 404 NotFoundError "No project found" for an unknown project', async () => {
    const res = await report('nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ name: 'NotFoundError', message: 'No project found' });
    expect(typeof res.body.id).toBe('string');
  });

  it('reports the fresh default project: no features, health 100, every figure 0, and writes no event', async () => {
    const res = await report('default');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      version: 1, name: 'Default', description: 'Default project', defaultStickiness: 'default', mode: 'open', featureLimit: null,
      members: 0, health: 100,
      environments: [
        { environment: 'development', changeRequestsEnabled: false },
        { environment: 'production', changeRequestsEnabled: false },
      ],
      features: [], updatedAt: null, createdAt: ISO, favorite: false, stats: zeroStats,
      featureNaming: { pattern: null, example: null, description: null },
      potentiallyStaleCount: 0, activeCount: 0, staleCount: 0,
    });
    expect(await app.events()).toEqual([]);
  });
});

describe('features, counts and health', () => {
  beforeAll(async () => {
    // sandbox (sort 1) and offline (sort 0) exist before the project, so it is linked to both; offline is then switched off (D6).
    expect((await app.post('/api/admin/environments', { name: 'sandbox', type: 'test', sortOrder: 1 })).status).toBe(201);
    expect((await app.post('/api/admin/environments', { name: 'offline', type: 'test', sortOrder: 0 })).status).toBe(201);
    expect((await app.post('/api/admin/projects', { id: 'debt', name: 'Debt', description: 'Tech debt', featureLimit: 50 })).status).toBe(201);
    expect((await app.post('/api/admin/environments/offline/off')).status).toBe(204);
    expect((await app.put('/api/admin/projects/debt/settings', { featureNaming: { pattern: '[a-z]+-[a-z]+', example: 'rel-old', description: 'type-name' } })).status).toBe(200);
    await sql(`update project_environments set default_strategy = ?::jsonb where project_id = 'debt' and environment_name = 'production'`,
      [JSON.stringify({ name: 'flexibleRollout', constraints: [], parameters: { rollout: '50', stickiness: 'default', groupId: '' } })]);
    for (const value of ['alpha', 'beta']) expect((await app.post('/api/admin/tags', { type: 'simple', value })).status).toBe(201);

    await feature('debt', 'exp-fresh', { type: 'experiment', createdDaysAgo: 1 });
    await feature('debt', 'kill-ancient', { type: 'kill-switch', createdDaysAgo: 400, description: 'panic button', impressionData: true });
    await feature('debt', 'ops-new', { type: 'operational', createdDaysAgo: 8 });
    await feature('debt', 'rel-old', { type: 'release', createdDaysAgo: 41, lastSeenDaysAgo: 2 });
    await feature('debt', 'rel-stale', { type: 'release', createdDaysAgo: 50, stale: true });
    await feature('debt', 'rel-young', { type: 'release', createdDaysAgo: 39 });
    await feature('debt', 'arch-gone', { type: 'release', createdDaysAgo: 100, archivedDaysAgo: 10 });

    await featureEnvironment('rel-old', 'development', true, [{ name: 'a', weight: 500 }, { name: 'b', weight: 500 }], 2);
    await featureEnvironment('rel-old', 'production', false);
    await featureEnvironment('rel-old', 'offline', true);
    await strategy('rel-old', 'debt', 'development', false);
    await strategy('rel-old', 'debt', 'development', true);
    await strategy('rel-old', 'debt', 'production', true);
    await featureEnvironment('kill-ancient', 'production', true);
    await strategy('kill-ancient', 'debt', 'production', false);
    await featureEnvironment('arch-gone', 'production', true);
    await strategy('arch-gone', 'debt', 'production', false);
    await sql(`insert into feature_tags (feature_name, tag_type, tag_value) values ('rel-old', 'simple', 'beta'), ('rel-old', 'simple', 'alpha')`);
  });

  const off = (name: string, type: string, sortOrder: number) => ({
    name, enabled: false, type, sortOrder, variantCount: 0, lastSeenAt: null, hasStrategies: false, hasEnabledStrategies: false,
  });
  const plainEnvironments = [off('sandbox', 'test', 1), off('development', 'development', 2), off('production', 'production', 3)];
  const plain = (name: string, type: string, _daysAgo: number) => ({
    type, description: null, name, createdAt: ISO, stale: false, impressionData: false, lastSeenAt: null,
    environments: plainEnvironments,
  });

  it('lists the non-archived features by name with their environments, strategies, variants and tags', async () => {
    const res = await report('debt');
    expect(res.status).toBe(200);
    expect(res.body.features).toEqual([
      plain('exp-fresh', 'experiment', 1),
      {
        ...plain('kill-ancient', 'kill-switch', 400), description: 'panic button', impressionData: true,
        environments: [off('sandbox', 'test', 1), off('development', 'development', 2),
          { ...off('production', 'production', 3), enabled: true, hasStrategies: true, hasEnabledStrategies: true }],
      },
      plain('ops-new', 'operational', 8),
      {
        ...plain('rel-old', 'release', 41), lastSeenAt: ISO,
        environments: [
          off('sandbox', 'test', 1), // linked, but no configuration row: reported as disabled
          { name: 'development', enabled: true, type: 'development', sortOrder: 2, variantCount: 2, lastSeenAt: ISO, hasStrategies: true, hasEnabledStrategies: true },
          { ...off('production', 'production', 3), hasStrategies: true }, // only a disabled strategy
          // offline is switched off: left out although the feature is enabled there
        ],
        tags: [{ value: 'alpha', type: 'simple' }, { value: 'beta', type: 'simple' }],
      },
      { ...plain('rel-stale', 'release', 50), stale: true },
      plain('rel-young', 'release', 39),
    ]);
    // `tags` only when the feature has some
    expect(res.body.features.filter((f: object) => 'tags' in f).map((f: { name: string }) => f.name)).toEqual(['rel-old']);
    const relOld = res.body.features.find((f: { name: string }) => f.name === 'rel-old');
    expect(Math.round((Date.now() - Date.parse(relOld.createdAt)) / DAY)).toBe(41);
  });

  it('reports the project fields, its switched-on environments with defaultStrategy only when set, and the naming pattern', async () => {
    const { features: _features, ...rest } = (await report('debt')).body;
    expect(rest).toEqual({
      version: 1, name: 'Debt', description: 'Tech debt', defaultStickiness: 'default', mode: 'open', featureLimit: 50, members: 0,
      // 6 features: 1 stale, 5 active of which 2 potentially stale (rel-old 41 d ≥ 40, ops-new 8 d ≥ 7):
      // round(100 − 100·1/6 − 100·2/6) = round(50) = 50
      health: 50,
      environments: [
        { environment: 'sandbox', changeRequestsEnabled: false },
        { environment: 'development', changeRequestsEnabled: false },
        {
          environment: 'production', changeRequestsEnabled: false,
          defaultStrategy: { name: 'flexibleRollout', constraints: [], parameters: { rollout: '50', stickiness: 'default', groupId: '' } },
        },
      ],
      updatedAt: ISO, createdAt: ISO, favorite: false,
      stats: {
        ...zeroStats,
        createdCurrentWindow: 2, // exp-fresh 1 d, ops-new 8 d
        createdPastWindow: 3, // rel-young 39 d, rel-old 41 d, rel-stale 50 d
        archivedCurrentWindow: 1, // arch-gone, archived 10 d ago
        projectActivityCurrentWindow: 2, // project-created and project-updated (the settings)
      },
      featureNaming: { pattern: '[a-z]+-[a-z]+', example: 'rel-old', description: 'type-name' },
      // kill-switch (no lifetime) at 400 d, experiment at 1 d and release at 39 d are not potentially stale;
      // the stale release at 50 d counts as stale only
      potentiallyStaleCount: 2, activeCount: 5, staleCount: 1,
    });
  });

  it('computes health live (D5): marking a feature stale changes it on the next request, and writes no event', async () => {
    const events = (await app.events()).length;
    await sql(`update features set stale = true where name = 'exp-fresh'`);
    // 6 features: 2 stale, 4 active of which 2 potentially stale: round(100 − 33.3 − 33.3) = 33
    expect((await report('debt')).body).toMatchObject({ health: 33, staleCount: 2, activeCount: 4, potentiallyStaleCount: 2 });
    await sql(`update features set stale = true where name in ('rel-old', 'ops-new')`);
    // 4 stale, 2 active, none potentially stale: round(100 − 66.7) = 33
    expect((await report('debt')).body).toMatchObject({ health: 33, staleCount: 4, activeCount: 2, potentiallyStaleCount: 0 });
    await sql(`update features set stale = false where name in ('exp-fresh', 'rel-old', 'ops-new')`);
    expect((await report('debt')).body.health).toBe(50);
    expect((await app.events()).length).toBe(events);
  });

  it('shows the same live health on the project itself (REST list and detail, GraphQL), never a stored value', async () => {
    const health = (await report('debt')).body.health;
    expect(health).toBe(50);
    expect((await app.get('/api/admin/projects')).body.projects.find((p: any) => p.id === 'debt').health).toBe(health);
    expect((await app.get('/api/admin/projects/debt')).body.health).toBe(health);
    const gql = await app.request('POST', '/graphql', { query: '{ project(id: "debt") { health } }' });
    expect(gql.body.data.project.health).toBe(health);
    expect((await app.get('/api/admin/projects/default')).body.health).toBe((await report('default')).body.health);
  });

  it('reaches 0 when every feature is stale or potentially stale, and 100 again without features', async () => {
    expect((await app.post('/api/admin/projects', { id: 'rotten', name: 'Rotten' })).status).toBe(201);
    await feature('rotten', 'rotten-a', { type: 'release', createdDaysAgo: 45 });
    await feature('rotten', 'rotten-b', { type: 'operational', createdDaysAgo: 7.5, stale: true });
    expect((await report('rotten')).body).toMatchObject({ health: 0, staleCount: 1, activeCount: 1, potentiallyStaleCount: 1 });
    await sql(`update features set archived_at = now() where project = 'rotten'`);
    expect((await report('rotten')).body).toMatchObject({ health: 100, staleCount: 0, activeCount: 0, potentiallyStaleCount: 0, features: [] });
  });
});

describe('stats windows (current: last 30 days; past: 60 to 30 days ago)', () => {
  beforeAll(async () => {
    expect((await app.post('/api/admin/environments', { name: 'prod-eu', type: 'production', sortOrder: 9 })).status).toBe(201);
    expect((await app.post('/api/admin/projects', { id: 'stats', name: 'Stats' })).status).toBe(201); // project-created: current window
    await feature('stats', 's-new', { type: 'release', createdDaysAgo: 3 });
    await feature('stats', 's-mid', { type: 'release', createdDaysAgo: 29 });
    await feature('stats', 's-old', { type: 'release', createdDaysAgo: 31 });
    await feature('stats', 's-older', { type: 'release', createdDaysAgo: 59 });
    await feature('stats', 's-ancient', { type: 'operational', createdDaysAgo: 61 });
    await feature('stats', 's-arch-cur', { type: 'release', createdDaysAgo: 90, archivedDaysAgo: 29 });
    await feature('stats', 's-arch-past', { type: 'release', createdDaysAgo: 90, archivedDaysAgo: 31 });
    await feature('stats', 's-arch-gone', { type: 'release', createdDaysAgo: 10, archivedDaysAgo: 1 });
    await feature('stats', 's-arch-ancient', { type: 'release', createdDaysAgo: 120, archivedDaysAgo: 61 });
    await feature('default', 'other-rel', { type: 'release', createdDaysAgo: 10 });

    // Project activity that is not an enable event.
    await event('feature-updated', 'stats', 1); // current
    await event('feature-updated', 'stats', 15); // current
    await event('feature-updated', 'stats', 45); // past
    await event('feature-updated', 'stats', 65); // neither
    await event('feature-updated', 'default', 1); // another project
    await event('tag-created', null, 2); // no project

    // Enable events (each also project activity).
    await event('feature-environment-enabled', 'stats', 30.5, 'development', 's-old'); // past; not production: ignored for time to prod
    await event('feature-environment-enabled', 'stats', 27.5, 'production', 's-old'); // current; first production enable: 31 − 27.5 = 3.5 → 3 days
    await event('feature-environment-enabled', 'stats', 20, 'production', 's-old'); // current; later enable: ignored
    await event('feature-environment-enabled', 'stats', 49.2, 'prod-eu', 's-older'); // past; production-type environment: 59 − 49.2 = 9.8 → 9 days
    await event('feature-environment-enabled', 'stats', 85.5, 'production', 's-arch-cur'); // neither; archived release: 90 − 85.5 = 4.5 → 4 days
    await event('feature-environment-enabled', 'stats', 60.5, 'production', 's-ancient'); // neither; operational: ignored
    await event('feature-environment-enabled', 'stats', 35, 'production', 's-mid'); // past; before s-mid was created: ignored
    await event('feature-environment-enabled', 'default', 9, 'production', 'other-rel'); // another project
  });

  it('counts created, archived and activity per window and averages the time to production', async () => {
    const res = await report('stats');
    expect(res.status).toBe(200);
    expect(res.body.stats).toEqual({
      avgTimeToProdCurrentWindow: 5.3, // (3 + 9 + 4) / 3 = 5.33
      createdCurrentWindow: 2, // s-new 3 d, s-mid 29 d (s-arch-gone, created 10 d ago, is archived)
      createdPastWindow: 2, // s-old 31 d, s-older 59 d (s-ancient 61 d is outside)
      archivedCurrentWindow: 2, // s-arch-cur 29 d, s-arch-gone 1 d
      archivedPastWindow: 1, // s-arch-past 31 d (s-arch-ancient 61 d is outside)
      projectActivityCurrentWindow: 5, // project-created, 1 d, 15 d, enables at 27.5 d and 20 d
      projectActivityPastWindow: 4, // 45 d, enables at 30.5 d, 49.2 d and 35 d
      projectMembersAddedCurrentWindow: 0,
    });
    expect(res.body.features.map((f: { name: string }) => f.name)).toEqual(['s-ancient', 's-mid', 's-new', 's-old', 's-older']);
  });

  it('keeps the other project apart: its own release feature gives its own average', async () => {
    const res = await report('default');
    expect(res.body.stats).toMatchObject({ avgTimeToProdCurrentWindow: 1, createdCurrentWindow: 1, projectActivityCurrentWindow: 2 });
  });
});

describe('a report over data written through the feature API', () => {
  beforeAll(async () => {
    expect((await app.post('/api/admin/projects', { id: 'live', name: 'Live' })).status).toBe(201);
    for (const [name, type] of [['live-checkout', 'release'], ['live-switch', 'kill-switch']]) {
      expect((await app.post('/api/admin/projects/live/features', { name, type })).status).toBe(201);
    }
    const strategies = '/api/admin/projects/live/features/live-checkout/environments/production/strategies';
    expect((await app.post(strategies, { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'live-checkout' } })).status).toBe(200);
    expect((await app.post('/api/admin/projects/live/features/live-checkout/environments/production/on')).status).toBe(200);
    expect((await app.post('/api/admin/features/live-checkout/tags', { type: 'simple', value: 'live-tag' })).status).toBe(201);
    expect((await app.post('/api/admin/features/live-switch/stale/on')).status).toBe(200);
  });

  it('shows the configuration, tags and staleness the API wrote, and the enable as a 0-day time to production', async () => {
    const res = await report('live');
    expect(res.status).toBe(200);
    const [checkout, killSwitch] = res.body.features;
    expect(checkout).toMatchObject({
      name: 'live-checkout', type: 'release', stale: false, tags: [{ value: 'live-tag', type: 'simple' }],
    });
    // The project got every switched-on environment when created (sandbox and prod-eu come from the tests above).
    expect(checkout.environments.map((e: { name: string }) => e.name)).toEqual(['sandbox', 'development', 'production', 'prod-eu']);
    expect(checkout.environments[1]).toMatchObject({ name: 'development', enabled: false, hasStrategies: false, hasEnabledStrategies: false });
    expect(checkout.environments[2]).toMatchObject({ name: 'production', enabled: true, hasStrategies: true, hasEnabledStrategies: true });
    expect(killSwitch).toMatchObject({ name: 'live-switch', stale: true });
    expect(killSwitch.tags).toBeUndefined();
    // 2 features, 1 stale, none potentially stale: round(100 − 50) = 50
    expect(res.body).toMatchObject({ health: 50, staleCount: 1, activeCount: 1, potentiallyStaleCount: 0 });
    expect(res.body.stats).toMatchObject({ createdCurrentWindow: 2, avgTimeToProdCurrentWindow: 0 });
    const events = (await app.events()).filter((e) => e.project === 'live');
    expect(res.body.stats.projectActivityCurrentWindow).toBe(events.length);
  });
});
