import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from 'pg';
import { PROMETHEUS_PATH } from '../../../src/observability';
import { startTestApp, type TestApp } from '../../support/harness';
import { itWhen, NEEDS_POSTGRES, onPostgres } from '../../support/skip';

/**
 * Issue 30: the dashboard query (a project's features with their environments, strategies, constraints, variants and
 * segments) fits the default cost budget, and a repeated one is answered from the response cache
 * (src/resolvers/response-cache.ts) until a change it shows commits. As the REST caches' tests do
 * (test/e2e/rest/feature-overview-cache.test.ts): after each change, the served answer equals a fresh, uncached one and
 * differs from the answer before the change, so each step changed something shown and no old copy was served.
 */
let app: TestApp;
const PROJECT = 'gqc';
const FEATURE_PATH = (name: string) => `/api/admin/projects/${PROJECT}/features/${name}`;
const DASHBOARD = `query Dashboard($project: String!) { project(id: $project) { id features(first: 1000) { nodes { name type stale environments { name enabled
  strategies { id name parameters disabled constraints { contextName operator values inverted caseInsensitive } variants { name weight stickiness } segments { id name constraints { contextName values } } }
  variants { name weight } } } } } }`;

const ok = async (res: Promise<{ status: number; body: any }>, status = 200) => {
  const r = await res;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
  return r;
};
const ask = async (query: string, variables: Record<string, unknown> = {}, token?: string) => {
  const res = await ok(app.post('/graphql', { query, variables }, token === undefined ? {} : { token }));
  expect(res.body.errors).toBeUndefined();
  return res.body.data;
};
/** Answers served from the cache so far (the executions counter of the Prometheus metrics). */
async function cachedCount(): Promise<number> {
  const text = String((await app.get(PROMETHEUS_PATH, { token: null })).body);
  return Number(/flagdeck_graphql_executions_total\{executor="cached"\} (\d+)/.exec(text)?.[1] ?? 0);
}

const served = () => ask(DASHBOARD, { project: PROJECT });
let freshCount = 0;
/** The same query, computed now: a comment makes its text (and so its cache key) one never asked before. */
const fresh = () => ask(`${DASHBOARD} # fresh ${++freshCount}`, { project: PROJECT });

/** Runs `change`; the answer served next equals a fresh one and differs from the one cached before the change. */
async function expectSeen(what: string, change: () => Promise<unknown>): Promise<void> {
  const before = await served();
  const hits = await cachedCount();
  expect(await served()).toEqual(before);
  expect(await cachedCount()).toBe(hits + 1);
  await change();
  const now = await served();
  expect({ what, now }).toEqual({ what, now: await fresh() });
  expect({ what, now }).not.toEqual({ what, now: before });
}

beforeAll(async () => {
  app = await startTestApp();
  await ok(app.post('/api/admin/projects', { id: PROJECT, name: 'GraphQL cache' }), 201);
  await ok(app.post(`/api/admin/projects/${PROJECT}/features`, { name: 'gqc-a' }), 201);
});
afterAll(async () => { await app.close(); });

describe('the dashboard query', () => {
  it('of 1000 features with environments, strategies, constraints and variants runs under the default budget', async () => {
    const em = app.orm.em.fork();
    await em.execute(`insert into projects (id, name) values ('gqc-big', 'Big')`);
    await em.execute(`insert into project_environments (project_id, environment_name) select 'gqc-big', name from environments where enabled`);
    await em.execute(`insert into features (name, project, type) select 'big-' || lpad(g::text, 4, '0'), 'gqc-big', 'release' from generate_series(1, 1000) g`);
    await em.execute(`insert into feature_environments (feature_name, environment, enabled, variants)
      select f.name, pe.environment_name, true, '[{"name":"blue","weight":1000,"weightType":"variable","stickiness":"default","overrides":[]}]'::jsonb
        from features f join project_environments pe on pe.project_id = f.project where f.project = 'gqc-big'`);
    await em.execute(`insert into feature_strategies (id, feature_name, project, environment, strategy_name, parameters, constraints, variants, sort_order)
      select gen_random_uuid(), fe.feature_name, 'gqc-big', fe.environment, 'flexibleRollout', '{"rollout":"50","stickiness":"default","groupId":"g"}'::jsonb,
             '[{"contextName":"userId","operator":"IN","values":["a","b"],"inverted":false,"caseInsensitive":false},{"contextName":"appName","operator":"NOT_IN","values":["x"],"inverted":false,"caseInsensitive":false}]'::jsonb,
             '[{"name":"on","weight":500,"weightType":"variable","stickiness":"default"},{"name":"off","weight":500,"weightType":"variable","stickiness":"default"}]'::jsonb, s
        from feature_environments fe join features f on f.name = fe.feature_name, generate_series(0, 1) s where f.project = 'gqc-big'`);
    const data = await ask(DASHBOARD, { project: 'gqc-big' });
    const nodes = data.project.features.nodes;
    expect(nodes).toHaveLength(1000);
    expect(nodes[999].environments[0].strategies).toHaveLength(2);
    expect(nodes[999].environments[0].strategies[0].constraints).toHaveLength(2);
  });
});

