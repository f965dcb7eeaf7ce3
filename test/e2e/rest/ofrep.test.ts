import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type Reply, type TestApp } from '../../support/harness';
import { until } from '../../support/until';

/**
 * Issue 45: the OpenFeature Remote Evaluation Protocol over HTTP, as the protocol's openapi.yaml defines it: single and
 * bulk evaluation, values typed by the flag's variants, OpenFeature's reasons, OFREP's error bodies, the bulk answer's
 * ETag and 304, the change stream, and what an evaluation records (metrics, unknown names). The OpenFeature SDKs
 * against it are in test/e2e/ofrep-sdk.
 */

let app: TestApp;
const P = '/api/admin/projects';
const env = (f: string, environment = 'development', project = 'default') => `${P}/${project}/features/${f}/environments/${environment}`;
const tokens: Record<string, string> = {};

async function ok<T = any>(call: Promise<Reply<T>>, status = 200): Promise<T> {
  const res = await call;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
async function flag(name: string, { project = 'default', strategy = { name: 'default' } as Record<string, unknown> | null, on = true } = {}) {
  await ok(app.post(`${P}/${project}/features`, { name }), 201);
  if (strategy) await ok(app.post(`${env(name, 'development', project)}/strategies`, strategy));
  if (on) await ok(app.post(`${env(name, 'development', project)}/on`));
}
const variants = (name: string, list: unknown[]) => ok(app.put(`${env(name)}/variants`, list));
const token = async (name: string, type: 'frontend' | 'client', projects = ['default']) =>
  (await ok(app.post('/api/admin/api-tokens', { tokenName: name, type, environment: 'development', projects }), 201)).secret as string;
const one = (key: string, context: unknown = {}, as = tokens.frontend) => app.post(`/ofrep/v1/evaluate/flags/${encodeURIComponent(key)}`, { context }, { token: as });
const bulk = (context: unknown = {}, as = tokens.frontend, headers: Record<string, string> = {}) => app.post('/ofrep/v1/evaluate/flags', { context }, { token: as, headers });

beforeAll(async () => {
  app = await startTestApp({ metricsFlushMs: 50 });
  await ok(app.post(P, { id: 'other', name: 'Other' }), 201);
  await flag('plain');
  await flag('no-strategy', { strategy: null });
  await flag('switched-off', { on: false });
  await flag('for-user-42', { strategy: { name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['42'] }] } });
  await flag('half', { strategy: { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'userId', groupId: 'half' } } });
  await flag('text');
  await variants('text', [{ name: 'greeting', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'hello' } }]);
  await flag('count');
  await variants('count', [{ name: 'ten', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'number', value: '10' } }]);
  await flag('config');
  await variants('config', [
    { name: 'blue', weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"color":"blue","size":2}' }, overrides: [{ contextName: 'userId', values: ['7'] }] },
    { name: 'red', weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"color":"red"}' } },
  ]);
  await flag('named-only');
  await variants('named-only', [{ name: 'just-a-name', weight: 1000, weightType: 'variable', stickiness: 'default' }]);
  await flag('off-with-variants', { on: false });
  await variants('off-with-variants', [{ name: 'x', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'x' } }]);
  await flag('elsewhere', { project: 'other' });
  tokens.frontend = await token('ofrep-fe', 'frontend');
  tokens.client = await token('ofrep-client', 'client');
});
afterAll(() => app?.close());

