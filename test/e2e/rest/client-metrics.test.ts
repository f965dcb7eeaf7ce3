import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Unleash } from 'unleash-client';
import { graphql } from '../../gql';
import { until } from '../../support/until';
import { startTestApp, type TestApp } from '../../support/harness';
import { itWhen, NEEDS_POSTGRES } from '../../support/skip';
import { stopSdk } from '../../support/sdk-harness';

/**
 * Issue 14: what SDKs report. Registrations (`/api/client/register`, `/api/frontend/client/register`) create or update
 * applications and their instances at once; metrics reports (`…/client/metrics`) are summed in memory and written by
 * the flush (every CLIENT_METRICS_FLUSH_MS and at close) in a fixed number of statements; the admin views and their
 * GraphQL twins read them back.
 *
 * The file starts with an app whose flush is far away (nothing is written until it closes), then replaces it with one
 * flushing every 50 ms on the same database.
 */
let app: TestApp;
const tokens: Record<string, string> = {};
const onPostgres = Boolean(process.env.FLAGDECK_TEST_DB);
const FAST_FLUSH = 50;

const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);


const bucket = (toggles: Record<string, { yes?: number; no?: number; variants?: Record<string, number> }>, start = new Date()) => ({
  start: start.toISOString(), stop: new Date(start.getTime() + 10_000).toISOString(), toggles,
});
const report = (appName: string, toggles: Parameters<typeof bucket>[0], extra: Record<string, unknown> = {}) =>
  ({ appName, instanceId: `${appName}-1`, bucket: bucket(toggles), ...extra });
const registration = (appName: string, extra: Record<string, unknown> = {}) =>
  ({ appName, instanceId: `${appName}-1`, sdkVersion: 'unleash-client-node:6.12.1', strategies: ['default', 'flexibleRollout'], started: new Date().toISOString(), interval: 10_000, ...extra });

const hourly = (feature: string) => sql(`select app_name, environment, yes::int, no::int from client_metrics_hourly where feature_name = ? order by app_name, environment`, [feature]);
const lastSeen = async (feature: string) => {
  const res = await app.get(`/api/admin/projects/default/features/${feature}`);
  return Object.fromEntries(res.body.environments.map((e: any) => [e.name, e.lastSeenAt])) as Record<string, string | null>;
};

