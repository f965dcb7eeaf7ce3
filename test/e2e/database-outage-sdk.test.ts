import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pino from 'pino';
import { startDbProxy, type DbProxy } from '../support/db-proxy';
import { startTestApp, type TestApp } from '../support/harness';
import { openSse } from '../support/sse';

/**
 * Issue 42: the SDK doors while the database is away (taken away through a proxy, test/support/db-proxy.ts). Polls,
 * delta polls, streams and the frontend API answer from the last state the instance served, marked stale; a scope
 * never served and a token never verified get the outage's 503; metrics and registrations sent meanwhile are written
 * once the database is back; open streams stay open and carry the next change.
 */
let app: TestApp;
let proxy: DbProxy;
let client = '';
let otherClient = '';
let frontend = '';
/** The app's warnings and errors, as written. */
const logged: Array<{ level: number; msg: string }> = [];
const SPEC = { 'unleash-client-spec': '5.2.0' };
const P = '/api/admin/projects/outage-sdk';

beforeAll(async () => {
  proxy = await startDbProxy(process.env.DATABASE_URL!);
  const logger = pino({ level: 'warn', base: undefined }, { write: (line: string) => { logged.push(JSON.parse(line)); } });
  app = await startTestApp({ databaseUrl: proxy.url, metricsFlushMs: 100, logger });
  await app.post('/api/admin/projects', { id: 'outage-sdk', name: 'Outage SDK' });
  for (const name of ['on-flag', 'off-flag']) await app.post(`${P}/features`, { name });
  await app.post(`${P}/features/on-flag/environments/development/strategies`, { name: 'default' });
  await app.post(`${P}/features/on-flag/environments/development/on`);
  const token = async (type: string, projects: string[]) =>
    (await app.post('/api/admin/api-tokens', { tokenName: `outage-${type}-${projects[0]}`, type, environment: 'development', projects })).body.secret as string;
  client = await token('client', ['outage-sdk']);
  otherClient = await token('client', ['default']);
  frontend = await token('frontend', ['outage-sdk']);
});
afterAll(async () => {
  await proxy.start().catch(() => undefined);
  await app.close();
  await proxy.close();
});

