import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_CORS } from '../../../src/rest/cors';
import { ADMIN_TOKEN, startTestApp, type Reply, type TestApp } from '../../support/harness';

/**
 * Issue 14 part 2: the frontend API. `GET /api/frontend` (context in the query string) and `POST /api/frontend`
 * (`{context}` in the body) answer `{toggles}`: the flags enabled for that context in the token's environment and
 * projects, as Unleash v5.8 shapes them; ETag and 304; CORS with CORS_ORIGINS. The frontend token's 403 on the admin
 * and client APIs is in sdk-door.test.ts; the official browser SDK is in frontend-sdk.test.ts.
 */

let app: TestApp;
const ORIGIN = 'https://app.example.com';
const P = '/api/admin/projects';
const env = (f: string, environment = 'development', project = 'default') => `${P}/${project}/features/${f}/environments/${environment}`;
const tokens: Record<string, string> = {};

async function ok<T = any>(call: Promise<Reply<T>>, status = 200): Promise<T> {
  const res = await call;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
async function flag(name: string, { project = 'default', environment = 'development', strategy = { name: 'default' } as Record<string, unknown>, on = true, impressionData = false } = {}) {
  await ok(app.post(`${P}/${project}/features`, { name, impressionData }), 201);
  await ok(app.post(`${env(name, environment, project)}/strategies`, strategy));
  if (on) await ok(app.post(`${env(name, environment, project)}/on`));
}
const token = async (name: string, environment: string, projects: string[]) =>
  (await ok(app.post('/api/admin/api-tokens', { tokenName: name, type: 'frontend', environment, projects }), 201)).secret as string;

/** The toggles a GET with this query string answers, by name. */
const get = (query = '', as = tokens.dev, headers: Record<string, string> = {}) => app.get(`/api/frontend${query}`, { token: as, headers });
const names = async (query = '', as = tokens.dev) => (await ok(get(query, as))).toggles.map((t: any) => t.name);
const postNames = async (context: unknown, as = tokens.dev) => (await ok(app.post('/api/frontend', { context }, { token: as }))).toggles.map((t: any) => t.name);

const DISABLED = { name: 'disabled', enabled: false };

beforeAll(async () => {
  app = await startTestApp({ corsOrigins: [ORIGIN] });
  await ok(app.post(P, { id: 'other', name: 'Other' }), 201);
  await ok(app.post('/api/admin/context', { name: 'region' }), 201);
  await flag('plain', { impressionData: true });
  await flag('switched-off', { on: false });
  await flag('with-variants');
  await ok(app.put(`${env('with-variants')}/variants`, [
    { name: 'blue', weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"color":"blue"}' }, overrides: [{ contextName: 'userId', values: ['7'] }] },
    { name: 'red', weightType: 'variable', stickiness: 'default', overrides: [{ contextName: 'userId', values: ['8'] }] },
  ]));
  await flag('for-user-42', { strategy: { name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['42'] }] } });
  await flag('in-eu', { strategy: { name: 'default', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }] } });
  await flag('in-staging', { strategy: { name: 'default', constraints: [{ contextName: 'environment', operator: 'IN', values: ['staging'] }] } });
  await flag('after-2030', { strategy: { name: 'default', constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: '2030-01-01T00:00:00.000Z' }] } });
  await flag('from-localhost', { strategy: { name: 'remoteAddress', parameters: { IPs: '127.0.0.1' } } });
  await flag('for-app-a', { strategy: { name: 'default', constraints: [{ contextName: 'appName', operator: 'IN', values: ['a'] }] } });
  await flag('in-other-project', { project: 'other' });
  await flag('in-production', { environment: 'production' });
  tokens.dev = await token('fe-dev', 'development', ['default']);
  tokens.prod = await token('fe-prod', 'production', ['default']);
  tokens.other = await token('fe-other', 'development', ['other']);
  tokens.all = await token('fe-all', 'development', ['*']);
});
afterAll(async () => { await app.close(); });

