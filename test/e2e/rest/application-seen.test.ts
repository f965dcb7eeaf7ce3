import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 44, item 5: an application's "First seen" (`createdAt`) was later than its "Last seen" (`lastSeen`). An
 * application (and an instance) first seen through its metrics is created by the flush, which ran after the reports:
 * its `createdAt` was the flush's time while `lastSeen` was the report's. Both now come from the reports: the first
 * one the flush holds for it, and the latest.
 *
 * The flush here is far away, so it runs only at close(), after every report: the times it would have written are
 * later than any report's.
 */
let app: TestApp;
let token = '';

const report = (appName: string, instanceId: string) => ({
  appName, instanceId, bucket: { start: new Date().toISOString(), stop: new Date(Date.now() + 10_000).toISOString(), toggles: { 'as-a': { yes: 1 } } },
});

/** The epoch milliseconds before and after `send`: the service received it in between. */
async function during(send: () => Promise<{ status: number }>, status: number): Promise<{ from: number; to: number }> {
  const from = Date.now();
  const res = await send();
  expect(res.status).toBe(status);
  return { from, to: Date.now() };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  app = await startTestApp({ metricsFlushMs: 600_000 });
  expect((await app.post('/api/admin/projects/default/features', { name: 'as-a' })).status).toBe(201);
  const res = await app.post('/api/admin/api-tokens', { tokenName: 'as-client', type: 'client', environment: 'development', projects: ['default'] });
  expect(res.status).toBe(201);
  token = res.body.secret;
});
afterAll(async () => { await app.close(); });

it('an application first seen through its metrics was first seen at its first report and last seen at its latest, as were its instances', async () => {
  const metrics = (instanceId: string) => () => app.post('/api/client/metrics', report('as-metrics', instanceId), { token });
  const firstOfOne = await during(metrics('one'), 202);
  await pause(30);
  const latestOfOne = await during(metrics('one'), 202);
  await pause(30);
  const onlyOfTwo = await during(metrics('two'), 202);
  // A registered application, reporting later: created by its registration, seen last by its report.
  const registered = await during(() => app.post('/api/client/register', {
    appName: 'as-registered', instanceId: 'one', strategies: ['default'], started: new Date().toISOString(), interval: 10_000,
  }, { token }), 202);
  await pause(30);
  const reported = await during(() => app.post('/api/client/metrics', report('as-registered', 'one'), { token }), 202);

  await pause(30);
  await app.close(); // the flush, after every report
  app = await startTestApp({ reset: false, metricsFlushMs: 600_000 });

  /** `at` is a time within `window` (jest shows both numbers when it is not). */
  const expectWithin = (at: string | null | undefined, window: { from: number; to: number }) => {
    const t = Date.parse(at ?? '');
    expect(t).toBeGreaterThanOrEqual(window.from);
    expect(t).toBeLessThanOrEqual(window.to);
  };
  const listed = (await app.get('/api/admin/metrics/applications')).body.applications as Array<{ appName: string; createdAt: string; lastSeen: string | null }>;
  const seen = (name: string) => listed.find((a) => a.appName === name);
  expectWithin(seen('as-metrics')?.createdAt, firstOfOne);
  expectWithin(seen('as-metrics')?.lastSeen, onlyOfTwo);
  expectWithin(seen('as-registered')?.createdAt, registered);
  expectWithin(seen('as-registered')?.lastSeen, reported);

  const details = (await app.get('/api/admin/metrics/applications/as-metrics')).body;
  expect(details.createdAt).toBe(seen('as-metrics')?.createdAt);
  const instance = (id: string) => details.instances.find((i: { instanceId: string }) => i.instanceId === id);
  expectWithin(instance('one')?.createdAt, firstOfOne);
  expectWithin(instance('one')?.lastSeen, latestOfOne);
  expectWithin(instance('two')?.createdAt, onlyOfTwo);
  expectWithin(instance('two')?.lastSeen, onlyOfTwo);
});
