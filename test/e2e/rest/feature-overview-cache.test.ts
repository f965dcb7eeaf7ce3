import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FeatureOverviewCache, HealthReportService } from '../../support/overview-bodies';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * The project feature list and the health report answer from a per-project overview kept while `model_version` and
 * `last_seen_version` stand still (src/domain/projects/feature-overview.ts). Every write path that changes what they
 * show must be seen by the very next request: after each change below, both answers equal what a fresh, uncached read
 * of the database gives, and they differ from the answers before the change (so each step really changed something
 * shown, and the cache could not have served its old copy).
 */
let app: TestApp;
const PROJECT = 'ovc';
const LIST = `/api/admin/projects/${PROJECT}/features`;
const REPORT = `/api/admin/projects/${PROJECT}/health-report`;
const feature = (name: string) => `${LIST}/${name}`;
const sql = (text: string, params: unknown[] = []) => app.orm.em.fork().execute(text, params);
const ok = async (res: Promise<{ status: number; body: unknown }>, status = 200) => {
  const r = await res;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
  return r;
};

/** What an uncached read shows now: the list and the report built by a cache of their own. */
async function fresh(): Promise<{ list: unknown; report: unknown }> {
  const em = app.orm.em.fork();
  const cache = new FeatureOverviewCache();
  const list = JSON.parse((await cache.get(em, PROJECT)).listBody().toString());
  const report = JSON.parse((await new HealthReportService(em, new FeatureOverviewCache()).healthReportBody(PROJECT)).toString());
  return { list, report };
}

async function served(): Promise<{ list: unknown; report: unknown }> {
  const list = await ok(app.get(LIST));
  const report = await ok(app.get(REPORT));
  return { list: list.body, report: report.body };
}

let previous: { list: unknown; report: unknown };

/**
 * Runs `change` and checks that the served answers equal a fresh read and that `shows` (the list, the report, or
 * both) changed. The served answers are read twice before the change, so the cache holds them.
 */
async function expectSeen(what: string, change: () => Promise<unknown>, shows: 'list' | 'report' | 'both' = 'both'): Promise<void> {
  previous = await served();
  expect(await served()).toEqual(previous);
  await change();
  const now = await served();
  expect({ what, ...now }).toEqual({ what, ...(await fresh()) });
  if (shows !== 'report') expect({ what, list: now.list }).not.toEqual({ what, list: previous.list });
  if (shows !== 'list') expect({ what, report: now.report }).not.toEqual({ what, report: previous.report });
}

beforeAll(async () => {
  app = await startTestApp({ metricsFlushMs: 50 });
  await ok(app.post('/api/admin/projects', { id: PROJECT, name: 'Overview cache' }), 201);
  await ok(app.post('/api/admin/projects', { id: 'ovc-other', name: 'Elsewhere' }), 201);
  await ok(app.post(LIST, { name: 'ovc-a' }), 201);
});
afterAll(async () => { await app.close(); });