describe('GET /api/frontend', () => {
  it('answers only the enabled flags, in Unleash v5.8\'s shape', async () => {
    const res = await get('?appName=web&userId=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      toggles: [
        { name: 'plain', enabled: true, variant: DISABLED, impressionData: true },
        { name: 'with-variants', enabled: true, variant: expect.objectContaining({ enabled: true }), impressionData: false },
        { name: 'from-localhost', enabled: true, variant: DISABLED, impressionData: false },
      ],
    });
    // Exactly these keys, in this order, and no `feature_enabled` (Unleash v5.8's SDK does not add it).
    expect(Object.keys(res.body.toggles[0])).toEqual(['name', 'enabled', 'variant', 'impressionData']);
    expect(res.body.toggles[0].variant).toStrictEqual(DISABLED);
  });

  it('a variant is `{name, enabled, payload}` as the engine picks it (overrides win)', async () => {
    const toggle = async (q: string) => (await ok(get(q))).toggles.find((t: any) => t.name === 'with-variants');
    expect((await toggle('?userId=7')).variant).toStrictEqual({ name: 'blue', enabled: true, payload: { type: 'json', value: '{"color":"blue"}' } });
    expect((await toggle('?userId=8')).variant).toStrictEqual({ name: 'red', enabled: true });
  });

  it('reads the context from the query: userId, appName, environment, currentTime, remoteAddress', async () => {
    expect(await names('?userId=42')).toContain('for-user-42');
    expect(await names('?userId=41')).not.toContain('for-user-42');
    expect(await names('?appName=a')).toContain('for-app-a');
    expect(await names('?appName=b')).not.toContain('for-app-a');
    // environment is a context value (the token decides which environment's flags are read).
    expect(await names('?environment=staging')).toContain('in-staging');
    expect(await names('')).not.toContain('in-staging');
    expect(await names('?currentTime=2031-05-01T00:00:00Z')).toContain('after-2030');
    expect(await names('?currentTime=2029-05-01T00:00:00Z')).not.toContain('after-2030');
    // remoteAddress defaults to the caller's address (the test client calls from 127.0.0.1).
    expect(await names('')).toContain('from-localhost');
    expect(await names('?remoteAddress=10.1.2.3')).not.toContain('from-localhost');
  });

  it('properties: `properties[name]=value`, or any other parameter (as Unleash moves unknown keys into properties); explicit wins', async () => {
    expect(await names('?properties%5Bregion%5D=eu')).toContain('in-eu');
    expect(await names('?properties[region]=eu')).toContain('in-eu');
    expect(await names('?region=eu')).toContain('in-eu');
    expect(await names('?region=us')).not.toContain('in-eu');
    expect(await names('?region=eu&properties[region]=us')).not.toContain('in-eu');
    expect(await names('?properties[region]=eu&region=us')).toContain('in-eu');
    // Names are only names.
    expect((await get('?__proto__=x&properties[constructor]=y&toString=z')).status).toBe(200);
  });

  it('bad input is a 400 ValidationError naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['?userId=1&userId=2', 'userId'],
      ['?properties[region]=eu&properties[region]=us', 'properties[region]'],
      ['?currentTime=yesterday', 'currentTime'],
      ['?properties=x', 'properties'],
      ['?properties[]=x', 'properties[]'],
      [`?userId=${'u'.repeat(1001)}`, 'userId'],
      [`?${'n'.repeat(101)}=x`, 'n'.repeat(101)],
      [`?${Array.from({ length: 101 }, (_, i) => `p${i}=v`).join('&')}`, 'p100'],
      ['?userId=%FF', 'userId'],
      ['?userId=a%00b', 'userId'],
    ];
    for (const [query, path] of cases) {
      const res = await get(query);
      expect([query, res.status, res.body.name, res.body.details?.[0]?.path]).toEqual([query, 400, 'ValidationError', path]);
    }
  });

  it('ETag on every answer; a GET with a matching If-None-Match is a 304 without a body; another context is not', async () => {
    const first = await get('?userId=7');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, max-age=2');
    const again = await get('?userId=7', tokens.dev, { 'if-none-match': etag });
    expect([again.status, again.body, again.headers.get('etag')]).toEqual([304, '', etag]);
    expect((await get('?userId=7', tokens.dev, { 'if-none-match': `W/${etag}` })).status).toBe(304);
    expect((await get('?userId=7', tokens.dev, { 'if-none-match': `"other", ${etag}` })).status).toBe(304);
    const other = await get('?userId=8', tokens.dev, { 'if-none-match': etag });
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).not.toBe(etag);
    // A change of the flags changes the answer and its tag.
    await ok(app.post(`${env('plain')}/off`));
    const changed = await get('?userId=7', tokens.dev, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.body.toggles.map((t: any) => t.name)).not.toContain('plain');
    await ok(app.post(`${env('plain')}/on`));
    expect((await get('?userId=7', tokens.dev, { 'if-none-match': etag })).status).toBe(304);
  });

  it('costs one model_version query while nothing changes', async () => {
    await get('?userId=3');
    app.resetQueryCount();
    await get('?userId=4');
    await get('?userId=5');
    expect(app.queries).toHaveLength(2);
    expect(app.queries.every((q) => /model_version/.test(q))).toBe(true);
  });
});

