import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_CORS, FRONTEND_CORS } from '../../../src/rest/cors';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 15 part 4: CORS_ORIGINS applies to every path. A preflight from a listed origin is answered without a token;
 * answers to a listed origin (errors included) carry Access-Control-Allow-Origin and Vary: Origin; another origin gets
 * no CORS header; without CORS_ORIGINS nobody does. Credentials (cookies) are never allowed. The frontend API keeps its
 * own narrower policy (test/e2e/rest/frontend-api.test.ts).
 */
const ORIGIN = 'https://admin.example.com';
const OTHER = 'https://evil.example.com';
let app: TestApp;
let clientToken: string;

beforeAll(async () => {
  app = await startTestApp({ corsOrigins: [ORIGIN, 'http://localhost:3000'] });
  const created = await app.post('/api/admin/api-tokens', { tokenName: 'cors-client', type: 'client', environment: 'development', projects: ['*'] });
  expect(created.status).toBe(201);
  clientToken = created.body.secret;
});
afterAll(async () => { await app.close(); });

const cors = (res: { headers: Headers }) => Object.fromEntries([...res.headers].filter(([k]) => k.startsWith('access-control-')));
const preflight = (path: string, origin: string | null, method = 'POST') => fetch(`${app.url}${path}`, {
  method: 'OPTIONS',
  headers: { ...(origin ? { origin } : {}), 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type,if-none-match' },
});
const send = (method: string, path: string, { origin, token, body }: { origin?: string; token?: string | null; body?: unknown }) => fetch(`${app.url}${path}`, {
  method,
  headers: { ...(origin ? { origin } : {}), ...(token ? { authorization: token } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  body: body === undefined ? undefined : JSON.stringify(body),
});

/** Every door of the service: admin API, GraphQL, the client API (both fast paths), login, invite links, health, an unknown path. */
const PATHS = ['/api/admin/projects', '/api/admin/features-batch/export', '/graphql', '/api/client/features', '/api/client/metrics', '/auth/simple/login', '/invite/some-token/validate', '/health', '/nowhere'];

describe('CORS_ORIGINS on every path', () => {
  it('a preflight from a listed origin is answered 204 without a token, with the methods and the requested headers', async () => {
    for (const path of PATHS) {
      for (const origin of [ORIGIN, 'http://localhost:3000']) {
        const res = await preflight(path, origin);
        expect([path, res.status]).toEqual([path, 204]);
        expect(cors(res)).toEqual({
          'access-control-allow-origin': origin,
          'access-control-allow-methods': API_CORS.methods,
          'access-control-allow-headers': API_CORS.headers,
          'access-control-max-age': '86400',
        });
        expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
        expect(await res.text()).toBe('');
      }
    }
    // Every header a preflight above asked for, and every method the API answers, is allowed.
    for (const header of ['Authorization', 'Content-Type', 'If-None-Match']) expect(API_CORS.headers.split(', ')).toContain(header);
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) expect(API_CORS.methods.split(', ')).toContain(method);
  });

  it('answers to a listed origin carry Access-Control-Allow-Origin, readable headers and Vary: Origin, errors included; never credentials', async () => {
    const answers = [
      await send('GET', '/api/admin/projects', { origin: ORIGIN, token: ADMIN_TOKEN }),
      await send('GET', '/api/admin/projects', { origin: ORIGIN }), // 401
      await send('POST', '/graphql', { origin: ORIGIN, token: ADMIN_TOKEN, body: { query: '{ tags { value } }' } }),
      await send('POST', '/graphql', { origin: ORIGIN, body: { query: '{ tags { value } }' } }), // 401
      await send('GET', '/api/client/features', { origin: ORIGIN, token: clientToken }),
      await send('POST', '/auth/simple/login', { origin: ORIGIN, body: { username: 'nobody', password: 'wrong' } }),
      await send('GET', '/health', { origin: ORIGIN }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 200, 401, 200, 401, 200]);
    for (const res of answers) {
      expect(cors(res)).toEqual({ 'access-control-allow-origin': ORIGIN, 'access-control-expose-headers': API_CORS.expose });
      expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
    }
  });

  it('the SDK fast paths hand a request with an Origin header to Express: same answer, with CORS headers', async () => {
    const plain = await send('GET', '/api/client/features', { token: clientToken });
    const fromBrowser = await send('GET', '/api/client/features', { origin: ORIGIN, token: clientToken });
    expect([plain.status, fromBrowser.status]).toEqual([200, 200]);
    expect(await fromBrowser.json()).toEqual(await plain.json());
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    expect(fromBrowser.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const etag = fromBrowser.headers.get('etag')!;
    const revalidated = await fetch(`${app.url}/api/client/features`, { headers: { origin: ORIGIN, authorization: clientToken, 'if-none-match': etag } });
    expect([revalidated.status, revalidated.headers.get('access-control-allow-origin')]).toEqual([304, ORIGIN]);

    const now = new Date();
    const report = { appName: 'cors-app', instanceId: 'cors-1', bucket: { start: now.toISOString(), stop: new Date(now.getTime() + 10_000).toISOString(), toggles: {} } };
    const metrics = await send('POST', '/api/client/metrics', { origin: ORIGIN, token: clientToken, body: report });
    expect([metrics.status, metrics.headers.get('access-control-allow-origin')]).toEqual([202, ORIGIN]);
  });

  it('another origin gets no CORS header: its preflight is a request like any other (401 where a token is needed)', async () => {
    for (const path of ['/api/admin/projects', '/graphql', '/api/client/features']) {
      const res = await preflight(path, OTHER, 'GET');
      expect([path, res.status, cors(res)]).toEqual([path, 401, {}]);
      expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
    }
    const answer = await send('GET', '/api/admin/projects', { origin: OTHER, token: ADMIN_TOKEN });
    expect([answer.status, cors(answer)]).toEqual([200, {}]);
    // Exact origins only: another scheme, port or a longer host is another origin.
    for (const origin of ['http://admin.example.com', 'https://admin.example.com:8443', 'https://admin.example.com.evil.example', 'null']) {
      expect(cors(await preflight('/api/admin/projects', origin))).toEqual({});
    }
    // Without an Origin header it is not a CORS request at all.
    expect((await preflight('/api/admin/projects', null)).status).toBe(401);
  });

  it('the frontend API keeps its own policy', async () => {
    const res = await preflight('/api/frontend', ORIGIN, 'GET');
    expect([res.status, res.headers.get('access-control-allow-methods'), res.headers.get('access-control-allow-headers')]).toEqual([204, FRONTEND_CORS.methods, FRONTEND_CORS.headers]);
  });
});

describe('CORS_ORIGINS `*` and unset', () => {
  it('`*`: every origin, answered with `*` (no credentials)', async () => {
    await app.close();
    app = await startTestApp({ corsOrigins: ['*'], reset: false });
    for (const path of ['/api/admin/projects', '/graphql']) {
      const res = await preflight(path, 'https://anywhere.example');
      expect([res.status, res.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
    }
    const answer = await send('GET', '/api/admin/projects', { origin: 'https://anywhere.example', token: ADMIN_TOKEN });
    expect(cors(answer)).toEqual({ 'access-control-allow-origin': '*', 'access-control-expose-headers': API_CORS.expose });
  });

  it('unset (the default): no CORS header anywhere, and a preflight is a request like any other', async () => {
    await app.close();
    app = await startTestApp({ reset: false });
    for (const path of ['/api/admin/projects', '/graphql', '/api/client/features', '/api/frontend']) {
      const res = await preflight(path, ORIGIN, 'GET');
      expect([path, res.status, cors(res)]).toEqual([path, 401, {}]);
    }
    for (const res of [await send('GET', '/api/admin/projects', { origin: ORIGIN, token: ADMIN_TOKEN }), await send('GET', '/health', { origin: ORIGIN }), await send('GET', '/api/client/features', { origin: ORIGIN, token: clientToken })]) {
      expect([res.status, cors(res)]).toEqual([200, {}]);
    }
  });
});