beforeAll(async () => {
  app = await startTestApp({ metricsFlushMs: 600_000 });
  for (const name of ['cm-a', 'cm-b', 'cm-c', 'cm-d', 'cm-sdk']) {
    const res = await app.post('/api/admin/projects/default/features', { name });
    if (res.status !== 201) throw new Error(`feature ${name}: ${res.status}`);
  }
  const token = async (type: string, environment: string) => {
    const res = await app.post('/api/admin/api-tokens', { tokenName: `cm-${type}-${environment}`, type, environment, projects: ['default'] });
    if (res.status !== 201) throw new Error(`token: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.secret as string;
  };
  tokens.clientDev = await token('client', 'development');
  tokens.clientProd = await token('client', 'production');
  tokens.frontendProd = await token('frontend', 'production');
});
afterAll(async () => { await app.close(); });

describe('validation', () => {
  it('a registration without what Unleash requires is a 400 ValidationError naming the property', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...registration('cm-v'), appName: undefined }, 'appName'],
      [{ ...registration('cm-v'), appName: '' }, 'appName'],
      [{ ...registration('cm-v'), strategies: 'default' }, 'strategies'],
      [{ ...registration('cm-v'), started: 'yesterday' }, 'started'],
      [{ ...registration('cm-v'), interval: undefined }, 'interval'],
      [{ ...registration('cm-v'), interval: -1 }, 'interval'],
      [{ ...registration('cm-v'), sdkVersion: 'x'.repeat(300) }, 'sdkVersion'],
    ];
    for (const [body, path] of cases) {
      for (const url of ['/api/client/register', '/api/frontend/client/register']) {
        const res = await app.post(url, body);
        expect({ url, path, status: res.status, name: res.body.name, at: res.body.details?.[0]?.path }).toEqual({ url, path, status: 400, name: 'ValidationError', at: path });
      }
    }
    expect(await sql(`select * from client_applications where app_name = 'cm-v'`)).toEqual([]);
  });

  it('a malformed report is a 400 ValidationError naming the property; counts are bounded whole numbers', async () => {
    const ok = report('cm-v', { 'cm-a': { yes: 1, no: 2 } });
    const cases: Array<[unknown, string]> = [
      [{ ...ok, appName: undefined }, 'appName'],
      [{ ...ok, bucket: undefined }, 'bucket'],
      [{ ...ok, bucket: { ...ok.bucket, start: 'not a date' } }, 'bucket/start'],
      [{ ...ok, bucket: { ...ok.bucket, stop: undefined } }, 'bucket/stop'],
      [{ ...ok, bucket: { ...ok.bucket, toggles: [] } }, 'bucket/toggles'],
      [report('cm-v', { 'cm-a': { yes: -1 } }), 'bucket/toggles/cm-a/yes'],
      [report('cm-v', { 'cm-a': { no: 1.5 } }), 'bucket/toggles/cm-a/no'],
      [report('cm-v', { 'cm-a': { yes: 2 ** 31 } }), 'bucket/toggles/cm-a/yes'],
      [report('cm-v', { 'cm-a': { yes: '3' as never } }), 'bucket/toggles/cm-a/yes'],
      [report('cm-v', { 'cm-a': { yes: 1, variants: { blue: -2 } } }), 'bucket/toggles/cm-a/variants/blue'],
    ];
    for (const [body, path] of cases) {
      for (const url of ['/api/client/metrics', '/api/frontend/client/metrics']) {
        const res = await app.post(url, body);
        expect({ url, path, status: res.status, name: res.body.name, at: res.body.details?.[0]?.path }).toEqual({ url, path, status: 400, name: 'ValidationError', at: path });
      }
    }
  });

  it('reports served before Express (src/rest/sdk/fast-paths.ts) answer as the Express route does, for good and bad bodies alike', async () => {
    // `/api/client/metrics` is taken by the fast path when its body is plain JSON; `/api/client/metrics/` (a trailing
    // slash, routed by Express to the same handler) never is.
    const send = async (path: string, body: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${app.url}${path}`, { method: 'POST', body, headers: { authorization: tokens.clientDev, 'content-type': 'application/json', ...headers } });
      const text = await res.text();
      const parsed = text ? JSON.parse(text) : undefined;
      if (parsed) delete parsed.id; // a new id per error
      return { status: res.status, type: res.headers.get('content-type'), length: text ? 'some' : 'none', body: parsed };
    };
    const ok = JSON.stringify(report('cm-parity', { 'cm-parity-unknown': { yes: 1 } }));
    const bodies = [
      ok, '{"appName": ', '[]', '{}', JSON.stringify(report('cm-parity', { 'cm-parity-unknown': { yes: -1 } })),
      ok.replace('cm-parity', 'cm-\\u0000'), `${'['.repeat(200)}${']'.repeat(200)}`, ok.replace('"cm-parity"', '"\\ud800"'),
    ];
    for (const body of bodies) {
      for (const headers of [{}, { 'content-type': 'application/json; charset=UTF-8' }, { 'content-type': 'text/plain' }, { 'content-type': 'application/json; charset=latin1' }] as Array<Record<string, string>>) {
        const fast = await send('/api/client/metrics', body, headers);
        expect({ body: body.slice(0, 40), headers, express: await send('/api/client/metrics/', body, headers) }).toEqual({ body: body.slice(0, 40), headers, express: fast });
      }
    }
    expect((await send('/api/client/metrics', ok)).status).toBe(202);
    expect((await send('/api/client/metrics', '{"appName": ')).body.name).toBe('ValidationError');
    const tooLarge = JSON.stringify({ ...report('cm-parity', {}), pad: 'x'.repeat(110_000) });
    expect([(await send('/api/client/metrics', tooLarge)).status, (await send('/api/client/metrics/', tooLarge)).status]).toEqual([413, 413]);
  });

  it('401 without a token; a frontend token cannot use the client API nor a client token the frontend API (403)', async () => {
    const body = report('cm-v', { 'cm-a': { yes: 1 } });
    expect([(await app.post('/api/client/metrics', body, { token: null })).status, (await app.post('/api/client/register', registration('cm-v'), { token: null })).status]).toEqual([401, 401]);
    const refused = [
      await app.post('/api/client/metrics', body, { token: tokens.frontendProd }),
      await app.post('/api/client/register', registration('cm-v'), { token: tokens.frontendProd }),
      await app.post('/api/frontend/client/metrics', body, { token: tokens.clientDev }),
      await app.post('/api/frontend/client/register', registration('cm-v'), { token: tokens.clientDev }),
    ];
    expect(refused.map((r) => [r.status, r.body.name])).toEqual(Array(4).fill([403, 'NoAccessError']));
  });
});

