import { afterAll, beforeAll, describe, expect } from '@jest/globals';
import { Client } from 'pg';
import { startTestApp, type TestApp } from '../../support/harness';
import { itWhen, NEEDS_POSTGRES } from '../../support/skip';

/**
 * Issue 14: on PostgreSQL, an instance that LISTENs for moves of `model_version` (migration 0018) answers SDK polls
 * without reading the counter while nothing changes, and still serves every change: its own at once, anyone else's
 * from the notification on; without the notification connection it reads the counter on every request again. The
 * embedded database has no listener (the suite's PostgreSQL pass only).
 */
const onPostgres = Boolean(process.env.FLAGDECK_TEST_DB);
const maybe = itWhen(onPostgres, NEEDS_POSTGRES);

let app: TestApp;
let token = '';
let byHand: Client;
const SPEC = { 'unleash-client-spec': '5.2.0' };
const P = '/api/admin/projects/default/features';

const poll = (etag?: string) => app.get('/api/client/features', { token, headers: etag ? { ...SPEC, 'if-none-match': etag } : SPEC });
const description = (body: any, name: string) => body.features.find((f: any) => f.name === name)?.description;
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

beforeAll(async () => {
  if (!onPostgres) return;
  app = await startTestApp({ events: 'notify' });
  expect((await app.post(P, { name: 'watched', description: 'v1' })).status).toBe(201);
  token = (await app.post('/api/admin/api-tokens', { tokenName: 'watch', type: 'client', environment: 'development', projects: ['default'] })).body.secret;
  byHand = new Client({ connectionString: process.env.DATABASE_URL });
  await byHand.connect();
});
afterAll(async () => {
  await byHand?.end();
  await app?.close();
});

describe('polls while the model version is watched', () => {
  maybe('cost no statement while nothing changes (one read a second at most)', async () => {
    expect(app.eventHub.modelVersion.watching).toBe(true);
    const etag = (await poll()).headers.get('etag')!;
    await poll(etag);
    app.resetQueryCount();
    for (let i = 0; i < 50; i++) expect((await poll(etag)).status).toBe(304);
    expect(app.queries.length).toBeLessThanOrEqual(1);
  });

  maybe('see this instance\'s own change from the next request on', async () => {
    const etag = (await poll()).headers.get('etag')!;
    expect((await app.put(`${P}/watched`, { description: 'v2' })).status).toBe(200);
    const after = await poll(etag);
    expect([after.status, description(after.body, 'watched')]).toEqual([200, 'v2']);
  });

  maybe('see a change made elsewhere (another instance, or by hand) once its notification arrives', async () => {
    const before = await poll();
    const generation = app.eventHub.modelVersion.generation;
    await byHand.query(`update features set description = 'v3' where name = 'watched'`);
    await until('the notification', () => app.eventHub.modelVersion.generation > generation);
    const after = await poll(before.headers.get('etag')!);
    expect([after.status, description(after.body, 'watched')]).toEqual([200, 'v3']);
  });

  maybe('without the notification connection, read the counter on every request (each sees every commit), then watch again', async () => {
    const signal = app.eventHub.modelVersion;
    await byHand.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'flagdeck-events' and datname = current_database()`);
    await until('the listener to notice', () => !signal.watching);
    const etag = (await poll()).headers.get('etag')!;
    app.resetQueryCount();
    for (let i = 0; i < 5; i++) expect((await poll(etag)).status).toBe(304);
    expect(app.queries.filter((q) => q.includes('model_version')).length).toBeGreaterThanOrEqual(5);
    await byHand.query(`update features set description = 'v4' where name = 'watched'`);
    const after = await poll(etag); // at once: no notification involved
    expect([after.status, description(after.body, 'watched')]).toEqual([200, 'v4']);
    await until('the listener to reconnect', () => signal.watching, 5000);
    const fresh = (await poll()).headers.get('etag')!;
    app.resetQueryCount();
    for (let i = 0; i < 20; i++) expect((await poll(fresh)).status).toBe(304);
    expect(app.queries.length).toBeLessThanOrEqual(1);
  });
});
