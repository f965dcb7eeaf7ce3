import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphql } from '../../gql';
import type { ExposureTestQueryVariables } from '../../gql/graphql';
import { startTestApp, type TestApp } from '../../support/harness';
import { until } from '../../support/until';

/**
 * Issue 44, item 1: a flag's exposure chart in one GraphQL field. SDK metrics come through `POST /api/client/metrics`
 * (the current hour) and as rows written straight into client_metrics_hourly for earlier hours (as a running SDK would
 * have left them); a switch and a strategy change are made between those hours (their events moved back to the hour
 * they stand for). Then `Feature.exposure` must answer the hours' counts per environment, the two changes at their
 * hours, the filters, days, one statement per part for a whole list, and a 400 ValidationError for a bad window.
 */
let app: TestApp;
const HOUR = 3_600_000;
/** The hour the SDK report counts in, and the ones before it. */
let h: number;
const at = (hoursBefore: number, minutes = 0) => new Date(h - hoursBefore * HOUR + minutes * 60_000).toISOString();
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);

const Exposure = graphql(`
  query ExposureTest($name: String!, $hoursBack: Int, $from: DateTime, $to: DateTime, $granularity: ExposureGranularity, $appName: String, $environment: String, $timeZone: String) {
    feature(name: $name) {
      exposure(hoursBack: $hoursBack, from: $from, to: $to, granularity: $granularity, appName: $appName, environment: $environment, timeZone: $timeZone) {
        from to granularity periods totals environments applications
        buckets { timestamp environment yes no variants { name count } }
        changes { id type createdAt environment createdBy }
      }
    }
  }
`);

const ListSparklines = graphql(`
  query ExposureTestList { project(id: "default") { features(first: 100) { nodes { name exposure(hoursBack: 24) { totals } } } } }
`);

async function insertHour(hoursBefore: number, app_: string, environment: string, yes: number, no: number, variants: Record<string, number> = {}) {
  await sql(`insert into client_metrics_hourly (feature_name, app_name, environment, hour, yes, no) values ('exp-a', ?, ?, ?, ?, ?)`, [app_, environment, at(hoursBefore), yes, no]);
  for (const [variant, count] of Object.entries(variants)) {
    await sql(`insert into client_metrics_hourly_variants (feature_name, app_name, environment, hour, variant, count) values ('exp-a', ?, ?, ?, ?, ?)`, [app_, environment, at(hoursBefore), variant, count]);
  }
}

/** Moves an event back to the time it stands for in this story. */
async function backdate(type: string, time: string): Promise<number> {
  const [row] = await sql(`update events set created_at = ? where id = (select max(id) from events where feature_name = 'exp-a' and type = ?) returning id`, [time, type]);
  return Number(row.id);
}

let enabledId: number;
let strategyId: number;