describe('buffered intake (the flush is far away)', () => {
  it('20 reports are answered without touching the database; close() writes their sums in one statement per table', async () => {
    app.resetQueryCount();
    for (let i = 0; i < 20; i++) {
      const res = await app.post('/api/client/metrics', report('cm-buffered', { 'cm-a': { yes: 2, no: 1, variants: { blue: 1, red: 1 } }, 'cm-b': { yes: 1 }, 'cm-unknown': { yes: 5 } }), { token: tokens.clientDev });
      expect(res.status).toBe(202);
    }
    expect(app.queries).toEqual([]);
    expect(await hourly('cm-a')).toEqual([]);
    expect(await lastSeen('cm-a')).toEqual({ development: null, production: null });

    app.resetQueryCount();
    await app.close(); // the flush at shutdown, as src/server.ts stops
    const written = app.queries.filter((q) => /insert into client_metrics_hourly\b/.test(q));
    expect(written).toHaveLength(1);
    expect(app.queries.filter((q) => /insert into client_metrics_hourly_variants/.test(q))).toHaveLength(1);

    // The same database, served from now on by an app flushing every 50 ms.
    app = await startTestApp({ reset: false, metricsFlushMs: FAST_FLUSH });
    expect(await hourly('cm-a')).toEqual([{ app_name: 'cm-buffered', environment: 'development', yes: 40, no: 20 }]);
    expect(await hourly('cm-b')).toEqual([{ app_name: 'cm-buffered', environment: 'development', yes: 20, no: 0 }]);
    expect(await sql(`select variant, count::int from client_metrics_hourly_variants where feature_name = 'cm-a' order by variant`))
      .toEqual([{ variant: 'blue', count: 20 }, { variant: 'red', count: 20 }]);
    // Unknown features are left out, without failing the report.
    expect(await sql(`select * from client_metrics_hourly where feature_name = 'cm-unknown'`)).toEqual([]);
    const seen = await lastSeen('cm-a');
    expect(seen.development).not.toBeNull();
    expect(seen.production).toBeNull();
    // An application first seen through its metrics is created, with its instance, and announced once.
    const apps = (await app.get('/api/admin/metrics/applications')).body.applications.filter((a: any) => a.appName === 'cm-buffered');
    expect(apps).toHaveLength(1);
    expect((await app.events('application-created')).filter((e) => e.data.appName === 'cm-buffered')).toHaveLength(1);
  });
});

