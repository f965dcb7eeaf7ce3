import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ADMIN_TOKEN, startTestApp, type RequestOptions, type TestApp } from '../../support/harness';

/**
 * Cross-site request forgery with the session cookie (src/app.ts, cookieWriteRefusal): a write authenticated by the
 * cookie must declare `Content-Type: application/json`, which no form (of another port of this host, which
 * SameSite=Lax lets through) can send. Otherwise 403 ForbiddenError, and nothing changes. Writes authenticated by
 * the Authorization header (API tokens, personal access tokens), which a browser never adds on its own, are not
 * concerned, and neither are reads.
 */
let app: TestApp;
let cookie = '';
let pat = '';
const PASSWORD = 'Cookie-Editor-42';
const FLAG = 'csrf-target';
const FEATURE = `/api/admin/projects/default/features/${FLAG}`;
const ON = `${FEATURE}/environments/development/on`;
const OFF = `${FEATURE}/environments/development/off`;

beforeAll(async () => {
  app = await startTestApp();
  expect((await app.post('/api/admin/user-admin', { username: 'cookie-editor', password: PASSWORD, rootRole: 'Editor' })).status).toBe(201);
  const login = await app.post('/auth/simple/login', { username: 'cookie-editor', password: PASSWORD }, { token: null });
  expect(login.status).toBe(200);
  cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  expect(cookie).toMatch(/^unleash-session=./);
  const created = await app.post('/api/admin/user/tokens', { description: 'csrf', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } });
  expect(created.status).toBe(201);
  pat = created.body.secret;
  expect((await app.post('/api/admin/projects/default/features', { name: FLAG })).status).toBe(201);
});
afterAll(async () => { await app.close(); });

/** With the session cookie only (no Authorization header), plus these headers. */
const withCookie = (headers: Record<string, string> = {}, raw?: string): RequestOptions => ({ token: null, headers: { cookie, ...headers }, raw });

const isOn = async () => (await app.get(FEATURE)).body.environments.find((e: { name: string }) => e.name === 'development').enabled as boolean;
const enabledEvents = async () => (await app.events('feature-environment-enabled')).filter((e) => e.featureName === FLAG).length;

async function switchOff(): Promise<void> {
  expect((await app.post(OFF)).status).toBe(200);
  expect(await isOn()).toBe(false);
}