beforeAll(async () => {
  app = await startTestApp({ metricsFlushMs: 50 });
  for (const name of ['exp-a', 'exp-b']) expect((await app.post('/api/admin/projects/default/features', { name })).status).toBe(201);
  const token = await app.post('/api/admin/api-tokens', { tokenName: 'exp-sdk', type: 'client', environment: 'development', projects: ['default'] });
  expect(token.status).toBe(201);

  // The SDK's report: counted in the hour its bucket starts.
  const start = new Date();
  h = Math.floor(start.getTime() / HOUR) * HOUR;
  const report = await app.post('/api/client/metrics', {
    appName: 'exp-sdk', instanceId: 'exp-sdk-1',
    bucket: { start: start.toISOString(), stop: new Date(start.getTime() + 10_000).toISOString(), toggles: { 'exp-a': { yes: 7, no: 3, variants: { blue: 4, green: 3 } }, 'exp-b': { yes: 2 } } },
  }, { token: token.body.secret });
  expect(report.status).toBe(202);
  await until(async () => (await sql(`select 1 from client_metrics_hourly where feature_name = 'exp-a'`)).length > 0, 'the flush');

  // Earlier hours, as SDKs left them: three hours ago, two hours ago (two applications, one in production), and 30
  // hours ago (outside a 24-hour window).
  await insertHour(3, 'exp-sdk', 'development', 40, 10);
  await insertHour(2, 'exp-sdk', 'development', 25, 5, { blue: 15, green: 10 });
  await insertHour(2, 'exp-other', 'production', 3, 0);
  await insertHour(30, 'exp-sdk', 'development', 100, 0);

  // Before the window: the flag got its strategy (so switching it on adds none of its own).
  const path = '/api/admin/projects/default/features/exp-a/environments/development';
  const strategy = await app.post(`${path}/strategies`, { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'exp-a' } });
  expect(strategy.status).toBe(200);
  await backdate('feature-strategy-add', at(40));
  // Between the hours: the flag switched on in development 2 h 20 min ago, and its rollout changed 50 minutes later.
  expect((await app.post(`${path}/on`)).status).toBe(200);
  enabledId = await backdate('feature-environment-enabled', at(2, 20));
  expect((await app.put(`${path}/strategies/${strategy.body.id}`, { name: 'flexibleRollout', parameters: { rollout: '80', stickiness: 'default', groupId: 'exp-a' } })).status).toBe(200);
  strategyId = await backdate('feature-strategy-update', at(1, 10));
  // A change of another kind is not a marker.
  expect((await app.post('/api/admin/features/exp-a/stale/on')).status).toBe(200);
});
afterAll(async () => { await app.close(); });

const exposure = async (variables: Omit<ExposureTestQueryVariables, 'name'>, name = 'exp-a') => {
  const res = await app.gql(Exposure, { name, ...variables });
  expect(res.body.errors).toBeUndefined();
  return res.body.data!.feature.exposure;
};