describe('the response cache', () => {
  it('answers a repeated dashboard query without executing it: at most the model_version read runs', async () => {
    await served();
    const hits = await cachedCount();
    app.resetQueryCount();
    await served();
    expect(await cachedCount()).toBe(hits + 1);
    expect(app.queries.length).toBeLessThanOrEqual(1);
    for (const q of app.queries) expect(q).toMatch(/model_version/);
  });

  it('changes as soon as a change it shows commits', async () => {
    let strategyId = '';
    const strategies = `${FEATURE_PATH('gqc-a')}/environments/development/strategies`;
    await expectSeen('strategy added', async () => {
      strategyId = (await ok(app.post(strategies, { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'gqc-a' } }))).body.id;
    });
    await expectSeen('strategy edited', () => ok(app.put(`${strategies}/${strategyId}`, {
      name: 'flexibleRollout', parameters: { rollout: '75', stickiness: 'default', groupId: 'gqc-a' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1'] }],
    })));
    await expectSeen('environment switched on', () => ok(app.post(`${FEATURE_PATH('gqc-a')}/environments/development/on`)));
    await expectSeen('environment switched off', () => ok(app.post(`${FEATURE_PATH('gqc-a')}/environments/development/off`)));
    const segment = (await ok(app.post('/api/admin/segments', { name: 'gqc-seg', constraints: [{ contextName: 'userId', operator: 'IN', values: ['s1'] }] }), 201)).body.id;
    await expectSeen('segment used by the strategy', () => ok(app.put(`${strategies}/${strategyId}`, {
      name: 'flexibleRollout', parameters: { rollout: '75', stickiness: 'default', groupId: 'gqc-a' }, segments: [segment],
    })));
    await expectSeen('segment edited', () => ok(app.put(`/api/admin/segments/${segment}`, { name: 'gqc-seg', constraints: [{ contextName: 'userId', operator: 'IN', values: ['s2'] }] }), 204));
    await expectSeen('environment variants', () => ok(app.put(`${FEATURE_PATH('gqc-a')}/environments/production/variants`,
      [{ name: 'v', weight: 1000, weightType: 'variable', stickiness: 'default' }])));
    await expectSeen('feature created', () => ok(app.post(`/api/admin/projects/${PROJECT}/features`, { name: 'gqc-b' }), 201));
    await expectSeen('feature archived', () => ok(app.del(FEATURE_PATH('gqc-b')), 202));
    await expectSeen('environment switched off for every project', () => ok(app.post('/api/admin/environments/production/off'), 204));
    await expectSeen('environment switched on for every project', () => ok(app.post('/api/admin/environments/production/on'), 204));
  });

  it('sees a change written by hand in the database (any writer moves the counter)', async () => {
    await expectSeen('stale by SQL', () => app.orm.em.fork().execute(`update features set stale = true where name = 'gqc-a'`));
  });

  it('keeps callers apart: different rights, different answers; a change of rights shows at once', async () => {
    const user = async (username: string) => {
      const id = (await ok(app.post('/api/admin/user-admin', { username, password: 'Gql-Cache-42', rootRole: 'Viewer' }), 201)).body.id as number;
      const login = await app.post('/auth/simple/login', { username, password: 'Gql-Cache-42' }, { token: null });
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
      const token = (await ok(app.post('/api/admin/user/tokens', { description: 'gqc', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } }), 201)).body.secret as string;
      return { id, token };
    };
    const member = await user('gqc-member');
    const outsider = await user('gqc-outsider');
    await ok(app.put(`/api/admin/projects/${PROJECT}/users/${member.id}/roles`, { roles: [5] }));
    const mine = `{ me { allowed(project: "${PROJECT}") } project(id: "${PROJECT}") { features(first: 10) { nodes { name } } } }`;
    const asMember = await ask(mine, {}, member.token);
    const asOutsider = await ask(mine, {}, outsider.token);
    expect(asMember.me.allowed).toContain('UPDATE_FEATURE');
    expect(asOutsider.me.allowed).not.toContain('UPDATE_FEATURE');
    // Each caller's answer is cached for that caller only.
    let hits = await cachedCount();
    expect(await ask(mine, {}, member.token)).toEqual(asMember);
    expect(await ask(mine, {}, outsider.token)).toEqual(asOutsider);
    expect(await cachedCount()).toBe(hits + 2);
    // The outsider joins the project: the next answer shows it, though no feature changed.
    await ok(app.put(`/api/admin/projects/${PROJECT}/users/${outsider.id}/roles`, { roles: [5] }));
    hits = await cachedCount();
    const joined = await ask(mine, {}, outsider.token);
    expect(joined.me.allowed).toContain('UPDATE_FEATURE');
    expect(await cachedCount()).toBe(hits);
  });

  it('never caches mutations, audit events or fields outside the allow-list', async () => {
    const hits = await cachedCount();
    const rename = 'mutation($d: String!) { updateFeature(input: { project: "gqc", feature: "gqc-a", description: $d }) { name description } }';
    expect((await ask(rename, { d: 'same' })).updateFeature.description).toBe('same');
    expect((await ask(rename, { d: 'same' })).updateFeature.description).toBe('same');
    const events = '{ events(first: 1) { nodes { id } } }';
    const first = await ask(events);
    await ok(app.post(`/api/admin/projects/${PROJECT}/features`, { name: 'gqc-events' }), 201);
    expect(await ask(events)).not.toEqual(first);
    await ask('{ project(id: "gqc") { name features(first: 5) { nodes { name lastSeenAt } } } }');
    await ask('{ project(id: "gqc") { name features(first: 5) { nodes { name lastSeenAt } } } }');
    expect(await cachedCount()).toBe(hits);
  });
});