describe('the flush', () => {
  it('moves lastSeenAt of the feature environment (and the feature) forward, report after report', async () => {
    expect(await lastSeen('cm-c')).toEqual({ development: null, production: null });
    const before = Date.now();
    await app.post('/api/client/metrics', report('cm-seen', { 'cm-c': { yes: 1 } }), { token: tokens.clientDev });
    const first = await until(async () => (await lastSeen('cm-c')).development, 'lastSeenAt');
    expect(Date.parse(first)).toBeGreaterThanOrEqual(before - 1000);
    await new Promise((r) => setTimeout(r, 20));
    await app.post('/api/client/metrics', report('cm-seen', { 'cm-c': { no: 1 } }), { token: tokens.clientDev });
    const second = await until(async () => { const s = (await lastSeen('cm-c')).development; return s !== first && s; }, 'a later lastSeenAt');
    expect(Date.parse(second)).toBeGreaterThan(Date.parse(first));
    expect((await app.get('/api/admin/projects/default/features/cm-c')).body.lastSeenAt).toBe(second);
    expect((await lastSeen('cm-c')).production).toBeNull();
    // A toggle reported with no evaluation (yes and no 0) is not "seen", as in Unleash.
    await app.post('/api/client/metrics', report('cm-seen', { 'cm-d': { yes: 0, no: 0 } }), { token: tokens.clientDev });
    await new Promise((r) => setTimeout(r, FAST_FLUSH * 4));
    expect(await lastSeen('cm-d')).toEqual({ development: null, production: null });
  });

  it('recording lastSeenAt does not move the model version (client API ETags and playground snapshots stay valid)', async () => {
    const version = async () => Number((await sql('select version from model_version'))[0].version);
    const v0 = await version();
    await app.post('/api/client/metrics', report('cm-version', { 'cm-c': { yes: 3 } }), { token: tokens.clientDev });
    await until(async () => (await hourly('cm-c')).some((r) => r.app_name === 'cm-version'), 'the flush');
    expect(await version()).toBe(v0);
    // ...while a real change does.
    await app.post('/api/admin/projects/default/features/cm-c/environments/development/on', {});
    expect(await version()).toBeGreaterThan(v0);
    // Every other column of the two tables still moves it, who created a feature aside (a column added later must join the trigger).
    const uncovered = await sql(`
      select c.table_name, c.column_name from information_schema.columns c
       where c.table_schema = current_schema() and c.table_name in ('features', 'feature_environments') and c.column_name not in ('last_seen_at', 'created_by_user_id')
         and not exists (select 1 from pg_trigger t join pg_attribute a on a.attrelid = t.tgrelid and a.attnum = any(t.tgattr::int2[])
                          where t.tgrelid = c.table_name::regclass and t.tgname = c.table_name || '_model_version' and a.attname = c.column_name)`);
    expect(uncovered).toEqual([]);
  });

  it('a client token counts in its own environment, whatever the body says; an admin token in the body\'s or `default`', async () => {
    await app.post('/api/client/metrics', report('cm-scope', { 'cm-d': { yes: 1 } }, { environment: 'development' }), { token: tokens.clientProd });
    await app.post('/api/frontend/client/metrics', report('cm-scope-fe', { 'cm-d': { yes: 2 } }, { environment: 'development' }), { token: tokens.frontendProd });
    await app.post('/api/client/metrics', report('cm-scope-admin', { 'cm-d': { yes: 3 } }, { environment: 'development' }));
    await app.post('/api/client/metrics', report('cm-scope-default', { 'cm-d': { yes: 4 } }));
    const rows = await until(async () => { const r = await hourly('cm-d'); return r.length === 4 && r; }, 'four rows');
    expect(rows).toEqual([
      { app_name: 'cm-scope', environment: 'production', yes: 1, no: 0 },
      { app_name: 'cm-scope-admin', environment: 'development', yes: 3, no: 0 },
      { app_name: 'cm-scope-default', environment: 'default', yes: 4, no: 0 },
      { app_name: 'cm-scope-fe', environment: 'production', yes: 2, no: 0 },
    ]);
    expect((await lastSeen('cm-d')).production).not.toBeNull();
  });

  it("a token's report counts only for features of its projects: another project's feature gets no usage, no lastSeenAt, no application (issue 27, defect 5)", async () => {
    await app.post('/api/admin/projects', { id: 'cm-beta', name: 'Beta' });
    await app.post('/api/admin/projects/cm-beta/environments', { environment: 'development' });
    await app.post('/api/admin/projects/cm-beta/features', { name: 'cm-beta-f' });
    // tokens.clientDev reads project `default` only; the same report also counts a feature of its own project.
    const answer = await app.post('/api/client/metrics', report('cm-outsider', { 'cm-beta-f': { yes: 1000, variants: { blue: 1000 } }, 'cm-a': { yes: 1 }, 'cm-unknown': { yes: 5 } }), { token: tokens.clientDev });
    expect(answer.status).toBe(202);
    // Summed apart from, and written in the same flush as, an admin token's report of the same feature and hour.
    await app.post('/api/client/metrics', report('cm-outsider', { 'cm-beta-f': { yes: 2 } }, { environment: 'development' }));
    const rows = await until(async () => { const r = await hourly('cm-a'); return r.some((x) => x.app_name === 'cm-outsider') && r; }, 'the flush');
    expect(rows.filter((x) => x.app_name === 'cm-outsider')).toEqual([{ app_name: 'cm-outsider', environment: 'development', yes: 1, no: 0 }]);
    await until(async () => (await hourly('cm-beta-f')).length > 0, 'the admin report');
    expect(await hourly('cm-beta-f')).toEqual([{ app_name: 'cm-outsider', environment: 'development', yes: 2, no: 0 }]);
    expect(await sql(`select variant from client_metrics_hourly_variants where feature_name = 'cm-beta-f'`)).toEqual([]);
    expect(await hourly('cm-unknown')).toEqual([]);
    // The client token alone never marks the other project's feature seen.
    await app.post('/api/admin/projects/cm-beta/features', { name: 'cm-beta-g' });
    await app.post('/api/client/metrics', report('cm-outsider', { 'cm-beta-g': { yes: 7 }, 'cm-b': { yes: 1 } }), { token: tokens.clientDev });
    await until(async () => (await hourly('cm-b')).some((x) => x.app_name === 'cm-outsider'), 'the second flush');
    expect(await hourly('cm-beta-g')).toEqual([]);
    const g = (await app.get('/api/admin/projects/cm-beta/features/cm-beta-g')).body;
    expect([g.lastSeenAt, ...g.environments.map((e: any) => e.lastSeenAt)].filter((at) => at !== null)).toEqual([]);
    expect((await app.get('/api/admin/client-metrics/features/cm-beta-g')).body.seenApplications).toEqual([]);
  });

  it('a flush that fails keeps its counts for the next one, and the service keeps answering', async () => {
    await sql('alter table client_metrics_hourly rename to client_metrics_hourly_away');
    try {
      for (let i = 0; i < 3; i++) expect((await app.post('/api/client/metrics', report('cm-retry', { 'cm-b': { yes: 1, no: 1 } }), { token: tokens.clientDev })).status).toBe(202);
      await new Promise((r) => setTimeout(r, FAST_FLUSH * 5)); // several failed flushes
      expect((await app.get('/health')).status).toBe(200);
      await app.post('/api/client/metrics', report('cm-retry', { 'cm-b': { yes: 1 } }), { token: tokens.clientDev });
    } finally {
      await sql('alter table client_metrics_hourly_away rename to client_metrics_hourly');
    }
    // The retried batch and the last report may land in one flush or in two (a flush under way as the table came back
    // writes what it took; the last report follows 50 ms later): wait for all of it, then compare.
    const row = () => hourly('cm-b').then((rows) => rows.find((r) => r.app_name === 'cm-retry'));
    await until(async () => { const r = await row(); return r && r.yes + r.no >= 7; }, 'the retried counts').catch(() => undefined);
    expect(await row()).toEqual({ app_name: 'cm-retry', environment: 'development', yes: 4, no: 3 });
  });

  it('a flush is a fixed number of statements, whatever the number of features and applications in it', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `cm-many-${i}`);
    await sql(`insert into features (name, project) select n, 'default' from unnest(?::text[]) n`, [`{${names.join(',')}}`]);
    const apps = ['cm-few', 'cm-lots-1', 'cm-lots-2', 'cm-lots-3'];
    for (const a of apps) await app.post('/api/client/register', registration(a), { token: tokens.clientDev }); // no application-created in the flushes
    /** The statements of each flush transaction while `apps` report `toggles` (reads by the test itself left out). */
    const flushes = async (toggles: Record<string, { yes: number }>, reporters: string[]) => {
      await new Promise((r) => setTimeout(r, FAST_FLUSH * 3)); // nothing pending
      app.resetQueryCount();
      for (const a of reporters) await app.post('/api/client/metrics', report(a, toggles), { token: tokens.clientDev });
      const last = Object.keys(toggles).at(-1)!;
      await until(async () => (await hourly(last)).filter((r) => reporters.includes(r.app_name)).length === reporters.length, 'the flush');
      const transactions: string[][] = [];
      let open: string[] | undefined;
      for (const q of app.queries) {
        if (q === 'BEGIN;') open = [];
        else if (q === 'COMMIT;' && open) { transactions.push(open); open = undefined; }
        else if (open && (!q.startsWith('select ') || q.includes('for no key update') || q.includes('unknown_flags_record('))) open.push(q);
      }
      return transactions.map((t) => t.length);
    };
    const [small] = await flushes({ 'cm-many-0': { yes: 1 } }, ['cm-few']);
    const large = await flushes(Object.fromEntries(names.map((n) => [n, { yes: 1 }])), ['cm-lots-1', 'cm-lots-2', 'cm-lots-3']);
    expect(small).toBe(11); // the lock, lastSeenAt of features and environments, the lifecycle stages reports enter, counts, unknown flags, applications (2), instances, pruning (2)
    expect(new Set(large)).toEqual(new Set([small]));
  });

  it('counts are pruned after the retention (default 30 days, for the exposure charts), silent instances after two days', async () => {
    const at = (hours: number) => `date_trunc('hour', now() - interval '${hours} hours')`;
    await sql(`insert into client_applications (app_name, created_by) values ('cm-old', 'test')`);
    await sql(`insert into client_instances (app_name, environment, instance_id, seen_at) values ('cm-old', 'development', 'i', now() - interval '49 hours')`);
    await sql(`insert into client_metrics_hourly (feature_name, app_name, environment, hour, yes, no) values ('cm-a', 'cm-old', 'development', ${at(722)}, 5, 5)`);
    await sql(`insert into client_metrics_hourly_variants (feature_name, app_name, environment, hour, variant, count) values ('cm-a', 'cm-old', 'development', ${at(722)}, 'v', 5)`);
    await sql(`insert into client_metrics_hourly (feature_name, app_name, environment, hour, yes, no) values ('cm-a', 'cm-old', 'development', ${at(49)}, 1, 1)`);
    await sql(`insert into client_metrics_hourly (feature_name, app_name, environment, hour, yes, no) values ('cm-a', 'cm-old', 'development', ${at(718)}, 2, 2)`);
    await app.post('/api/client/metrics', report('cm-prune', { 'cm-a': { yes: 1 } }), { token: tokens.clientDev });
    await until(async () => (await sql(`select 1 from client_instances where app_name = 'cm-old'`)).length === 0, 'pruning');
    const left = await sql(`select yes::int from client_metrics_hourly where app_name = 'cm-old' order by hour`);
    expect(left).toEqual([{ yes: 2 }, { yes: 1 }]);
    expect(await sql(`select * from client_metrics_hourly_variants where app_name = 'cm-old'`)).toEqual([]);
  });

  itWhen(onPostgres, NEEDS_POSTGRES)('two instances flushing the same keys add up (PostgreSQL)', async () => {
    const other = await startTestApp({ reset: false, metricsFlushMs: FAST_FLUSH });
    try {
      const sends: Array<Promise<unknown>> = [];
      for (let i = 0; i < 25; i++) {
        for (const target of [app, other]) sends.push(target.post('/api/client/metrics', report('cm-two', { 'cm-a': { yes: 1, no: 2, variants: { blue: 1 } }, 'cm-b': { yes: 3 } }), { token: tokens.clientDev }));
      }
      await Promise.all(sends);
    } finally {
      await other.close();
    }
    await until(async () => (await hourly('cm-b')).find((r) => r.app_name === 'cm-two' && r.yes === 150), 'both instances\' counts');
    expect((await hourly('cm-a')).find((r) => r.app_name === 'cm-two')).toEqual({ app_name: 'cm-two', environment: 'development', yes: 50, no: 100 });
    expect(await sql(`select count::int from client_metrics_hourly_variants where app_name = 'cm-two'`)).toEqual([{ count: 50 }]);
    expect((await app.events('application-created')).filter((e) => e.data.appName === 'cm-two')).toHaveLength(1);
  });
});