describe('Feature.exposure', () => {
  it('answers each hour\'s counts per environment, the variants, the totals and the two changes at their hours', async () => {
    const e = await exposure({ from: at(3), to: at(-1) });
    expect([e.from, e.to, e.granularity]).toEqual([at(3), at(-1), 'hour']);
    expect(e.periods).toEqual([at(3), at(2), at(1), at(0)]);
    expect(e.environments).toEqual(['development', 'production']);
    expect(e.applications).toEqual(['exp-other', 'exp-sdk']);
    const rows = e.buckets.map((b) => [b.environment, b.timestamp, b.yes, b.no, b.variants.map((v) => `${v.name}:${v.count}`).join(' ')]);
    expect(rows).toEqual([
      ['development', at(3), 40, 10, ''],
      ['development', at(2), 25, 5, 'blue:15 green:10'],
      ['development', at(1), 0, 0, ''],
      ['development', at(0), 7, 3, 'blue:4 green:3'],
      ['production', at(3), 0, 0, ''],
      ['production', at(2), 3, 0, ''],
      ['production', at(1), 0, 0, ''],
      ['production', at(0), 0, 0, ''],
    ]);
    expect(e.totals).toEqual([50, 33, 0, 10]);
    expect(e.changes.map((c) => [c.id, c.type, c.createdAt, c.environment])).toEqual([
      [enabledId, 'feature-environment-enabled', at(2, 20), 'development'],
      [strategyId, 'feature-strategy-update', at(1, 10), 'development'],
    ]);
  });

  it('hoursBack counts back from the current hour; 24 hours leave out the count of 30 hours ago', async () => {
    const e = await exposure({ hoursBack: 24 });
    expect(e.periods).toHaveLength(24);
    const now = Math.floor(Date.now() / HOUR) * HOUR;
    expect(e.periods[23]).toBe(new Date(now).toISOString());
    expect(e.totals.reduce((a, b) => a + b, 0)).toBe(93);
    expect((await exposure({ hoursBack: 48 })).totals.reduce((a, b) => a + b, 0)).toBe(193);
  });

  it('filters by application and by environment; the application choices stay those of the window', async () => {
    const other = await exposure({ from: at(3), to: at(-1), appName: 'exp-other' });
    expect(other.environments).toEqual(['production']);
    expect(other.totals).toEqual([0, 3, 0, 0]);
    expect(other.applications).toEqual(['exp-other', 'exp-sdk']);
    const production = await exposure({ from: at(3), to: at(-1), environment: 'production' });
    expect([production.environments, production.totals, production.applications]).toEqual([['production'], [0, 3, 0, 0], ['exp-other']]);
    // Both changes were made in development.
    expect(production.changes).toEqual([]);
    expect((await exposure({ from: at(3), to: at(-1), environment: 'development' })).changes.map((c) => c.type)).toEqual(['feature-environment-enabled', 'feature-strategy-update']);
  });

  it('groups hours into the days of a time zone', async () => {
    const e = await exposure({ from: at(47), to: at(-1), granularity: 'day', timeZone: 'Pacific/Kiritimati' });
    // Each hour belongs to its day in UTC+14; a period starts at the first hour of the window on that day.
    const dayOf = (t: number) => new Date(t + 14 * HOUR).toISOString().slice(0, 10);
    const expected = new Map<string, { start: string; total: number }>();
    const counted = new Map([[3, 50], [2, 33], [0, 10], [30, 100]]);
    for (let back = 47; back >= 0; back--) {
      const t = h - back * HOUR;
      const day = expected.get(dayOf(t)) ?? { start: new Date(t).toISOString(), total: 0 };
      day.total += counted.get(back) ?? 0;
      expected.set(dayOf(t), day);
    }
    expect(e.granularity).toBe('day');
    expect(e.periods).toEqual([...expected.values()].map((d) => d.start));
    expect(e.totals).toEqual([...expected.values()].map((d) => d.total));
  });

  it('loads the sparklines of a whole list in one statement, and no events when changes are not asked', async () => {
    app.resetQueryCount();
    const res = await app.gql(ListSparklines);
    expect(res.body.errors).toBeUndefined();
    const byName = Object.fromEntries(res.body.data!.project.features.nodes.map((n) => [n.name, n.exposure.totals]));
    expect(byName['exp-a'].slice(-4)).toEqual([50, 33, 0, 10]);
    expect(byName['exp-b'].slice(-1)).toEqual([2]);
    expect(app.queries.filter((q) => /client_metrics_hourly/.test(q))).toHaveLength(1);
    expect(app.queries.filter((q) => /strategy-order-changed/.test(q))).toHaveLength(0);
  });

  it('refuses a bad window with a 400 ValidationError naming the argument', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ hoursBack: 0 }, 'hoursBack'],
      [{ hoursBack: 745 }, 'hoursBack'],
      [{ hoursBack: 24, from: at(3) }, 'from'],
      [{ to: at(0) }, 'from'],
      [{ from: at(0), to: at(3) }, 'to'],
      [{ from: at(800), to: at(0) }, 'from'],
      [{ granularity: 'day', timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
      [{ appName: '' }, 'appName'],
    ];
    for (const [variables, path] of cases) {
      const res = await app.post('/graphql', { query: `query ($from: String, $to: String) { feature(name: "exp-a") { exposure(hoursBack: ${variables.hoursBack ?? 'null'}, from: $from, to: $to, granularity: ${variables.granularity ?? 'null'}, timeZone: ${JSON.stringify(variables.timeZone ?? null)}, appName: ${JSON.stringify(variables.appName ?? null)}) { totals } } }`.replace('$from: String, $to: String', '$from: DateTime, $to: DateTime'), variables: { from: variables.from ?? null, to: variables.to ?? null } });
      const error = res.body.errors?.[0];
      expect({ variables, name: error?.extensions?.name, code: error?.extensions?.code, path: error?.extensions?.details?.[0]?.path })
        .toEqual({ variables, name: 'ValidationError', code: 400, path });
    }
  });

  it('prices a window by its periods: 200 flags of 31 days of hours with their buckets are over the budget', async () => {
    const res = await app.post('/graphql', { query: '{ features(first: 200) { nodes { exposure(hoursBack: 744) { buckets { yes } } } } }' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/^The operation costs \d+, over the budget of 100000/);
    const one = await app.post('/graphql', { query: '{ feature(name: "exp-a") { exposure(hoursBack: 744) { buckets { yes } changes { id } } } }' });
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data.feature.exposure.buckets).toHaveLength(744 * 2);
  });
});
