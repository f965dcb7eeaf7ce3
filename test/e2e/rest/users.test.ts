import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import pino from 'pino';
import { buildApp } from '../../../src/app';
import { createLogger } from '../../../src/logger';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 9: users, password login and sessions, personal access tokens, API tokens. Every test runs through the real
 * app; the log is captured so the security tests can search it for secrets.
 */
let app: TestApp;
const logLines: string[] = [];
const logSink = new Writable({ write(chunk, _enc, done) { logLines.push(String(chunk)); done(); } });

beforeAll(async () => { app = await startTestApp({ logger: pino({ level: 'trace' }, logSink) }); });
afterAll(async () => { await app.close(); });

const PASSWORD = 'Correct-Horse-42';

async function createUser(username: string, rootRole: number | string, password = PASSWORD) {
  const res = await app.post('/api/admin/user-admin', { username, email: `${username}@example.com`, name: username, password, rootRole });
  expect(res.status).toBe(201);
  return res.body as { id: number; username: string };
}

async function login(username: string, password = PASSWORD) {
  const res = await app.post('/auth/simple/login', { username, password }, { token: null });
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  return { res, cookie };
}

// JSON, as the UI sends every change: a change signed in by the session cookie must declare it (src/app.ts, cookieWriteRefusal).
const asSession = (cookie: string) => ({ token: null, headers: { cookie, 'content-type': 'application/json' } });

