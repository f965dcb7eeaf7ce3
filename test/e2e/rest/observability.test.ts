import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pino from 'pino';
import { ADMIN_TOKEN, startTestApp, type Reply, type TestApp } from '../../support/harness';
import { itWhen, NEEDS_POSTGRES } from '../../support/skip';

/**
 * Issue 15 part 6: one log line per request (pino-http) with the route pattern, status, duration and request id, and
 * never a credential; Prometheus metrics at /internal-backstage/prometheus (request durations by route, audit events,
 * playground evaluations, the database pool, the process). The SDK fast paths, answered before Express, are logged
 * and measured like every other request.
 */
let app: TestApp;
const lines: string[] = [];
let clientToken = '';
let cookie = '';
const PASSWORD = 'Observed-Person-42';
const FLAG = 'obs-flag-with-a-telling-name';

beforeAll(async () => {
  const logger = pino({ level: 'info', base: undefined }, { write: (line: string) => { lines.push(line); } });
  app = await startTestApp({ logger });
  await ok(app.post('/api/admin/projects/default/features', { name: FLAG }), 201);
  clientToken = (await ok(app.post('/api/admin/api-tokens', { tokenName: 'obs-client', type: 'client', environment: 'development', projects: ['default'] }), 201)).secret;
  await ok(app.post('/api/admin/user-admin', { username: 'obs-person', password: PASSWORD, rootRole: 'Admin' }), 201);
  const login = await app.post('/auth/simple/login', { username: 'obs-person', password: PASSWORD }, { token: null });
  cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  expect(cookie).toMatch(/^unleash-session=.{16,}/);
});
afterAll(async () => { await app.close(); });

async function ok<T = any>(reply: Promise<Reply<T>>, status = 200): Promise<T> {
  const res = await reply;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The log line of the request whose answer carried this request id (written when the answer has been sent). */
async function lineOf(res: Reply): Promise<Record<string, any>> {
  const id = res.headers.get('x-request-id');
  expect(id).toBeTruthy();
  for (let waited = 0; waited < 3000; waited += 10) {
    const found = lines.map((l) => JSON.parse(l)).find((l) => l.reqId === id && l.msg?.startsWith('request '));
    if (found) return found;
    await sleep(10);
  }
  throw new Error(`no log line for request ${id}`);
}

/** The samples of a Prometheus text exposition: `name{labels} value` → [{name, labels, value}]. */
function samples(text: string): Array<{ name: string; labels: Record<string, string>; value: number }> {
  return text.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(l);
    if (!m) throw new Error(`not a sample line: ${l}`);
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k, v]));
    return { name: m[1], labels, value: Number(m[3]) };
  });
}

async function scrape() {
  const res = await app.get('/internal-backstage/prometheus', { token: null });
  expect(res.status).toBe(200);
  return { res, text: res.body as string, samples: samples(res.body as string) };
}

/** The value of one sample (0 when the series does not exist yet). */
async function value(name: string, labels: Record<string, string>): Promise<number> {
  const found = (await scrape()).samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found?.value ?? 0;
}