describe('registration', () => {
  it('creates the application and its instance (202); concurrent registrations write application-created once', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => app.post('/api/client/register', registration('cm-reg', { instanceId: `cm-reg-${i % 2}` }), { token: tokens.clientDev })));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(202));
    const events = (await app.events('application-created')).filter((e) => e.data.appName === 'cm-reg');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ createdBy: 'cm-client-development', data: { appName: 'cm-reg', strategies: ['default', 'flexibleRollout'] } });
    const details = (await app.get('/api/admin/metrics/applications/cm-reg')).body;
    expect(details.instances.map((i: any) => [i.instanceId, i.environment, i.sdkVersion, i.interval]).sort()).toEqual([
      ['cm-reg-0', 'development', 'unleash-client-node:6.12.1', 10_000], ['cm-reg-1', 'development', 'unleash-client-node:6.12.1', 10_000]]);
    expect(details.strategies.map((s: any) => s.name)).toEqual(['default', 'flexibleRollout']);
    expect(details.links).toEqual({ self: '/api/applications/cm-reg' });
    // Registering again updates the strategies (the latest registration's) and writes no event.
    await app.post('/api/client/register', registration('cm-reg', { strategies: ['default', 'my-custom'] }), { token: tokens.clientDev });
    const again = (await app.get('/api/admin/metrics/applications/cm-reg')).body;
    expect(again.strategies).toEqual([expect.objectContaining({ name: 'default' }), { name: 'my-custom', notFound: true }]);
    expect((await app.events('application-created')).filter((e) => e.data.appName === 'cm-reg')).toHaveLength(1);
    // No client-register event: Unleash v5.8 only announces it to its in-process listeners.
    expect(await app.events('client-register')).toEqual([]);
  });

  it('a frontend registration answers 200 (as Unleash v5.8) and counts in the token\'s environment', async () => {
    const res = await app.post('/api/frontend/client/register', registration('cm-fe', { environment: 'development' }), { token: tokens.frontendProd });
    expect(res.status).toBe(200);
    const details = (await app.get('/api/admin/metrics/applications/cm-fe')).body;
    expect(details.instances.map((i: any) => i.environment)).toEqual(['production']);
  });
});