describe('single evaluation: POST /ofrep/v1/evaluate/flags/{key}', () => {
  it('reads a flag without variants as its enabled state, with the reason of what decided it', async () => {
    expect(await ok(one('plain'))).toEqual({ key: 'plain', value: true, reason: 'STATIC', variant: 'on', metadata: { project: 'default', impressionData: false } });
    expect(await ok(one('no-strategy'))).toMatchObject({ value: true, reason: 'STATIC' });
    expect(await ok(one('switched-off'))).toMatchObject({ value: false, reason: 'DISABLED', variant: 'off' });
    expect(await ok(one('for-user-42', { targetingKey: '42' }))).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
    expect(await ok(one('for-user-42', { targetingKey: '43' }))).toMatchObject({ value: false, reason: 'DEFAULT' });
    // The targeting key is the user id the rollout hashes: the same key, the same answer; among many keys, both answers.
    const half = await Promise.all(Array.from({ length: 40 }, (_, i) => ok(one('half', { targetingKey: `user-${i}` }))));
    expect(new Set(half.filter((h) => h.value).map((h) => h.reason))).toEqual(new Set(['SPLIT']));
    expect(new Set(half.map((h) => h.value))).toEqual(new Set([true, false]));
    expect((await ok(one('half', { targetingKey: 'user-3' }))).value).toBe(half[3].value);
  });

  it('reads a flag with variants as its variant\'s payload, typed; off, it has no value (the caller\'s default applies)', async () => {
    expect(await ok(one('text'))).toMatchObject({ value: 'hello', variant: 'greeting', reason: 'STATIC' });
    expect(await ok(one('count'))).toMatchObject({ value: 10, variant: 'ten' });
    expect(await ok(one('config', { targetingKey: '7' }))).toMatchObject({ value: { color: 'blue', size: 2 }, variant: 'blue', reason: 'TARGETING_MATCH' });
    expect(await ok(one('named-only'))).toMatchObject({ value: 'just-a-name', variant: 'just-a-name' });
    const off = await ok(one('off-with-variants'));
    expect(off).toEqual({ key: 'off-with-variants', reason: 'DISABLED', variant: 'disabled', metadata: { project: 'default', impressionData: false } });
  });

  it('agrees with the frontend API for the same context', async () => {
    const context = { userId: '7', sessionId: 's1' };
    const toggles = (await ok(app.post('/api/frontend', { context }, { token: tokens.frontend }))).toggles as Array<{ name: string; variant: { name: string } }>;
    const enabled = new Map(toggles.map((t) => [t.name, t.variant.name]));
    for (const key of ['plain', 'switched-off', 'for-user-42', 'half', 'text', 'count', 'config', 'named-only', 'off-with-variants']) {
      const r = await ok(one(key, context));
      const on = r.variant !== 'off' && r.variant !== 'disabled';
      expect([key, on]).toEqual([key, enabled.has(key)]);
      if (on && r.variant !== 'on') expect([key, r.variant]).toEqual([key, enabled.get(key)]);
    }
  });

  it('maps the OpenFeature context: targetingKey is the user id unless one is given, other keys are properties (numbers as text)', async () => {
    await ok(app.post('/api/admin/context', { name: 'tier' }), 201);
    await flag('for-tier', { strategy: { name: 'default', constraints: [{ contextName: 'tier', operator: 'NUM_GTE', value: '3' }] } });
    expect(await ok(one('for-tier', { tier: 3 }))).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
    expect(await ok(one('for-tier', { tier: 2 }))).toMatchObject({ value: false });
    expect(await ok(one('for-user-42', { targetingKey: '42', userId: '41' }))).toMatchObject({ value: false });
    expect(await ok(one('for-user-42', { targetingKey: 42 }))).toMatchObject({ value: true });
  });

  it('answers FLAG_NOT_FOUND for a name outside the token\'s scope, and OFREP\'s 400s for a bad body or context', async () => {
    // OFREP's fields, and the service's own beside them.
    expect(await ok(one('nope'), 404)).toMatchObject({ key: 'nope', errorCode: 'FLAG_NOT_FOUND', errorDetails: expect.stringContaining('nope'), name: 'NotFoundError' });
    expect((await ok(one('elsewhere'), 404)).errorCode).toBe('FLAG_NOT_FOUND');
    expect(await ok(one('plain', { nested: { a: 1 } }), 400)).toMatchObject({ key: 'plain', errorCode: 'INVALID_CONTEXT', name: 'ValidationError', details: [{ path: 'context/nested' }] });
    expect(await ok(one('plain', 'text'), 400)).toMatchObject({ errorCode: 'INVALID_CONTEXT' });
    const broken = await app.request('POST', '/ofrep/v1/evaluate/flags/plain', undefined, { token: tokens.frontend, raw: '{"context":', headers: { 'content-type': 'application/json' } });
    expect([broken.status, broken.body.errorCode]).toEqual([400, 'PARSE_ERROR']);
  });

  it('takes frontend and client tokens in Authorization (with or without Bearer) or X-API-Key; refuses none or a user\'s', async () => {
    expect((await ok(one('plain', {}, tokens.client))).value).toBe(true);
    expect((await ok(one('plain', {}, `Bearer ${tokens.frontend}`))).value).toBe(true);
    const byKey = await app.post('/ofrep/v1/evaluate/flags/plain', {}, { token: null, headers: { 'x-api-key': tokens.frontend } });
    expect([byKey.status, byKey.body.value]).toEqual([200, true]);
    expect((await one('plain', {}, null as never)).status).toBe(401);
    expect((await app.post('/ofrep/v1/evaluate/flags/plain', {}, { token: null })).status).toBe(401);
    // A person's access token is no SDK credential, as at the frontend API.
    await ok(app.post('/api/admin/user-admin', { username: 'ofrep-user', password: 'Ofrep-Pass-4242', rootRole: 'Admin' }), 201);
    const login = await app.post('/auth/simple/login', { username: 'ofrep-user', password: 'Ofrep-Pass-4242' }, { token: null });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const pat = (await ok(app.post('/api/admin/user/tokens', { description: 'ofrep', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } }), 201)).secret;
    const refused = await one('plain', {}, pat);
    expect([refused.status, refused.body.name]).toEqual([403, 'NoAccessError']);
  });
});