describe('the cached project overview (feature list and health report)', () => {
  it('answers a repeated request with one query and no rebuild', async () => {
    await served();
    app.resetQueryCount();
    await ok(app.get(LIST));
    expect([...app.queries]).toHaveLength(1);
    expect([...app.queries][0]).toMatch(/model_version/);
  });

  it('sees every change to a feature made through the API', async () => {
    await expectSeen('create', () => ok(app.post(LIST, { name: 'ovc-b', description: 'second' }), 201));
    await expectSeen('description', () => ok(app.put(feature('ovc-b'), { description: 'changed' })));
    await expectSeen('type', () => ok(app.put(feature('ovc-b'), { type: 'operational' })));
    await expectSeen('impression data', () => ok(app.put(feature('ovc-b'), { impressionData: true })));
    await expectSeen('stale', () => ok(app.request('PATCH', feature('ovc-b'), [{ op: 'replace', path: '/stale', value: true }])));
    await expectSeen('bulk stale', () => ok(app.post(`/api/admin/projects/${PROJECT}/stale`, { features: ['ovc-b'], stale: false }), 202));
    let strategyId = '';
    await expectSeen('strategy added', async () => {
      strategyId = ((await ok(app.post(`${feature('ovc-a')}/environments/development/strategies`, { name: 'default' }))).body as { id: string }).id;
    });
    await expectSeen('strategy disabled', () => ok(app.put(`${feature('ovc-a')}/environments/development/strategies/${strategyId}`, { name: 'default', disabled: true })));
    await expectSeen('enabled', () => ok(app.post(`${feature('ovc-a')}/environments/development/on`, { shouldActivateDisabledStrategies: true })));
    await expectSeen('disabled', () => ok(app.post(`${feature('ovc-a')}/environments/development/off`)));
    await expectSeen('strategy removed', () => ok(app.del(`${feature('ovc-a')}/environments/development/strategies/${strategyId}`)));
    const variant = { name: 'v', weight: 1000, weightType: 'variable', stickiness: 'default' };
    await expectSeen('environment variants', () => ok(app.put(`${feature('ovc-a')}/environments/production/variants`, [variant])));
    await expectSeen('tagged', () => ok(app.post('/api/admin/features/ovc-a/tags', { type: 'simple', value: 'ovc-tag' }), 201));
    await expectSeen('untagged', () => ok(app.del('/api/admin/features/ovc-a/tags/simple/ovc-tag')));
    await ok(app.post('/api/admin/features/ovc-a/tags', { type: 'simple', value: 'ovc-gone' }), 201);
    await expectSeen('tag deleted (cascade)', () => ok(app.del('/api/admin/tags/simple/ovc-gone')));
    await expectSeen('cloned', () => ok(app.post(`${feature('ovc-a')}/clone`, { name: 'ovc-c' }), 201));
    await expectSeen('archived', () => ok(app.del(feature('ovc-c')), 202));
    await expectSeen('revived', () => ok(app.post('/api/admin/archive/revive/ovc-c')));
    await ok(app.del(feature('ovc-c')), 202);
    await expectSeen('created here and in another project', async () => {
      await ok(app.post('/api/admin/projects/ovc-other/features', { name: 'ovc-elsewhere' }), 201);
      await ok(app.post(LIST, { name: 'ovc-d' }), 201);
    });
  });

  it('sees changes to environments, their links and feature types', async () => {
    await expectSeen('environment unlinked', () => ok(app.del(`/api/admin/projects/${PROJECT}/environments/production`)));
    await expectSeen('environment linked', () => ok(app.post(`/api/admin/projects/${PROJECT}/environments`, { environment: 'production' })));
    await expectSeen('environment switched off', () => ok(app.post('/api/admin/environments/production/off'), 204));
    await expectSeen('environment switched on', () => ok(app.post('/api/admin/environments/production/on'), 204));
    await expectSeen('environment sort order', () => ok(app.put('/api/admin/environments/production', { sortOrder: -5 })));
    await expectSeen('environment type', () => ok(app.put('/api/admin/environments/production', { type: 'test' })));
    // A feature type's lifetime changes "potentially stale", which only the report shows.
    await sql(`update features set created_at = now() - interval '30 days' where name = 'ovc-d'`);
    await expectSeen('feature type lifetime', () => ok(app.put('/api/admin/feature-types/release/lifetimes', { lifetimeDays: 10 })), 'report');
  });

  it('sees when SDK metrics record a feature as seen', async () => {
    const token = ((await ok(app.post('/api/admin/api-tokens', { tokenName: 'ovc-sdk', type: 'client', environment: 'development', projects: [PROJECT] }), 201)).body as { secret: string }).secret;
    const before = await served();
    const bucket = { start: new Date(Date.now() - 1000).toISOString(), stop: new Date().toISOString(), toggles: { 'ovc-a': { yes: 1, no: 0 } } };
    await ok(app.post('/api/client/metrics', { appName: 'ovc-app', instanceId: 'ovc-1', bucket }, { token }), 202);
    // The metrics are written by the flush, on its own timer (every 50 ms here).
    const deadline = Date.now() + 5_000;
    let now = await served();
    while (JSON.stringify(now.list) === JSON.stringify(before.list) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      now = await served();
    }
    expect(now).toEqual(await fresh());
    const seen = (now.list as { features: Array<{ name: string; lastSeenAt: string | null; environments: Array<{ name: string; lastSeenAt: string | null }> }> })
      .features.find((f) => f.name === 'ovc-a')!;
    expect(seen.lastSeenAt).not.toBeNull();
    expect(seen.environments.find((e) => e.name === 'development')!.lastSeenAt).not.toBeNull();
  });

  it('sees changes that bypass the services (plain SQL on every table it reads)', async () => {
    await expectSeen('environments.type', () => sql(`update environments set type = 'production' where name = 'production'`));
    // The average time to production reads the first enable event in a production-type environment: only the report shows it.
    await sql(`update features set created_at = now() - interval '5 days' where name = 'ovc-a'`);
    await expectSeen('an enable event written alone', () => sql(
      `insert into events (type, created_by, project, environment, feature_name) values ('feature-environment-enabled', 'sql', ?, 'production', 'ovc-a')`, [PROJECT]), 'report');
    await expectSeen('features.last_seen_at', () => sql(`update features set last_seen_at = now() + interval '1 hour' where name = 'ovc-a'`));
    await expectSeen('feature_environments.last_seen_at', () => sql(`update feature_environments set last_seen_at = now() + interval '1 hour' where feature_name = 'ovc-a'`));
    await expectSeen('features.created_at', () => sql(`update features set created_at = created_at - interval '1 day' where name = 'ovc-a'`));
    await expectSeen('feature_environments.enabled', () => sql(`update feature_environments set enabled = not enabled where feature_name = 'ovc-a' and environment = 'development'`));
    await expectSeen('feature_strategies inserted', () => sql(
      `insert into feature_strategies (id, feature_name, project, environment, strategy_name, parameters, constraints, variants, sort_order, disabled)
       values (gen_random_uuid(), 'ovc-a', 'ovc', 'production', 'default', '{}'::jsonb, '[]'::jsonb, '[]'::jsonb, 0, false)`));
    await expectSeen('feature_tags inserted', async () => {
      await sql(`insert into tags (type, value) values ('simple', 'ovc-sql') on conflict do nothing`);
      await sql(`insert into feature_tags (feature_name, tag_type, tag_value) values ('ovc-a', 'simple', 'ovc-sql')`);
    });
    await expectSeen('environments.sort_order', () => sql(`update environments set sort_order = 99 where name = 'development'`));
    await expectSeen('project_environments deleted', () => sql(`delete from project_environments where project_id = ? and environment_name = 'development'`, [PROJECT]));
    await expectSeen('feature_types.lifetime_days', () => sql(`update feature_types set lifetime_days = null where id = 'release'`), 'report');
    await expectSeen('feature moved to another project', () => sql(`update features set project = 'ovc-other' where name = 'ovc-a'`));
    await expectSeen('features deleted', () => sql(`delete from features where project = ?`, [PROJECT]));
  });

  it('keeps at most its bound of projects and features, dropping the least recently used', async () => {
    const em = app.orm.em.fork();
    const statements = async (read: () => Promise<unknown>) => { app.resetQueryCount(); await read(); return app.queries.length; };
    const byCount = new FeatureOverviewCache(2, 1_000);
    for (const p of ['default', PROJECT, 'ovc-other']) await byCount.get(em, p);
    expect(await statements(() => byCount.get(em, 'ovc-other'))).toBe(1);
    expect(await statements(() => byCount.get(em, PROJECT))).toBe(1);
    expect(await statements(() => byCount.get(em, 'default'))).toBeGreaterThan(1);
    // ovc-other holds a feature: with room for none, only the entry just read stays.
    const byFeatures = new FeatureOverviewCache(10, 0);
    await byFeatures.get(em, 'ovc-other');
    await byFeatures.get(em, 'default');
    expect(await statements(() => byFeatures.get(em, 'default'))).toBe(1);
    expect(await statements(() => byFeatures.get(em, 'ovc-other'))).toBeGreaterThan(1);
  });

  it('answers 404 for a project deleted after its overview was cached', async () => {
    await served();
    await ok(app.del(`/api/admin/projects/${PROJECT}`));
    expect((await app.get(LIST)).status).toBe(404);
    expect((await app.get(REPORT)).status).toBe(404);
  });
});