describe('users', () => {
  it('a fresh database has no users until start-up creates admin (the harness resets to none)', async () => {
    const res = await app.get('/api/admin/user-admin');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ users: [] });
  });

  it('creates a user (201) with the spec fields, root role by name, event without the password', async () => {
    const res = await app.post('/api/admin/user-admin', { username: 'ed', email: 'ed@example.com', name: 'Ed', password: PASSWORD, rootRole: 'editor' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number), isAPI: false, name: 'Ed', email: 'ed@example.com', username: 'ed', imageUrl: expect.stringMatching(/^https:\/\/gravatar\.com\/avatar\/[0-9a-f]{32}/),
      inviteLink: expect.stringMatching(/^http:\/\/localhost:4242\/new-user\?token=[A-Za-z0-9_-]{43}$/), loginAttempts: 0, emailSent: false, rootRole: 2, seenAt: null, createdAt: expect.any(String), accountType: 'User', permissions: [],
    });
    const [event] = await app.events('user-created');
    expect(event).toMatchObject({ createdBy: 'admin', createdByUserId: -1337, data: { id: res.body.id, username: 'ed', email: 'ed@example.com', rootRole: 2 } });
    expect(JSON.stringify(event)).not.toContain(PASSWORD);
    expect(JSON.stringify(event)).not.toMatch(/scrypt|password_hash|passwordHash/);
  });

  it('refuses a duplicate username or email in any case (409), a weak password (400), a project role as root role (400)', async () => {
    const dup = await app.post('/api/admin/user-admin', { username: 'ED', rootRole: 3 });
    expect(dup.status).toBe(409);
    expect(dup.body.name).toBe('NameExistsError');
    const dupEmail = await app.post('/api/admin/user-admin', { email: 'Ed@Example.com', rootRole: 3 });
    expect(dupEmail.status).toBe(409);
    const weak = await app.post('/api/admin/user-admin', { username: 'weak', password: 'password', rootRole: 3 });
    expect(weak.status).toBe(400);
    expect(weak.body.name).toBe('ValidationError');
    expect(weak.body.details[0].path).toBe('password');
    expect(weak.body.details[0].message).toMatch(/at least 10 characters.*upper-case/);
    const projectRole = await app.post('/api/admin/user-admin', { username: 'pr', rootRole: 4 });
    expect(projectRole.status).toBe(400);
    expect(projectRole.body.details[0].path).toBe('rootRole');
    const nobody = await app.post('/api/admin/user-admin', { name: 'No handle', rootRole: 3 });
    expect(nobody.status).toBe(400);
    const surrogate = await app.post('/api/admin/user-admin', { username: 'a\ud800b', rootRole: 3 });
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.name).toBe('ValidationError');
    expect((await app.get('/api/admin/user-admin')).body.users.map((u: { username: string }) => u.username)).toEqual(['ed']);
  });

  it('reads, updates (event with preData) and deletes a user; unknown and malformed ids are 404', async () => {
    const u = await createUser('temp', 3);
    expect((await app.get(`/api/admin/user-admin/${u.id}`)).body.username).toBe('temp');
    const upd = await app.put(`/api/admin/user-admin/${u.id}`, { name: 'Temporary', rootRole: 'Editor' });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ name: 'Temporary', rootRole: 2 });
    const [updated] = await app.events('user-updated');
    expect(updated).toMatchObject({ data: { name: 'Temporary', rootRole: 2 }, preData: { name: 'temp', rootRole: 3 } });
    expect((await app.del(`/api/admin/user-admin/${u.id}`)).status).toBe(200);
    const [deleted] = await app.events('user-deleted');
    expect(deleted.preData).toMatchObject({ id: u.id, username: 'temp' });
    for (const id of [u.id, 'abc', '0', '99999999999']) {
      const res = await app.get(`/api/admin/user-admin/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.name).toBe('NotFoundError');
    }
  });
});

describe('login, sessions and the caller', () => {
  it('logs in by username or email (any case): an HttpOnly SameSite session cookie that opens the admin API', async () => {
    await createUser('viewer1', 'Viewer');
    const { res, cookie } = await login('VIEWER1@example.com');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ username: 'viewer1', rootRole: 3, loginAttempts: 0 });
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^unleash-session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    const me = await app.get('/api/admin/user', asSession(cookie));
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ username: 'viewer1', rootRole: 3 });
    expect(me.body.permissions).toEqual([]);
  });

  it('a wrong password and an unknown user both give 401 AuthenticationRequired; failures count in loginAttempts', async () => {
    const u = await createUser('unlucky', 3);
    const wrong = await login('unlucky', 'Wrong-Password-1');
    expect(wrong.res.status).toBe(401);
    expect(wrong.res.body.name).toBe('AuthenticationRequired');
    expect(wrong.cookie).toBe('');
    const unknown = await login('nobody-at-all', PASSWORD);
    expect(unknown.res.status).toBe(401);
    expect(unknown.res.body.message).toBe(wrong.res.body.message);
    expect((await app.get(`/api/admin/user-admin/${u.id}`)).body.loginAttempts).toBe(1);
    const ok = await login('unlucky');
    expect(ok.res.status).toBe(200);
    expect((await app.get(`/api/admin/user-admin/${u.id}`)).body.loginAttempts).toBe(0);
  });

  it('after 10 failures for one account, login is refused with 429 and Retry-After, even with the right password', async () => {
    await createUser('target', 3);
    for (let i = 0; i < 10; i++) expect((await login('target', `Wrong-Pass-${i}x`)).res.status).toBe(401);
    const blocked = await login('target');
    expect(blocked.res.status).toBe(429);
    expect(blocked.res.body.name).toBe('TooManyRequestsError');
    expect(Number(blocked.res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('changing one\'s own password keeps the session it was made in and ends the others at once; an admin setting it ends them all', async () => {
    await createUser('two-sessions', 'Viewer');
    const a = (await login('two-sessions')).cookie;
    const b = (await login('two-sessions')).cookie;
    expect((await app.get('/api/admin/user', asSession(b))).status).toBe(200); // cached on this instance now
    const changed = await app.post('/api/admin/user/change-password', { password: 'Second-Horse-42', confirmPassword: 'Second-Horse-42' }, asSession(a));
    expect(changed.status).toBe(200);
    expect((await app.get('/api/admin/user', asSession(a))).status).toBe(200);
    expect((await app.get('/api/admin/user', asSession(b))).status).toBe(401);
    const id = (await app.get('/api/admin/user', asSession(a))).body.user.id;
    expect((await app.post(`/api/admin/user-admin/${id}/change-password`, { password: 'Third-Horse-42' })).status).toBe(200);
    expect((await app.get('/api/admin/user', asSession(a))).status).toBe(401);
  });

  it('logout ends the session everywhere (the row is gone); a deleted user\'s session is refused', async () => {
    await createUser('leaver', 3);
    const a = await login('leaver');
    expect((await app.get('/api/admin/user', asSession(a.cookie))).status).toBe(200);
    expect((await app.post('/auth/logout', undefined, asSession(a.cookie))).status).toBe(200);
    expect((await app.get('/api/admin/user', asSession(a.cookie))).status).toBe(401);
    const b = await login('leaver');
    const me = await app.get('/api/admin/user', asSession(b.cookie));
    expect((await app.del(`/api/admin/user-admin/${me.body.user.id}`)).status).toBe(200);
    const after = await app.get('/api/admin/user', asSession(b.cookie));
    expect(after.status).toBe(401);
    expect(after.body.name).toBe('AuthenticationRequired');
  });
});

describe('personal access tokens', () => {
  it('shows the secret once, lists without it, acts as its user, and stops working when deleted or expired', async () => {
    await createUser('pat-owner', 'Editor');
    const { cookie } = await login('pat-owner');
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = await app.post('/api/admin/user/tokens', { description: 'ci', expiresAt }, asSession(cookie));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(Number), description: 'ci', secret: expect.stringMatching(/^user:[0-9a-f]{64}$/) });
    const secret = created.body.secret as string;
    const list = await app.get('/api/admin/user/tokens', asSession(cookie));
    expect(list.body.pats).toEqual([{ id: created.body.id, description: 'ci', expiresAt, createdAt: expect.any(String), seenAt: null }]);
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(5));

    // Acts with the Editor's permissions: may create a context field, may not create an environment.
    const field = await app.post('/api/admin/context', { name: 'pat-field' }, { token: secret });
    expect(field.status).toBe(201);
    const [event] = await app.events('context-field-created');
    expect(event).toMatchObject({ createdBy: 'pat-owner', createdByUserId: created.body.id === 0 ? -1 : expect.any(Number) });
    const env = await app.post('/api/admin/environments', { name: 'pat-env', type: 'development' }, { token: secret });
    expect(env.status).toBe(403);
    expect(env.body).toMatchObject({ name: 'NoAccessError', permissions: ['ADMIN'] });
    expect(env.body.message).toContain('"ADMIN" permission');

    expect((await app.del(`/api/admin/user/tokens/${created.body.id}`, asSession(cookie))).status).toBe(200);
    const [deleted] = await app.events('pat-deleted');
    expect(deleted.preData).toMatchObject({ id: created.body.id, description: 'ci' });
    expect((await app.get('/api/admin/user', { token: secret })).status).toBe(401);

    const short = await app.post('/api/admin/user/tokens', { description: 'short', expiresAt: new Date(Date.now() + 1500).toISOString() }, asSession(cookie));
    expect(short.status).toBe(201);
    expect((await app.get('/api/admin/user', { token: short.body.secret })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2600)); // past expiry and past the 1 s credential cache
    expect((await app.get('/api/admin/user', { token: short.body.secret })).status).toBe(401);
  });

  it('refuses an expiry in the past (400) and an API token as owner (403 InvalidOperationError)', async () => {
    const { cookie } = await login('pat-owner');
    const past = await app.post('/api/admin/user/tokens', { description: 'old', expiresAt: '2001-01-01T00:00:00.000Z' }, asSession(cookie));
    expect(past.status).toBe(400);
    expect(past.body.details[0].path).toBe('expiresAt');
    const byToken = await app.post('/api/admin/user/tokens', { description: 'x', expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
    expect(byToken.status).toBe(403);
    expect(byToken.body.name).toBe('InvalidOperationError');
  });
});

describe('API tokens', () => {
  it('creates a client token in Unleash\'s format, never lists its secret, and refuses it on every admin path (403)', async () => {
    const res = await app.post('/api/admin/api-tokens', { tokenName: 'backend', type: 'CLIENT', environment: 'production', projects: ['default'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ tokenName: 'backend', type: 'client', environment: 'production', project: 'default', projects: ['default'], secret: expect.stringMatching(/^default:production\.[0-9a-f]{64}$/) });
    const list = await app.get('/api/admin/api-tokens');
    expect(list.body.tokens.find((t: { tokenName: string }) => t.tokenName === 'backend')).not.toHaveProperty('secret');
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret.split('.')[1]);
    const [event] = await app.events('api-token-created');
    expect(event).toMatchObject({ data: { tokenName: 'backend', type: 'client' }, environment: 'production', project: 'default' });
    expect(JSON.stringify(event)).not.toContain(res.body.secret.split('.')[1]);
    for (const [method, path] of [['GET', '/api/admin/tags'], ['POST', '/api/admin/tags'], ['GET', '/api/admin/user'], ['POST', '/graphql']] as const) {
      const refused = await app.request(method, path, method === 'POST' ? (path === '/graphql' ? { query: '{ tags { value } }' } : { value: 'x1' }) : undefined, { token: res.body.secret });
      expect(refused.status).toBe(403);
    }
    const frontend = await app.post('/api/admin/api-tokens', { tokenName: 'web', type: 'frontend', environment: 'development' });
    expect(frontend.body.secret).toMatch(/^\*:development\./);
    expect((await app.get('/api/admin/tags', { token: frontend.body.secret })).body.name).toBe('NoAccessError');
  });

  it('a revoked admin token is refused at once on this instance', async () => {
    const created = await app.post('/api/admin/api-tokens', { tokenName: 'temp-admin', type: 'admin' });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^\*:\*\.[0-9a-f]{64}$/);
    expect((await app.get('/api/admin/tags', { token: created.body.secret })).status).toBe(200);
    expect((await app.del(`/api/admin/api-tokens/${encodeURIComponent(created.body.secret)}`)).status).toBe(200);
    expect((await app.get('/api/admin/tags', { token: created.body.secret })).status).toBe(401);
    const [event] = await app.events('api-token-deleted');
    expect(event.preData).toMatchObject({ tokenName: 'temp-admin', type: 'admin' });
  });

  it('a revoked token is refused by another instance within a second (each instance caches credentials for 1 s)', async () => {
    // A second instance: its own app and credential cache over the same database.
    const other = buildApp({ orm: app.orm, logger: createLogger('silent') });
    const server = await new Promise<import('node:http').Server>((resolve) => { const s = other.listen(0, '127.0.0.1', () => resolve(s)); });
    const base = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
    try {
      const { secret } = (await app.post('/api/admin/api-tokens', { tokenName: 'two-instances', type: 'admin' })).body;
      const onOther = async () => (await fetch(`${base}/api/admin/tags`, { headers: { authorization: secret } })).status;
      expect(await onOther()).toBe(200); // now cached by the other instance
      expect((await app.del(`/api/admin/api-tokens/${encodeURIComponent(secret)}`)).status).toBe(200);
      const revoked = Date.now();
      // When each request left (not when its answer came back, which a loaded machine delays): none that left after the
      // other instance's cache period may be let in.
      let lastLetIn = 0;
      let status: number;
      do {
        const sent = Date.now() - revoked;
        status = await onOther();
        if (status === 200) lastLetIn = sent;
        else break;
        await new Promise((r) => setTimeout(r, 50));
      } while (Date.now() - revoked < 3000);
      expect(status).toBe(401);
      expect(lastLetIn).toBeLessThanOrEqual(1000);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('validates: unknown type, unknown environment or project, admin token for one environment, past expiry', async () => {
    const cases: Array<[unknown, string]> = [
      [{ tokenName: 'a', type: 'superuser' }, 'type'],
      [{ tokenName: 'a', type: 'client', environment: 'nowhere' }, 'environment'],
      [{ tokenName: 'a', type: 'client', projects: ['default', 'nope'] }, 'projects/1'],
      [{ tokenName: 'a', type: 'admin', environment: 'production' }, 'environment'],
      [{ tokenName: 'a', type: 'client', expiresAt: '2000-01-01T00:00:00Z' }, 'expiresAt'],
      [{ type: 'client' }, 'tokenName'],
    ];
    const before = (await app.get('/api/admin/api-tokens')).body.tokens.length;
    for (const [body, path] of cases) {
      const res = await app.post('/api/admin/api-tokens', body);
      expect(res.status).toBe(400);
      expect(res.body.name).toBe('ValidationError');
      expect(res.body.details[0].path).toBe(path);
    }
    expect((await app.get('/api/admin/api-tokens')).body.tokens.length).toBe(before);
  });

  it('an Editor may create and read client tokens but not admin tokens', async () => {
    await createUser('token-editor', 'Editor');
    const { cookie } = await login('token-editor');
    expect((await app.post('/api/admin/api-tokens', { tokenName: 'ed-client', type: 'client' }, asSession(cookie))).status).toBe(403);
    const admin = await app.post('/api/admin/api-tokens', { tokenName: 'ed-admin', type: 'admin' }, asSession(cookie));
    expect(admin.status).toBe(403);
    expect(admin.body.permissions).toEqual(['ADMIN']);
    const seen = await app.get('/api/admin/api-tokens', asSession(cookie));
    expect(seen.body.tokens.every((t: { type: string }) => t.type === 'client' || t.type === 'frontend')).toBe(true);
  });
});

describe('security of secrets', () => {
  it('no password, password hash, session id or token secret appears in any response, event or log line', async () => {
    await createUser('secretive', 'Admin');
    const { res, cookie } = await login('secretive');
    const sessionId = cookie.split('=')[1];
    const pat = await app.post('/api/admin/user/tokens', { description: 'sec', expiresAt: new Date(Date.now() + 86_400_000).toISOString() }, asSession(cookie));
    const api = await app.post('/api/admin/api-tokens', { tokenName: 'sec-client', type: 'client' });
    const hashes = (await app.orm.em.fork().execute<Array<{ password_hash: string }>>(`select password_hash from users where password_hash is not null`)).map((r) => r.password_hash);
    const secrets = [PASSWORD, sessionId, pat.body.secret.slice(5), api.body.secret.split('.')[1], ...hashes.map((h) => h.split('$').pop()!)];
    const everything = [
      JSON.stringify(res.body),
      JSON.stringify((await app.get('/api/admin/user-admin')).body),
      JSON.stringify((await app.get('/api/admin/user/tokens', asSession(cookie))).body),
      JSON.stringify((await app.get('/api/admin/api-tokens')).body),
      JSON.stringify((await app.get('/api/admin/user', asSession(cookie))).body),
      JSON.stringify(await app.events()),
      logLines.join('\n'),
    ].join('\n');
    for (const secret of secrets) expect(everything).not.toContain(secret);
    // Only the digest of the session id is stored.
    const stored = await app.orm.em.fork().execute<Array<{ plain: number; digest: number }>>(
      `select count(*) filter (where sid_hash = ?)::int as plain, count(*) filter (where sid_hash = encode(sha256(convert_to(?, 'UTF8')), 'hex'))::int as digest from user_sessions`, [sessionId, sessionId]);
    expect(stored[0]).toEqual({ plain: 0, digest: 1 });
  });
});