const poll = (path: string, token: string, headers: Record<string, string> = {}) => app.get(path, { token, headers: { ...SPEC, ...headers } });
const staleSince = (res: { headers: Headers }) => res.headers.get('flagdeck-stale-since');
const prometheus = async () => (await app.get('/internal-backstage/prometheus', { token: null })).body as string;
const sample = (text: string, name: string) => Number(new RegExp(`^${name.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);

describe('the SDK doors while the database is away', () => {
  it('answer from the last state, marked stale; refuse what they never served with a 503; keep what SDKs report', async () => {
    const full = await poll('/api/client/features', client);
    expect(full.status).toBe(200);
    expect(staleSince(full)).toBeNull();
    const delta = await poll('/api/client/delta', client);
    const front = await app.get('/api/frontend?userId=u1', { token: frontend });
    expect(front.body.toggles.map((t: { name: string }) => t.name)).toEqual(['on-flag']);
    const stream = await openSse(`${app.url}/api/client/streaming`, { authorization: client, ...SPEC });
    expect((await stream.expectEvent()).event).toBe('unleash-connected');
    const before = await prometheus();

    const away = Date.now();
    logged.length = 0;
    await proxy.stop();
    // The same bytes and ETag, and a 304 for the ETag the SDK holds; the header says since when they may be stale.
    const stale = await poll('/api/client/features', client);
    expect([stale.status, stale.body, stale.headers.get('etag')]).toEqual([200, full.body, full.headers.get('etag')]);
    expect(Date.parse(staleSince(stale)!)).toBeLessThanOrEqual(away);
    const notModified = await poll('/api/client/features', client, { 'if-none-match': full.headers.get('etag')! });
    expect([notModified.status, staleSince(notModified)]).toEqual([304, staleSince(stale)]);
    expect((await poll('/api/client/features/on-flag', client)).body).toEqual(full.body.features.find((f: { name: string }) => f.name === 'on-flag'));
    expect((await poll('/api/client/delta', client, { 'if-none-match': delta.headers.get('etag')! })).status).toBe(304);
    const rehydrated = await poll('/api/client/delta', client);
    expect([rehydrated.status, rehydrated.body, staleSince(rehydrated)]).toEqual([200, delta.body, staleSince(stale)]);
    const staleFront = await app.get('/api/frontend?userId=u1', { token: frontend });
    expect([staleFront.status, staleFront.body]).toEqual([200, front.body]);
    expect(staleSince(staleFront)).not.toBeNull();
    // A stream opened now gets the last state as its hydration; the one open before stays open.
    const late = await openSse(`${app.url}/api/client/streaming`, { authorization: client, ...SPEC });
    expect(late.res.headers.get('flagdeck-stale-since')).not.toBeNull();
    const hydration = await late.expectEvent();
    expect([hydration.event, hydration.data.events[0].features]).toEqual(['unleash-connected', full.body.features]);
    late.close();

    // A scope this instance never served, and a token it never verified: nothing to answer from.
    for (const res of [await poll('/api/client/features', otherClient), await poll('/api/client/features', 'default:development.never-seen-token')]) {
      expect([res.status, res.body.name, res.headers.get('retry-after')]).toEqual([503, 'ServiceUnavailableError', '5']);
    }
    // Reports are taken: metrics into the buffer, the registration held.
    const bucket = { start: new Date(Date.now() - 5000).toISOString(), stop: new Date().toISOString(), toggles: { 'on-flag': { yes: 7, no: 2 } } };
    expect((await app.post('/api/client/metrics', { appName: 'outage-app', instanceId: 'i-1', bucket }, { token: client })).status).toBe(202);
    const registration = { appName: 'outage-app', instanceId: 'i-1', sdkVersion: 'unleash-client-node:6.0.0', strategies: ['default'], started: new Date().toISOString(), interval: 10_000 };
    expect((await app.post('/api/client/register', registration, { token: client })).status).toBe(202);
    expect((await app.post(`${P}/features`, { name: 'during' })).status).toBe(503);

    const during = await prometheus();
    expect(sample(during, 'flagdeck_sdk_stale_answers_total{door="client_features"}') - sample(before, 'flagdeck_sdk_stale_answers_total{door="client_features"}')).toBeGreaterThanOrEqual(3);
    for (const door of ['client_delta', 'frontend', 'client_streaming']) expect(sample(during, `flagdeck_sdk_stale_answers_total{door="${door}"}`)).toBeGreaterThanOrEqual(1);
    expect(sample(during, 'flagdeck_database_unavailable_refusals_total{api="rest"}')).toBeGreaterThanOrEqual(3);
    expect(sample(during, 'flagdeck_database_reachable')).toBe(0);

    // The outage is logged once, where it was noticed; the background rounds that failed meanwhile (the metrics flush
    // every 100 ms here) do not each warn.
    await new Promise((r) => setTimeout(r, 400)); // a few flush rounds
    expect(logged.map((l) => l.msg)).toEqual([expect.stringMatching(/^the database is not reachable/)]);
    await proxy.start();
    // Fresh again within a couple of probes, and the stream that stayed open carries the next change.
    let fresh = await poll('/api/client/features', client);
    for (const end = Date.now() + 5000; staleSince(fresh) !== null && Date.now() < end; fresh = await poll('/api/client/features', client)) await new Promise((r) => setTimeout(r, 50));
    expect([fresh.status, staleSince(fresh)]).toEqual([200, null]);
    expect((await app.post(`${P}/features/off-flag/environments/development/strategies`, { name: 'default' })).status).toBe(200);
    expect((await app.post(`${P}/features/off-flag/environments/development/on`)).status).toBe(200);
    let updated = await stream.expectEvent(5000);
    while (!updated.data.events.some((e: { type: string; feature?: { name: string; enabled: boolean } }) => e.feature?.name === 'off-flag' && e.feature.enabled)) updated = await stream.expectEvent(5000);
    expect(updated.event).toBe('unleash-updated');
    stream.close();

    // What was reported during the outage is written.
    const end = Date.now() + 10_000;
    let usage: { yes?: number } | undefined;
    let application = 0;
    while (Date.now() < end && (usage?.yes !== 7 || application !== 200)) {
      await new Promise((r) => setTimeout(r, 100));
      usage = (await app.get('/api/admin/client-metrics/features/on-flag')).body.lastHourUsage.find((u: { environment: string }) => u.environment === 'development');
      application = (await app.get('/api/admin/metrics/applications/outage-app')).status;
    }
    expect(usage).toMatchObject({ yes: 7, no: 2 });
    const details = (await app.get('/api/admin/metrics/applications/outage-app')).body;
    expect(details.instances.map((i: { instanceId: string }) => i.instanceId)).toEqual(['i-1']);
    expect(sample(await prometheus(), 'flagdeck_database_reachable')).toBe(1);
  });

  it('answers from the last state within its bound when the network hangs rather than refuses', async () => {
    const full = await poll('/api/client/features', client);
    proxy.hang();
    const started = Date.now();
    const stale = await poll('/api/client/features', client);
    const took = Date.now() - started;
    expect([stale.status, stale.body]).toEqual([200, full.body]);
    expect(staleSince(stale)).not.toBeNull();
    expect(took).toBeLessThan(2500);
    // A write waits for the stall guard (src/db/connection-guard.ts), then is refused by name: bounded, not minutes.
    const write = await app.post(`${P}/features`, { name: 'hung' });
    expect([write.status, write.body.name]).toEqual([503, 'ServiceUnavailableError']);
    expect(Date.now() - started).toBeLessThan(20_000);
    await proxy.start();
    let status = 0;
    for (const end = Date.now() + 10_000; status !== 201 && Date.now() < end;) status = (await app.post(`${P}/features`, { name: 'after-hang' })).status;
    expect(status).toBe(201);
  }, 40_000);
});