describe('the request log', () => {
  it('one info line per request: request id, method, route pattern, status, duration and the URL', async () => {
    const res = await app.get('/api/admin/projects/default/features');
    expect(res.status).toBe(200);
    const line = await lineOf(res);
    expect(line).toMatchObject({
      level: 30, msg: 'request completed', reqId: res.headers.get('x-request-id'), method: 'GET',
      route: '/api/admin/projects/:projectId/features', status: 200, url: '/api/admin/projects/default/features',
    });
    expect(typeof line.durationMs).toBe('number');
    expect(line.durationMs).toBeGreaterThan(0);
    expect(line.durationMs).toBeLessThan(30_000);
    // Exactly one line for it.
    expect(lines.filter((l) => l.includes(String(line.reqId))).length).toBe(1);
  });

  it('the route pattern of a route that failed is still its pattern (the error is answered outside its router)', async () => {
    const missing = await app.get('/api/admin/projects/default/features/no-such-flag');
    expect(missing.status).toBe(404);
    expect(await lineOf(missing)).toMatchObject({ route: '/api/admin/projects/:projectId/features/:featureName', status: 404 });
    const invalid = await app.post('/api/admin/tags', { type: 'simple', value: 'x' });
    expect(invalid.status).toBe(400);
    expect(await lineOf(invalid)).toMatchObject({ method: 'POST', route: '/api/admin/tags', status: 400 });
  });

  it('requests no route took: the exact static pattern, the mount they fell under, or `unmatched`', async () => {
    const refusedStatic = await app.get('/api/admin/tags', { token: null });
    expect(refusedStatic.status).toBe(401);
    expect(await lineOf(refusedStatic)).toMatchObject({ route: '/api/admin/tags', status: 401 });
    const refused = await app.get('/api/admin/projects/default/features', { token: null });
    expect(refused.status).toBe(401);
    expect(await lineOf(refused)).toMatchObject({ route: '/api/admin/*', status: 401 });
    const unknownApi = await app.get('/api/admin/no-such-thing/at-all');
    expect(unknownApi.status).toBe(404);
    expect(await lineOf(unknownApi)).toMatchObject({ route: '/api/admin/*', status: 404 });
    const unknown = await app.get('/no-such-place');
    expect(unknown.status).toBe(404);
    expect(await lineOf(unknown)).toMatchObject({ route: 'unmatched', status: 404, url: '/no-such-place' });
    const graphql = await app.post('/graphql', { query: '{ projects { id } }' });
    expect(graphql.status).toBe(200);
    expect(await lineOf(graphql)).toMatchObject({ method: 'POST', route: '/graphql', status: 200 });
  });

  it('the SDK fast paths (answered before Express) are logged with their route patterns', async () => {
    const poll = await app.get('/api/client/features', { token: clientToken });
    expect(poll.status).toBe(200);
    expect(await lineOf(poll)).toMatchObject({ method: 'GET', route: '/api/client/features', status: 200, url: '/api/client/features' });
    const etag = poll.headers.get('etag')!;
    const notModified = await app.get('/api/client/features', { token: clientToken, headers: { 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    expect(await lineOf(notModified)).toMatchObject({ route: '/api/client/features', status: 304 });
    const report = await app.post('/api/client/metrics', { appName: 'obs-app', instanceId: 'i-1', bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: { [FLAG]: { yes: 1, no: 0 } } } }, { token: clientToken });
    expect(report.status).toBe(202);
    expect(await lineOf(report)).toMatchObject({ method: 'POST', route: '/api/client/metrics', status: 202 });
  });

  it('the request id: a well-formed X-Request-Id is kept and echoed; anything else is replaced by a new id', async () => {
    const given = await app.get('/health', { token: null, headers: { 'x-request-id': 'trace-abc_123.4:5' } });
    expect(given.headers.get('x-request-id')).toBe('trace-abc_123.4:5');
    expect(await lineOf(given)).toMatchObject({ reqId: 'trace-abc_123.4:5', route: '/health', status: 200 });
    for (const bad of ['x'.repeat(129), 'has space', 'quote"d', '']) {
      const res = await app.get('/health', { token: null, headers: { 'x-request-id': bad } });
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(id).not.toBe(bad);
      expect((await lineOf(res)).reqId).toBe(id);
    }
    // Each request gets its own id; fast paths and errors echo it as well.
    const a = await app.get('/api/client/features', { token: clientToken });
    const b = await app.get('/api/admin/nothing-here');
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    expect(b.headers.get('x-request-id')).toBeTruthy();
  });

  it('never logs a token, a cookie, an Authorization header or a body; secrets in URLs are redacted', async () => {
    const before = lines.length;
    const bodyMarker = 'body-marker-that-must-not-be-logged';
    await ok(app.post('/api/admin/tags', { type: 'simple', value: bodyMarker }), 201);
    await ok(app.get('/api/admin/tags', { token: null, headers: { cookie } }));
    await ok(app.get('/api/client/features', { token: clientToken }));
    await app.post('/auth/simple/login', { username: 'obs-person', password: PASSWORD }, { token: null });
    const reset = await app.get('/auth/reset/validate?token=reset-secret-in-the-query', { token: null });
    const written = lines.slice(before).join('\n');
    expect(lines.length - before).toBeGreaterThanOrEqual(5);
    for (const secret of [ADMIN_TOKEN, clientToken, cookie, cookie.split('=')[1], PASSWORD, bodyMarker, 'reset-secret-in-the-query']) {
      expect(written).not.toContain(secret);
    }
    expect(written.toLowerCase()).not.toContain('authorization');
    expect(written.toLowerCase()).not.toContain('cookie');
    expect((await lineOf(reset)).url).toBe('/auth/reset/validate?token=[redacted]');
  });

  it('defect 9: a credential in the URL (query value under any name, query name, path segment) is redacted, the request refused or not', async () => {
    const before = lines.length;
    const secret = ADMIN_TOKEN.slice(ADMIN_TOKEN.indexOf('.') + 1);
    const encoded = encodeURIComponent(ADMIN_TOKEN);
    const refused = await app.get(`/api/admin/tags?authorization=${encoded}`, { token: null });
    expect(refused.status).toBe(401);
    expect((await lineOf(refused)).url).toBe('/api/admin/tags?authorization=[redacted]');
    const plain = await app.get(`/api/admin/tags?x-api-key=${secret}&q=${encodeURIComponent(clientToken)}&${encoded}`, { token: null });
    expect((await lineOf(plain)).url).toBe('/api/admin/tags?x-api-key=[redacted]&q=[redacted]&[redacted]');
    const inPath = await app.get(`/api/admin/api-tokens/${encodeURIComponent(clientToken)}`);
    expect((await lineOf(inPath)).url).toBe('/api/admin/api-tokens/[redacted]');
    const written = lines.slice(before).join('\n');
    for (const leaked of [secret, clientToken.slice(clientToken.indexOf('.') + 1)]) expect(written).not.toContain(leaked);
  });

  it('writes the client address (remoteAddress); without TRUST_PROXY an X-Forwarded-For header does not change it', async () => {
    const res = await app.get('/health', { token: null, headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect((await lineOf(res)).remoteAddress).toBe('127.0.0.1');
  });
});

describe('GET /internal-backstage/prometheus', () => {
  it('answers without credentials in the Prometheus text format, from the app registry', async () => {
    const { res, text } = await scrape();
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE flagdeck_audit_events_written_total counter');
    expect(text).toContain('# TYPE flagdeck_playground_evaluations_total counter');
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    // Any credential may read it too.
    expect((await app.get('/internal-backstage/prometheus', { token: clientToken })).status).toBe(200);
    expect((await app.get('/internal-backstage/prometheus')).status).toBe(200);
  });

  it('request durations by method, route pattern and status, in buckets', async () => {
    await ok(app.get('/api/admin/projects/default/features'));
    const { samples: all } = await scrape();
    const series = { method: 'GET', route: '/api/admin/projects/:projectId/features', status: '200' };
    const buckets = all.filter((s) => s.name === 'http_request_duration_seconds_bucket' && Object.entries(series).every(([k, v]) => s.labels[k] === v));
    expect(buckets.map((b) => b.labels.le)).toEqual(['0.0005', '0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf']);
    const count = all.find((s) => s.name === 'http_request_duration_seconds_count' && s.labels.route === series.route && s.labels.status === '200')!;
    expect(count.value).toBeGreaterThanOrEqual(2);
    expect(buckets.at(-1)!.value).toBe(count.value);
    // Buckets are cumulative.
    expect(buckets.every((b, i) => i === 0 || b.value >= buckets[i - 1].value)).toBe(true);
    // Only patterns as labels: no URL with a name in it.
    const routes = new Set(all.filter((s) => s.name === 'http_request_duration_seconds_count').map((s) => s.labels.route));
    expect([...routes].filter((r) => r.includes('default') || r.includes('no-such'))).toEqual([]);
    expect(routes).toContain('unmatched');
    expect(routes).toContain('/api/admin/*');
  });

  it('the SDK fast paths are measured under their route patterns', async () => {
    const poll = { method: 'GET', route: '/api/client/features', status: '200' };
    const report = { method: 'POST', route: '/api/client/metrics', status: '202' };
    const pollsBefore = await value('http_request_duration_seconds_count', poll);
    const reportsBefore = await value('http_request_duration_seconds_count', report);
    await ok(app.get('/api/client/features', { token: clientToken }));
    await ok(app.get('/api/client/features', { token: clientToken }));
    await ok(app.post('/api/client/metrics', { appName: 'obs-app', bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: { [FLAG]: { yes: 2, no: 1 } } } }, { token: clientToken }), 202);
    await sleep(50); // the answer reaches the client as the server records its end
    expect(await value('http_request_duration_seconds_count', poll)).toBe(pollsBefore + 2);
    expect(await value('http_request_duration_seconds_count', report)).toBe(reportsBefore + 1);
  });

  it('audit events are counted by type after their commit; a refused change counts nothing', async () => {
    const before = await value('flagdeck_audit_events_written_total', { type: 'tag-created' });
    await ok(app.post('/api/admin/tags', { type: 'simple', value: 'obs-counted' }), 201);
    expect(await value('flagdeck_audit_events_written_total', { type: 'tag-created' })).toBe(before + 1);
    expect((await app.post('/api/admin/tags', { type: 'simple', value: 'obs-counted' })).status).toBe(409);
    expect(await value('flagdeck_audit_events_written_total', { type: 'tag-created' })).toBe(before + 1);
    // The counter agrees with the events table for a type this file writes only through the API.
    const tagEvents = (await app.events('tag-created')).length;
    expect(await value('flagdeck_audit_events_written_total', { type: 'tag-created' })).toBe(tagEvents);
  });

  it('playground evaluations are counted by kind, over REST and GraphQL', async () => {
    const basic = { kind: 'playground' };
    const advanced = { kind: 'advanced' };
    const b0 = await value('flagdeck_playground_evaluations_total', basic);
    const a0 = await value('flagdeck_playground_evaluations_total', advanced);
    await ok(app.post('/api/admin/playground', { environment: 'development', context: { appName: 'obs' } }));
    expect(await value('flagdeck_playground_evaluations_total', basic)).toBe(b0 + 1);
    await ok(app.post('/api/admin/playground/advanced', { environments: ['development', 'production'], context: { appName: 'obs', userId: '1,2' } }));
    expect(await value('flagdeck_playground_evaluations_total', advanced)).toBe(a0 + 1);
    const gql = await ok(app.post('/graphql', { query: '{ playground(input: { environment: "development", context: { appName: "obs" } }) { name } }' }));
    expect(gql.errors).toBeUndefined();
    expect(await value('flagdeck_playground_evaluations_total', basic)).toBe(b0 + 2);
    // A refused evaluation (400) evaluated nothing.
    expect((await app.post('/api/admin/playground', { environment: 'development', context: {} })).status).toBe(400);
    expect(await value('flagdeck_playground_evaluations_total', basic)).toBe(b0 + 2);
  });

  it('the database pool, read at scrape time', async () => {
    const { samples: all } = await scrape();
    const get = (name: string) => all.find((s) => s.name === name)?.value;
    expect(get('db_pool_max')).toBe(Number(process.env.TEST_DB_POOL_MAX ?? 1));
    expect(get('db_pool_min')).toBe(0);
    const used = get('db_pool_used')!;
    const free = get('db_pool_free')!;
    expect(used).toBeGreaterThanOrEqual(0);
    expect(free).toBeGreaterThanOrEqual(0);
    expect(used + free).toBeLessThanOrEqual(get('db_pool_max')!);
    expect(get('db_pool_pending_acquires')).toBeGreaterThanOrEqual(0);
  });

  it('names no flag, user or token', async () => {
    const { text } = await scrape();
    for (const secret of [FLAG, 'obs-person', ADMIN_TOKEN, clientToken, 'obs-counted', 'obs-app']) expect(text).not.toContain(secret);
  });
});

describe('on PostgreSQL, with two instances announcing commits by LISTEN/NOTIFY', () => {
  const onPostgres = Boolean(process.env.FLAGDECK_TEST_DB);
  itWhen(onPostgres, NEEDS_POSTGRES)('each instance counts the events it wrote, once, and not those of the other', async () => {
    const a = await startTestApp({ events: 'notify', reset: false });
    const b = await startTestApp({ events: 'notify', reset: false });
    try {
      const count = async (t: TestApp) => {
        const text = (await t.get('/internal-backstage/prometheus', { token: null })).body as string;
        return samples(text).find((s) => s.name === 'flagdeck_audit_events_written_total' && s.labels.type === 'tag-created')?.value ?? 0;
      };
      await ok(a.post('/api/admin/tags', { type: 'simple', value: 'obs-instance-a' }), 201);
      await ok(a.post('/api/admin/tags', { type: 'simple', value: 'obs-instance-a2' }), 201);
      await ok(b.post('/api/admin/tags', { type: 'simple', value: 'obs-instance-b' }), 201);
      await sleep(300); // the notifications have reached both instances
      expect({ a: await count(a), b: await count(b) }).toEqual({ a: 2, b: 1 });
    } finally {
      await a.close();
      await b.close();
    }
  });
});