const GqlCmApplications = graphql(`
  query GqlCmApplications {
    applications {
      appName description url color icon strategies createdAt updatedAt createdBy lastSeen usage { project environments }
      instances { appName instanceId environment sdkVersion clientIp started interval createdAt lastSeen }
      seenToggles
    }
  }
`);
const GqlCmApplication = graphql(`query GqlCmApplication($appName: String!) { application(appName: $appName) { appName strategies instances { instanceId } seenToggles } }`);
const GqlCmFeatureUsage = graphql(`query GqlCmFeatureUsage($feature: String!) { featureUsage(feature: $feature) { featureName lastHourUsage { environment timestamp yes no } seenApplications } }`);
const GqlCmFeatureMetrics = graphql(`
  query GqlCmFeatureMetrics($hours: Int) {
    features(filter: { query: "cm-" }, first: 50) { nodes { name metrics(hours: $hours) { featureName appName environment timestamp yes no variants } } }
  }
`);
const GqlCmUpdateApplication = graphql(`mutation GqlCmUpdateApplication($input: UpdateApplicationInput!) { updateApplication(input: $input) { appName description url color icon } }`);
const GqlCmDeleteApplication = graphql(`mutation GqlCmDeleteApplication($input: ApplicationNameInput!) { deleteApplication(input: $input) }`);