// What a page on another origin can make a browser send with the cookie and no preflight: a form's POST.
const FORGEABLE: Array<[string, Record<string, string>, string | undefined]> = [
  ['a text/plain body', { 'content-type': 'text/plain' }, '{"enabled":true}'],
  ['an application/x-www-form-urlencoded body', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'],
  ['a multipart/form-data body', { 'content-type': 'multipart/form-data; boundary=x' }, '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'],
  ['a form without fields (urlencoded, no body)', { 'content-type': 'application/x-www-form-urlencoded' }, undefined],
  ['no body and no Content-Type', {}, undefined],
  ['text/plain naming application/json in a parameter', { 'content-type': 'text/plain; x=application/json' }, 'x'],
];

describe('a write with only the session cookie', () => {
  it.each(FORGEABLE)('with %s is refused with 403 ForbiddenError saying what to send, and changes nothing', async (_what, headers, raw) => {
    const before = await enabledEvents();
    const res = await app.post(ON, undefined, withCookie(headers, raw));
    expect([res.status, res.body.name]).toEqual([403, 'ForbiddenError']);
    expect(Object.keys(res.body).sort()).toEqual(['id', 'message', 'name']);
    expect(res.body.message).toContain('Content-Type: application/json');
    expect(res.body.message).toContain('Authorization header');
    expect(await isOn()).toBe(false);
    expect(await enabledEvents()).toBe(before);
  });

  it('the same POST declaring application/json works, with no body or a JSON body', async () => {
    const bodiless = await app.post(ON, undefined, withCookie({ 'content-type': 'application/json' }));
    expect(bodiless.status).toBe(200);
    expect(await isOn()).toBe(true);
    await switchOff();
    const json = await app.post(ON, {}, withCookie());
    expect(json.status).toBe(200);
    expect(await isOn()).toBe(true);
    await switchOff();
  });

  it('the rule holds for every writing method (PUT, PATCH, DELETE), not only POST', async () => {
    expect((await app.post('/api/admin/tags', { type: 'simple', value: 'csrf-tag' })).status).toBe(201);
    const tag = '/api/admin/tags/simple/csrf-tag';
    const refused = await app.del(tag, withCookie());
    expect([refused.status, refused.body.name]).toEqual([403, 'ForbiddenError']);
    expect((await app.get(tag)).status).toBe(200);
    const patch = await app.request('PATCH', FEATURE, undefined, withCookie({ 'content-type': 'text/plain' }, '[{"op":"replace","path":"/description","value":"forged"}]'));
    expect([patch.status, patch.body.name]).toEqual([403, 'ForbiddenError']);
    const put = await app.put(FEATURE, undefined, withCookie({ 'content-type': 'text/plain' }, '{"description":"forged"}'));
    expect([put.status, put.body.name]).toEqual([403, 'ForbiddenError']);
    expect((await app.get(FEATURE)).body.description).not.toBe('forged');
    expect((await app.del(tag, withCookie({ 'content-type': 'application/json' }))).status).toBe(200);
    expect((await app.get(tag)).status).toBe(404);
  });

  it('reads need nothing more than the cookie', async () => {
    expect((await app.get(FEATURE, withCookie())).status).toBe(200);
    expect((await app.request('HEAD', FEATURE, undefined, withCookie())).status).toBe(200);
  });

  it('an anonymous form POST is still 401 AuthenticationRequired (the session is looked at first)', async () => {
    const res = await app.post(ON, undefined, { token: null, headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: 'a=1' });
    expect([res.status, res.body.name]).toEqual([401, 'AuthenticationRequired']);
  });
});

describe('writes authenticated by the Authorization header are not concerned', () => {
  it.each([
    ['a personal access token', () => pat],
    ['an admin API token', () => ADMIN_TOKEN],
  ])('the same body-less form POST with %s works (the cookie sent along or not)', async (_what, token) => {
    const form = 'application/x-www-form-urlencoded';
    for (const headers of [{ 'content-type': form }, { 'content-type': form, cookie }] as Array<Record<string, string>>) {
      const res = await app.post(ON, undefined, { token: token(), headers });
      expect(res.status).toBe(200);
      expect(await isOn()).toBe(true);
      await switchOff();
    }
  });
});

describe('GraphQL with the session cookie', () => {
  const mutation = `mutation { setFeatureEnvironmentEnabled(input: { project: "default", feature: "${FLAG}", environment: "development", enabled: true }) { enabled } }`;

  it('a mutation posted as text/plain, or with no Content-Type, is refused in GraphQL\'s shape and changes nothing', async () => {
    const text = await app.post('/graphql', undefined, withCookie({ 'content-type': 'text/plain' }, JSON.stringify({ query: mutation })));
    expect(text.status).toBe(403);
    expect(text.body.errors[0].extensions).toMatchObject({ name: 'ForbiddenError', code: 403 });
    const none = await app.post('/graphql', undefined, withCookie());
    expect(none.body.errors[0].extensions).toMatchObject({ name: 'ForbiddenError', code: 403 });
    expect(await isOn()).toBe(false);
  });

  it('a mutation over GET (a link or an image on another page) is refused by graphql-yoga, and changes nothing', async () => {
    const res = await app.get(`/graphql?query=${encodeURIComponent(mutation)}`, withCookie({ accept: 'application/json' }));
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe('Can only perform a mutation operation from a POST request.');
    expect(await isOn()).toBe(false);
  });

  it('GraphiQL and the UI (JSON POSTs with the cookie) keep working: queries and mutations', async () => {
    const query = await app.post('/graphql', { query: '{ me { user { username } } }' }, withCookie());
    expect(query.body.data.me.user.username).toBe('cookie-editor');
    const switched = await app.post('/graphql', { query: mutation }, withCookie());
    expect(switched.body.data.setFeatureEnvironmentEnabled.enabled).toBe(true);
    expect(await isOn()).toBe(true);
    await switchOff();
  });
});

describe('signing in and out', () => {
  it('login takes only JSON: a form cannot sign a browser in to another account (login CSRF)', async () => {
    const form = await app.post('/auth/simple/login', undefined, { token: null, headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: `username=cookie-editor&password=${PASSWORD}` });
    expect([form.status, form.body.name]).toEqual([415, 'ContentTypeerror']);
    expect(form.headers.get('set-cookie')).toBeNull();
    const text = await app.post('/auth/simple/login', undefined, { token: null, headers: { 'content-type': 'text/plain' }, raw: JSON.stringify({ username: 'cookie-editor', password: PASSWORD }) });
    expect([text.status, text.headers.get('set-cookie')]).toEqual([415, null]);
  });

  it('the UI\'s JSON login and logout work as before', async () => {
    const login = await app.post('/auth/simple/login', { username: 'cookie-editor', password: PASSWORD }, { token: null });
    const session = (login.headers.get('set-cookie') ?? '').split(';')[0];
    expect((await app.post(ON, {}, { token: null, headers: { cookie: session } })).status).toBe(200);
    await switchOff();
    expect((await app.post('/auth/logout', {}, { token: null, headers: { cookie: session } })).status).toBe(200);
    expect((await app.get(FEATURE, { token: null, headers: { cookie: session } })).status).toBe(401);
  });
});
