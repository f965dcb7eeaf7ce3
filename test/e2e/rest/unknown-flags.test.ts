import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';
import { until } from '../../support/until';

/**
 * Issue 44, unknown flags: names SDKs report in their metrics (client and frontend SDKs) that no flag has, per
 * application and environment, through REST and GraphQL; a name that becomes a flag leaves the list; at most 1000
 * names, none older than 7 days.
 */
let app: TestApp;
const U = '/api/admin/metrics/unknown-flags';
const tokens: Record<string, string> = {};
const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);

const UnknownFlags = graphql(`query UnknownFlagsList { unknownFlags { name appName environment seenAt } }`);

async function report(path: string, token: string, appName: string, names: string[]): Promise<void> {
  const start = new Date();
  const toggles = Object.fromEntries(names.map((n) => [n, { yes: 1, no: 2 }]));
  const res = await app.post(path, { appName, instanceId: `${appName}-1`, bucket: { start: start.toISOString(), stop: new Date(start.getTime() + 10_000).toISOString(), toggles } }, { token });
  expect(res.status).toBeLessThan(300);
}
const listed = async () => (await app.get(U)).body.unknownFlags as Array<{ name: string; appName: string; environment: string; seenAt: string }>;

beforeAll(async () => {
  app = await startTestApp({ metricsFlushMs: 50 });
  expect((await app.post('/api/admin/projects/default/features', { name: 'uf-known' })).status).toBe(201);
  tokens.client = (await app.post('/api/admin/api-tokens', { tokenName: 'uf-client', type: 'client', environment: 'development', projects: ['default'] })).body.secret;
  tokens.frontend = (await app.post('/api/admin/api-tokens', { tokenName: 'uf-frontend', type: 'frontend', environment: 'production', projects: ['default'] })).body.secret;
});
afterAll(async () => { await app.close(); });

describe('unknown flags', () => {
  it('lists the names client and frontend SDKs report that no flag has, by application and environment, on both doors', async () => {
    const before = Date.now();
    await report('/api/client/metrics', tokens.client, 'uf-server', ['uf-known', 'uf-typo']);
    await report('/api/frontend/client/metrics', tokens.frontend, 'uf-web', ['uf-typo', 'uf-gone']);
    const rows = await until(async () => { const l = await listed(); return l.length === 3 && l; }, 'the flush');
    expect(rows.map((r) => [r.name, r.appName, r.environment]).sort()).toEqual([
      ['uf-gone', 'uf-web', 'production'], ['uf-typo', 'uf-server', 'development'], ['uf-typo', 'uf-web', 'production'],
    ]);
    for (const r of rows) expect(Date.parse(r.seenAt)).toBeGreaterThanOrEqual(before - 1000);
    const gql = await app.gql(UnknownFlags, {});
    expect(gql.body.data!.unknownFlags).toEqual(rows);
  });

  it('leaves out a name once a flag has it', async () => {
    expect((await app.post('/api/admin/projects/default/features', { name: 'uf-gone' })).status).toBe(201);
    expect((await listed()).map((r) => r.name)).not.toContain('uf-gone');
  });

  it('keeps at most 1000 names (the least recently reported go) and nothing older than 7 days', async () => {
    await sql(`insert into unknown_flags (name, app_name, environment, seen_at)
               select 'uf-old-' || g, 'uf-server', 'development', now() - make_interval(mins => 10 + g) from generate_series(1, 1000) g`);
    await sql(`insert into unknown_flags (name, app_name, environment, seen_at) values ('uf-ancient', 'uf-server', 'development', now() - interval '8 days')`);
    expect((await listed()).map((r) => r.name)).not.toContain('uf-ancient');
    await report('/api/client/metrics', tokens.client, 'uf-server', ['uf-fresh']);
    await until(async () => (await sql(`select 1 from unknown_flags where name = 'uf-fresh'`)).length === 1, 'the flush');
    const names = (await sql(`select distinct name from unknown_flags`)).map((r) => r.name as string);
    expect(names).toHaveLength(1000);
    expect(names).toEqual(expect.arrayContaining(['uf-fresh', 'uf-typo', 'uf-old-1']));
    // The least recently reported went first: the oldest of the 1000 planted ones, and the one past its days.
    expect(names).not.toContain('uf-ancient');
    expect(names.filter((n) => n.startsWith('uf-old-'))).toHaveLength(1000 - 2);
    expect(names).not.toContain('uf-old-1000');
  });
});