describe('the admin views and their GraphQL twins', () => {
  beforeAll(async () => {
    await app.post('/api/client/register', registration('cm-view'), { token: tokens.clientDev });
    await app.post('/api/client/metrics', report('cm-view', { 'cm-a': { yes: 7, no: 3, variants: { blue: 7 } }, 'cm-c': { no: 2 } }), { token: tokens.clientDev });
    await app.post('/api/client/metrics', report('cm-view', { 'cm-a': { yes: 1 } }), { token: tokens.clientProd });
    await until(async () => (await hourly('cm-a')).filter((r) => r.app_name === 'cm-view').length === 2, 'the flush');
  });

  it('GET /api/admin/metrics/applications lists every application; GraphQL `applications` says the same', async () => {
    const rest = (await app.get('/api/admin/metrics/applications')).body.applications;
    const view = rest.find((a: any) => a.appName === 'cm-view');
    expect(view).toMatchObject({ appName: 'cm-view', strategies: ['default', 'flexibleRollout'], createdBy: 'cm-client-development', description: null });
    expect(view.usage).toEqual([{ project: 'default', environments: ['development', 'production'] }]);
    const answer = await app.gql(GqlCmApplications);
    expect(answer.body.errors).toBeUndefined();
    const apps = answer.body.data!.applications;
    expect(apps.map(({ instances: _i, seenToggles: _s, ...a }) => a)).toEqual(rest);
    const g = apps.find((a) => a.appName === 'cm-view')!;
    const details = (await app.get('/api/admin/metrics/applications/cm-view')).body;
    expect(g.instances).toEqual(details.instances);
    expect(g.seenToggles).toEqual(details.seenToggles.map((f: any) => f.name));
    expect(g.seenToggles).toEqual(['cm-a', 'cm-c']);
    expect(details.seenToggles[0]).toMatchObject({ name: 'cm-a', project: 'default', type: 'release' });
    // The strategy filter, on both doors.
    const filtered = (await app.get('/api/admin/metrics/applications?strategyName=my-custom')).body.applications.map((a: any) => a.appName);
    expect(filtered).toEqual(['cm-reg']);
    const one = await app.gql(GqlCmApplication, { appName: 'cm-view' });
    expect(one.body.data!.application).toEqual({ appName: 'cm-view', strategies: g.strategies, instances: g.instances.map((i) => ({ instanceId: i.instanceId })), seenToggles: g.seenToggles });
  });

  it('404 NotFoundError for an unknown application, on both doors', async () => {
    const res = await app.get('/api/admin/metrics/applications/cm-nobody');
    expect([res.status, res.body.name]).toEqual([404, 'NotFoundError']);
    const answer = await app.gql(GqlCmApplication, { appName: 'cm-nobody' });
    expect(answer.body.errors?.[0].extensions.name).toBe('NotFoundError');
  });

  it('GET /api/admin/client-metrics/features/:name: the last hour per environment and the applications seen; GraphQL `featureUsage` the same', async () => {
    const res = await app.get('/api/admin/client-metrics/features/cm-a');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 1, maturity: 'stable', featureName: 'cm-a' });
    const dev = res.body.lastHourUsage.find((u: any) => u.environment === 'development');
    const [{ yes, no }] = await sql(`select sum(yes)::int as yes, sum(no)::int as no from client_metrics_hourly where feature_name = 'cm-a' and environment = 'development' and hour >= now() - interval '1 hour'`);
    expect(dev).toMatchObject({ yes, no });
    expect(res.body.lastHourUsage.find((u: any) => u.environment === 'production')).toMatchObject({ yes: 1, no: 0 });
    expect(res.body.seenApplications).toEqual(expect.arrayContaining(['cm-buffered', 'cm-view']));
    const answer = await app.gql(GqlCmFeatureUsage, { feature: 'cm-a' });
    const { version: _v, maturity: _m, ...usage } = res.body;
    expect(answer.body.data!.featureUsage).toEqual(usage);
    const unknown = await app.get('/api/admin/client-metrics/features/cm-nothing');
    expect(unknown.body).toEqual({ version: 1, maturity: 'stable', featureName: 'cm-nothing', lastHourUsage: [], seenApplications: [] });
  });

  it('…/raw: hour by hour per environment and application (hoursBack 1..48, default 24); GraphQL `Feature.metrics(hours)` the same, in one statement for every feature', async () => {
    const raw = (await app.get('/api/admin/client-metrics/features/cm-a/raw?hoursBack=48')).body;
    expect(raw).toMatchObject({ version: 1, maturity: 'stable' });
    const combos = new Set(raw.data.map((d: any) => `${d.environment}/${d.appName}`));
    expect(raw.data).toHaveLength(48 * combos.size);
    const current = raw.data.filter((d: any) => d.appName === 'cm-view' && d.environment === 'development' && d.yes > 0);
    expect(current).toEqual([expect.objectContaining({ featureName: 'cm-a', yes: 7, no: 3, variants: { blue: 7 } })]);
    expect(raw.data.map((d: any) => d.timestamp)).toEqual([...raw.data.map((d: any) => d.timestamp)].sort());
    // The default (and what an out-of-range hoursBack falls back to) is 24 hours: those combinations that reported in them.
    const day = (await app.get('/api/admin/client-metrics/features/cm-a/raw')).body.data;
    expect(day).toHaveLength(24 * new Set(day.map((d: any) => `${d.environment}/${d.appName}`)).size);
    expect((await app.get('/api/admin/client-metrics/features/cm-a/raw?hoursBack=500')).body.data).toEqual(day);
    expect((await app.get('/api/admin/client-metrics/features/cm-a/raw?hoursBack=1')).body.data.every((d: any) => d.timestamp === day[day.length - 1].timestamp)).toBe(true);

    app.resetQueryCount();
    const answer = await app.gql(GqlCmFeatureMetrics, { hours: 48 });
    expect(answer.body.errors).toBeUndefined();
    expect(app.queries.filter((q) => q.includes('from client_metrics_hourly m'))).toHaveLength(1);
    const nodes = answer.body.data!.features.nodes;
    expect(nodes.find((n) => n.name === 'cm-a')!.metrics).toEqual(raw.data);
    expect(nodes.find((n) => n.name === 'cm-sdk')!.metrics).toEqual([]);
    const bad = await app.gql(GqlCmFeatureMetrics, { hours: 49 });
    expect(bad.body.errors?.[0].extensions).toMatchObject({ name: 'ValidationError' });
  });

  it('POST /api/admin/metrics/applications/:appName creates or changes an application (UPDATE_APPLICATION); DELETE removes it', async () => {
    const created = await app.post('/api/admin/metrics/applications/cm-admin-made', { description: 'Made by hand', url: 'https://cm.example', color: 'red' });
    expect(created.status).toBe(202);
    expect((await app.events('application-created')).filter((e) => e.data.appName === 'cm-admin-made')).toHaveLength(1);
    const changed = await app.gql(GqlCmUpdateApplication, { input: { appName: 'cm-admin-made', icon: 'flag', description: null } });
    expect(changed.body.data!.updateApplication).toEqual({ appName: 'cm-admin-made', description: null, url: 'https://cm.example', color: 'red', icon: 'flag' });
    const bad = await app.post('/api/admin/metrics/applications/cm-admin-made', { colour: 'blue' });
    expect([bad.status, bad.body.name, bad.body.details[0].path]).toEqual([400, 'ValidationError', 'colour']);
    expect((await app.del('/api/admin/metrics/applications/cm-admin-made')).status).toBe(200);
    expect((await app.get('/api/admin/metrics/applications/cm-admin-made')).status).toBe(404);
    expect((await app.del('/api/admin/metrics/applications/cm-admin-made')).body.name).toBe('NotFoundError');
    const gone = await app.gql(GqlCmDeleteApplication, { input: { appName: 'cm-admin-made' } });
    expect(gone.body.errors?.[0].extensions.name).toBe('NotFoundError');
    // A Viewer may read the views but not change applications.
    await app.post('/api/admin/user-admin', { username: 'cm-viewer', password: 'Viewer-Pass-42', rootRole: 'Viewer' });
    const login = await app.post('/auth/simple/login', { username: 'cm-viewer', password: 'Viewer-Pass-42' }, { token: null });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const asViewer = { token: null, headers: { cookie, 'content-type': 'application/json' } };
    expect((await app.get('/api/admin/metrics/applications', asViewer)).status).toBe(200);
    const refused = await app.del('/api/admin/metrics/applications/cm-view', asViewer);
    expect([refused.status, refused.body.name, refused.body.permissions]).toEqual([403, 'NoAccessError', ['UPDATE_APPLICATION']]);
  });
});