describe('POST /api/frontend', () => {
  it('reads `{context}` from the body, with the same answer as the GET of the same context', async () => {
    const res = await ok(app.post('/api/frontend', { context: { appName: 'a', userId: '42', properties: { region: 'eu' } } }, { token: tokens.dev }));
    const viaGet = await ok(get('?appName=a&userId=42&properties[region]=eu'));
    expect(res).toEqual(viaGet);
    expect(res.toggles.map((t: any) => t.name)).toEqual(expect.arrayContaining(['for-user-42', 'in-eu', 'for-app-a']));
    expect(await postNames({ region: 'eu' })).toContain('in-eu');
    expect(await postNames({ region: 'eu', properties: { region: 'us' } })).not.toContain('in-eu');
    expect(await postNames({ currentTime: '2031-05-01T00:00:00.000Z' })).toContain('after-2030');
    expect(await postNames({ remoteAddress: '10.1.2.3' })).not.toContain('from-localhost');
    expect(await postNames({ userId: null, properties: null })).toContain('plain');
  });

  it('no context, or no body, is an empty context', async () => {
    // (Without a userId or sessionId the variant is random, as in Unleash: compare the names.)
    expect(await postNames(undefined)).toEqual(await names(''));
    expect((await ok(app.post('/api/frontend', undefined, { token: tokens.dev }))).toggles.map((t: any) => t.name)).toEqual(await names(''));
  });

  it('bad input is a 400 ValidationError naming the property', async () => {
    const cases: Array<[unknown, string]> = [
      [{ context: 'x' }, 'context'],
      [{ context: { userId: 42 } }, 'context/userId'],
      [{ context: { userId: ['1'] } }, 'context/userId'],
      [{ context: { properties: 'x' } }, 'context/properties'],
      [{ context: { properties: { region: { a: 1 } } } }, 'context/properties/region'],
      [{ context: { properties: { region: 'x'.repeat(1001) } } }, 'context/properties/region'],
      [{ context: { currentTime: '2031-13-45' } }, 'context/currentTime'],
      [{ context: { properties: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}`, 'v'])) } }, 'context/properties/p100'],
      [[1], ''],
    ];
    for (const [body, path] of cases) {
      const res = await app.post('/api/frontend', body, { token: tokens.dev });
      expect([JSON.stringify(body).slice(0, 60), res.status, res.body.name, res.body.details?.[0]?.path]).toEqual([JSON.stringify(body).slice(0, 60), 400, 'ValidationError', path]);
    }
    const lone = await app.request('POST', '/api/frontend', undefined, { token: tokens.dev, raw: '{"context":{"userId":"a\\ud800"}}' });
    expect([lone.status, lone.body.name, lone.body.details[0].path]).toEqual([400, 'ValidationError', 'context/userId']);
  });

  it('a POST answer has an ETag but If-None-Match never makes it a 304', async () => {
    const first = await app.post('/api/frontend', { context: { userId: '7' } }, { token: tokens.dev });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await app.post('/api/frontend', { context: { userId: '7' } }, { token: tokens.dev, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).toBe(etag);
  });
});

describe('token scoping', () => {
  it('a token sees only its environment and projects', async () => {
    expect(await names('', tokens.dev)).not.toEqual(expect.arrayContaining(['in-other-project']));
    expect(await names('', tokens.dev)).not.toContain('in-production');
    expect(await names('', tokens.prod)).toEqual(['in-production']);
    expect(await names('', tokens.other)).toEqual(['in-other-project']);
    expect(await names('', tokens.all)).toEqual(expect.arrayContaining(['plain', 'in-other-project']));
    expect(await names('', tokens.all)).not.toContain('in-production');
  });

  it('an admin token reads the environment its context names (none: `default`, which does not exist here)', async () => {
    expect(await names('', ADMIN_TOKEN)).toEqual([]);
    expect(await names('?environment=production', ADMIN_TOKEN)).toEqual(['in-production']);
    expect(await names('?environment=development', ADMIN_TOKEN)).toEqual(expect.arrayContaining(['plain', 'in-other-project']));
  });

  it('a revoked token is refused', async () => {
    const revoked = await token('fe-revoked', 'development', ['default']);
    expect((await get('', revoked)).status).toBe(200);
    const list = await ok(app.get('/api/admin/api-tokens'));
    const id = list.tokens.find((t: any) => t.tokenName === 'fe-revoked').id;
    await ok(app.del(`/api/admin/api-tokens/${id}`));
    expect((await get('', revoked)).status).toBe(401);
  });
});

describe('CORS (CORS_ORIGINS)', () => {
  const preflight = (origin: string | null, path = '/api/frontend') => fetch(`${app.url}${path}`, {
    method: 'OPTIONS',
    headers: { ...(origin ? { origin } : {}), 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,if-none-match,unleash-appname' },
  });
  const cors = (res: { headers: Headers }) => Object.fromEntries([...res.headers].filter(([k]) => k.startsWith('access-control-')));

  it('a preflight from an allowed origin: 204 with the allowed methods, headers and max-age, no token needed', async () => {
    for (const path of ['/api/frontend', '/api/frontend/client/metrics', '/api/frontend/client/register']) {
      const res = await preflight(ORIGIN, path);
      expect(res.status).toBe(204);
      expect(cors(res)).toEqual({
        'access-control-allow-origin': ORIGIN,
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'Authorization, Content-Type, If-None-Match, Unleash-AppName, Unleash-Connection-Id, Unleash-SDK',
        'access-control-max-age': '86400',
      });
      expect(res.headers.get('vary')).toMatch(/Origin/);
    }
  });

  it('a request from an allowed origin may read the answer and its ETag', async () => {
    const res = await get('', tokens.dev, { origin: ORIGIN });
    expect(res.status).toBe(200);
    expect(cors(res)).toEqual({ 'access-control-allow-origin': ORIGIN, 'access-control-expose-headers': 'ETag, Flagdeck-Stale-Since' });
    expect(res.headers.get('vary')).toMatch(/Origin/);
    // Errors too, so the browser app can read why.
    const refused = await get('', 'nope', { origin: ORIGIN });
    expect([refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([401, ORIGIN]);
  });

  it('another origin gets no CORS header: its preflight goes on to the door (401 without a token), its requests are answered without them', async () => {
    const res = await preflight('https://evil.example.com');
    expect(res.status).toBe(401);
    expect(cors(res)).toEqual({});
    expect(res.headers.get('vary')).toMatch(/Origin/);
    const answer = await get('', tokens.dev, { origin: 'https://evil.example.com' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    // Only exact origins: another scheme, port or a suffix is another origin.
    for (const origin of ['http://app.example.com', 'https://app.example.com:8443', 'https://app.example.com.evil.example']) {
      expect(cors(await preflight(origin))).toEqual({});
    }
    // Without an Origin header it is not a CORS request at all.
    expect((await preflight(null)).status).toBe(401);
  });

  it('the admin API answers with its own, wider policy (test/e2e/rest/cors.test.ts)', async () => {
    const res = await fetch(`${app.url}/api/admin/projects`, { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'GET' } });
    expect([res.status, res.headers.get('access-control-allow-origin'), res.headers.get('access-control-allow-methods')]).toEqual([204, ORIGIN, API_CORS.methods]);
  });

  it('CORS_ORIGINS `*`: every origin, answered with `*`', async () => {
    await app.close();
    app = await startTestApp({ corsOrigins: ['*'], reset: false });
    const res = await preflight('https://anywhere.example');
    expect([res.status, res.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
    expect((await get('', tokens.dev, { origin: 'https://anywhere.example' })).headers.get('access-control-allow-origin')).toBe('*');
  });

  it('no CORS_ORIGINS (the default): no CORS header for anyone, and a preflight is a request like any other', async () => {
    await app.close();
    app = await startTestApp({ reset: false });
    const res = await preflight(ORIGIN);
    expect(res.status).toBe(401);
    expect(cors(res)).toEqual({});
    expect((await get('', tokens.dev, { origin: ORIGIN })).headers.get('access-control-allow-origin')).toBeNull();
  });
});