describe('bulk evaluation: POST /ofrep/v1/evaluate/flags', () => {
  it('answers every flag of the token\'s scope with an ETag; that ETag (header or flagConfigEtag) is a 304 until a change', async () => {
    const res = await bulk({ targetingKey: '7' });
    expect(res.status).toBe(200);
    const byKey = new Map((res.body.flags as Array<{ key: string }>).map((f) => [f.key, f]));
    expect(byKey.has('elsewhere')).toBe(false);
    expect(byKey.get('config')).toMatchObject({ value: { color: 'blue', size: 2 }, variant: 'blue' });
    expect(byKey.get('switched-off')).toMatchObject({ value: false, reason: 'DISABLED' });
    expect(res.body.eventStreams).toEqual([{ type: 'sse', url: expect.stringMatching(/\/ofrep\/v1\/events\?ticket=\d+\.[\w-]+&v=\d+$/), inactivityDelaySec: 120 }]);
    // Another context, nothing changed: the same stream (a provider keeps its connection).
    expect((await bulk({ targetingKey: '8' })).body.eventStreams).toEqual(res.body.eventStreams);
    expect(res.body.refreshConnections).toEqual(res.body.eventStreams);
    const etag = res.headers.get('etag')!;
    expect((await bulk({ targetingKey: '7' }, tokens.frontend, { 'if-none-match': etag })).status).toBe(304);
    expect((await app.post(`/ofrep/v1/evaluate/flags?flagConfigEtag=${encodeURIComponent(etag)}`, { context: { targetingKey: '7' } }, { token: tokens.frontend })).status).toBe(304);
    await ok(app.post(`${env('switched-off')}/on`));
    const after = await bulk({ targetingKey: '7' }, tokens.frontend, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.body.flags.find((f: { key: string }) => f.key === 'switched-off')).toMatchObject({ value: true });
    await ok(app.post(`${env('switched-off')}/off`));
  });

  it('tells an open change stream to fetch again when a change is committed; a made-up ticket is refused', async () => {
    const { eventStreams } = (await bulk()).body as { eventStreams: Array<{ url: string }> };
    const url = new URL(eventStreams[0].url);
    expect((await fetch(`${app.url}/ofrep/v1/events?ticket=${Date.now() + 60_000}.forged`)).status).toBe(401);
    const controller = new AbortController();
    const stream = await fetch(`${app.url}${url.pathname}${url.search}`, { signal: controller.signal });
    expect([stream.status, stream.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    const reader = stream.body!.getReader();
    let text = '';
    await ok(app.post(`${env('plain')}/off`));
    const deadline = Date.now() + 10_000;
    while (!text.includes('refetchEvaluation') && Date.now() < deadline) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(text).toMatch(/id: \S+\nevent: message\ndata: \{"type":"refetchEvaluation"\}/);
    await ok(app.post(`${env('plain')}/on`));
  });
});

describe('what an evaluation records', () => {
  it('counts a single evaluation as an SDK\'s report (the application, yes/no and the variant) and records a name no flag has', async () => {
    const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);
    await ok(one('count', { appName: 'of-app' }));
    // A variant may be called "off": the flag is on, and counted so.
    await flag('named-off');
    await variants('named-off', [{ name: 'off', weight: 1000, weightType: 'variable', stickiness: 'default' }]);
    expect(await ok(one('named-off', { appName: 'of-app' }))).toMatchObject({ value: 'off', variant: 'off' });
    await ok(one('switched-off', { appName: 'of-app' }));
    await ok(one('no-such-flag', { appName: 'of-app' }), 404);
    const counted = await until(async () => {
      const rows = await sql(`select feature_name, sum(yes)::int as yes, sum(no)::int as no from client_metrics_hourly where app_name = 'of-app' group by feature_name order by feature_name`);
      return rows.length === 3 && rows;
    }, 'the flush');
    expect(counted).toEqual([{ feature_name: 'count', yes: 1, no: 0 }, { feature_name: 'named-off', yes: 1, no: 0 }, { feature_name: 'switched-off', yes: 0, no: 1 }]);
    expect(await sql(`select variant, count::int from client_metrics_hourly_variants where app_name = 'of-app' order by variant`)).toEqual([{ variant: 'off', count: 1 }, { variant: 'ten', count: 1 }]);
    const unknown = await until(async () => {
      const l = (await app.get('/api/admin/metrics/unknown-flags')).body.unknownFlags as Array<{ name: string; appName: string; environment: string }>;
      return l.some((u) => u.name === 'no-such-flag') && l;
    }, 'the unknown name');
    expect(unknown.find((u) => u.name === 'no-such-flag')).toMatchObject({ appName: 'of-app', environment: 'development' });
    // The bulk fetch a provider caches is no evaluation by the application: nothing more is counted for it.
    await ok(bulk({ appName: 'of-bulk' }));
    await new Promise((r) => setTimeout(r, 200));
    expect(await sql(`select 1 from client_metrics_hourly where app_name = 'of-bulk'`)).toEqual([]);
  });
});