describe('the official Node SDK (unleash-client)', () => {
  it('reads the flag from the client API, registers, and its metrics reach the views: lastSeenAt, the application, the feature\'s counts', async () => {
    expect((await app.post('/api/admin/projects/default/features/cm-sdk/environments/development/on')).status).toBe(200);
    const sdk = new Unleash({
      url: `${app.url}/api`, appName: 'cm-node-sdk', instanceId: 'cm-node-1', customHeaders: { Authorization: tokens.clientDev },
      metricsInterval: 200, refreshInterval: 60_000, skipInstanceCountWarning: true,
    });
    sdk.on('error', () => {});
    sdk.on('warn', () => {});
    try {
      const registered = new Promise((resolve) => sdk.once('registered', resolve));
      const synchronized = new Promise((resolve) => sdk.once('synchronized', resolve));
      const sent = new Promise((resolve) => sdk.once('sent', resolve));
      await registered;
      await synchronized;
      for (let i = 0; i < 5; i++) expect(sdk.isEnabled('cm-sdk')).toBe(true);
      sdk.getVariant('cm-sdk');
      await sent;
    } finally {
      stopSdk(sdk);
    }
    const counted = await until(async () => (await hourly('cm-sdk')).find((r) => r.app_name === 'cm-node-sdk'), 'the SDK\'s counts');
    expect(counted.environment).toBe('development');
    expect([counted.yes, counted.no]).toEqual([6, 0]);
    expect((await lastSeen('cm-sdk')).development).not.toBeNull();
    const details = (await app.get('/api/admin/metrics/applications/cm-node-sdk')).body;
    expect(details.instances).toEqual([expect.objectContaining({ instanceId: 'cm-node-1', environment: 'development', sdkVersion: expect.stringMatching(/^unleash-[a-z-]+:6\.12\.1$/), interval: 200 })]);
    expect(details.strategies.map((s: any) => s.name)).toEqual(expect.arrayContaining(['default', 'flexibleRollout']));
    expect(details.seenToggles.map((f: any) => f.name)).toEqual(['cm-sdk']);
    const usage = (await app.get('/api/admin/client-metrics/features/cm-sdk')).body;
    expect(usage.seenApplications).toEqual(['cm-node-sdk']);
    expect(usage.lastHourUsage).toEqual([expect.objectContaining({ environment: 'development', yes: counted.yes, no: counted.no })]);
  });
});