describe('with the model version watched (PostgreSQL, LISTEN)', () => {
  const maybe = itWhen(onPostgres, NEEDS_POSTGRES);
  maybe('a repeated dashboard query runs no statement; a change made elsewhere shows once its notification arrives', async () => {
    const watched = await startTestApp({ events: 'notify', reset: false });
    const byHand = new Client({ connectionString: process.env.DATABASE_URL });
    await byHand.connect();
    try {
      expect(watched.eventHub.modelVersion.watching).toBe(true);
      const ask = async () => {
        const res = await watched.post('/graphql', { query: DASHBOARD, variables: { project: PROJECT } });
        expect(res.body.errors).toBeUndefined();
        return res.body.data;
      };
      const before = await ask();
      await ask();
      watched.resetQueryCount();
      expect(await ask()).toEqual(before);
      expect(watched.queries).toEqual([]);
      const generation = watched.eventHub.modelVersion.generation;
      await byHand.query(`update features set stale = not stale where name = 'gqc-a'`);
      const deadline = Date.now() + 5000;
      while (watched.eventHub.modelVersion.generation === generation && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      const after = await ask();
      expect(after).not.toEqual(before);
      expect(after.project.features.nodes.find((f: { name: string }) => f.name === 'gqc-a').stale).toBe(!before.project.features.nodes.find((f: { name: string }) => f.name === 'gqc-a').stale);
    } finally {
      await byHand.end();
      await watched.close();
    }
  });
});
