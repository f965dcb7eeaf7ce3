import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

let app: TestApp;
const P = '/api/admin/projects/default/features';
const body = { environment: 'development', projects: '*', context: { appName: 'cache-test', userId: '7' } };
const enabledOf = async (name: string) => {
  const res = await app.post('/api/admin/playground', body);
  expect(res.status).toBe(200);
  return res.body.features.find((f: any) => f.name === name)?.isEnabled;
};
const sql = (text: string, params: unknown[] = []) => app.orm.em.fork().execute(text, params);

beforeAll(async () => {
  app = await startTestApp();
  expect((await app.post(P, { name: 'cached' })).status).toBe(201);
  expect((await app.post(`${P}/cached/environments/development/strategies`, { name: 'default' })).status).toBe(200);
  expect((await app.post(`${P}/cached/environments/development/on`)).status).toBe(200);
});
afterAll(async () => { await app.close(); });

describe('compiled playground snapshots', () => {
  it('a repeated request reuses the compiled snapshot: one version query instead of loading every feature', async () => {
    expect(await enabledOf('cached')).toBe(true);
    app.resetQueryCount();
    expect(await enabledOf('cached')).toBe(true);
    const statements = [...app.queries];
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/model_version/);
  });

  it('a change through the API is seen by the next request', async () => {
    expect(await enabledOf('cached')).toBe(true);
    expect((await app.post(`${P}/cached/environments/development/off`)).status).toBe(200);
    expect(await enabledOf('cached')).toBe(false);
    expect((await app.post(`${P}/cached/environments/development/on`)).status).toBe(200);
    expect(await enabledOf('cached')).toBe(true);
  });

  it('a change that bypasses the services (plain SQL, as an import or an operator might run) is seen too', async () => {
    expect(await enabledOf('cached')).toBe(true);
    await sql(`update feature_strategies set constraints = '[{"contextName":"userId","operator":"IN","values":["8"],"caseInsensitive":false,"inverted":false}]'::jsonb where feature_name = 'cached'`);
    expect(await enabledOf('cached')).toBe(false);
    await sql(`insert into segments (name, constraints) values ('late', '[]'::jsonb)`);
    await sql(`update feature_strategies set constraints = '[]'::jsonb where feature_name = 'cached'`);
    expect(await enabledOf('cached')).toBe(true);
    await sql(`delete from features where name = 'cached'`);
    expect(await enabledOf('cached')).toBeUndefined();
  });
});
