import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import pino from 'pino';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 10, part 1: public signup tokens (spec endpoint 7, decision D4) and the invite links built on them, end to end
 * over HTTP. The log is captured at trace level so the last test can search it for secrets.
 */
let app: TestApp;
const logLines: string[] = [];
const logSink = new Writable({ write(chunk, _enc, done) { logLines.push(String(chunk)); done(); } });

beforeAll(async () => { app = await startTestApp({ logger: pino({ level: 'trace' }, logSink) }); });
afterAll(async () => { await app.close(); });

const T = '/api/admin/invite-link/tokens';
const PASSWORD = 'Signup-Pass-42';
const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const secrets: string[] = [];

async function createToken(body: Record<string, unknown> = {}) {
  const res = await app.post(T, { name: 'Team link', expiresAt: inDays(7), ...body });
  expect(res.status).toBe(201);
  secrets.push(res.body.secret);
  return res.body;
}

/** A user with the given root role and a session cookie. */
async function userSession(username: string, rootRole: string) {
  expect((await app.post('/api/admin/user-admin', { username, password: PASSWORD, rootRole })).status).toBe(201);
  const res = await app.post('/auth/simple/login', { username, password: PASSWORD }, { token: null });
  return { token: null, headers: { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] } };
}

const signup = (secret: string, body: Record<string, unknown>) => app.post(`/invite/${encodeURIComponent(secret)}/signup`, body, { token: null });

describe('creating and reading signup tokens', () => {
  it('creates a token (201): the whole Public signup token, Viewer by default, created by the caller, event without the secret', async () => {
    const expiresAt = inDays(7);
    const res = await app.post(T, { name: 'Team link', expiresAt });
    expect(res.status).toBe(201);
    secrets.push(res.body.secret);
    expect(res.body).toEqual({
      secret: expect.stringMatching(/^[0-9a-f]{32}$/),
      url: `http://localhost:4242/new-user?invite=${res.body.secret}`,
      name: 'Team link', enabled: true, expiresAt, createdAt: expect.any(String), createdBy: 'admin', users: [],
      role: { id: 3, name: 'Viewer', type: 'root', description: expect.any(String) },
    });
    expect(res.headers.get('location')).toBe(`invite-link/tokens/${res.body.secret}`);
    const [event] = await app.events('public-signup-token-created');
    expect(event).toMatchObject({ createdBy: 'admin', data: { name: 'Team link', enabled: true, expiresAt, role: 'Viewer' } });
    expect(JSON.stringify(event)).not.toContain(res.body.secret);
  });

  it('caps the expiry at one month ahead at creation; a role is given by id or name', async () => {
    const far = await createToken({ expiresAt: inDays(400), role: 'Editor' });
    const cap = new Date(far.expiresAt).getTime();
    expect(cap).toBeGreaterThan(Date.now() + 27 * DAY);
    expect(cap).toBeLessThanOrEqual(Date.now() + 31 * DAY + 1000);
    expect(far.role).toMatchObject({ id: 2, name: 'Editor', type: 'root' });
    expect((await createToken({ role: 1 })).role).toMatchObject({ id: 1, name: 'Admin' });
  });

  it('refuses bad input with 400 ValidationError naming the property, and writes nothing', async () => {
    const before = (await app.get(T)).body.tokens.length;
    const cases: Array<[unknown, string]> = [
      [{ expiresAt: inDays(1) }, 'name'],
      [{ name: 'x' }, 'expiresAt'],
      [{ name: 'x', expiresAt: 'tomorrow' }, 'expiresAt'],
      [{ name: 'x', expiresAt: inDays(-1) }, 'expiresAt'],
      [{ name: '  ', expiresAt: inDays(1) }, 'name'],
      [{ name: 'x', expiresAt: inDays(1), role: 'Owner' }, 'role'],
      [{ name: 'x', expiresAt: inDays(1), role: 'NoSuchRole' }, 'role'],
      [{ name: 'x', expiresAt: inDays(1), users: [] }, 'users'],
    ];
    for (const [body, path] of cases) {
      const res = await app.post(T, body);
      expect({ body, status: res.status, name: res.body.name, path: res.body.details?.[0]?.path }).toEqual({ body, status: 400, name: 'ValidationError', path });
    }
    expect((await app.get(T)).body.tokens).toHaveLength(before);
  });

  it('lists tokens and reads one by its secret (200); an unknown secret is 404 NotFoundError', async () => {
    const token = await createToken({ name: 'Readable' });
    const list = await app.get(T);
    expect(list.status).toBe(200);
    expect(list.body.tokens.find((t: { secret: string }) => t.secret === token.secret)).toEqual(token);
    const one = await app.get(`${T}/${token.secret}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(token);
    const missing = await app.get(`${T}/0123456789abcdef0123456789abcdef`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ name: 'NotFoundError', message: 'Could not find public signup token.' });
  });
});

describe('updating a signup token (spec endpoint 7)', () => {
  it('200: the whole token with role and users; only the sent keys change; event names the token, never its secret', async () => {
    const token = await createToken({ name: 'Updatable', role: 'Editor' });
    const later = inDays(90);
    const res = await app.put(`${T}/${token.secret}`, { expiresAt: later });
    expect(res.status).toBe(200);
    // Unleash does not cap the expiry on update.
    expect(res.body).toEqual({ ...token, expiresAt: later });
    const [event] = await app.events('public-signup-token-updated');
    expect(event).toMatchObject({ createdBy: 'admin', data: { name: 'Updatable', expiresAt: later }, preData: null });
    expect(event.data).not.toHaveProperty('enabled');
    expect(JSON.stringify(event)).not.toContain(token.secret);

    const off = await app.put(`${T}/${token.secret}`, { enabled: false });
    expect(off.body).toEqual({ ...token, expiresAt: later, enabled: false });
    expect((await app.events('public-signup-token-updated'))[0].data).toEqual({ name: 'Updatable', enabled: false });
    const on = await app.put(`${T}/${token.secret}`, { enabled: true, expiresAt: token.expiresAt });
    expect(on.body).toEqual(token);
  });

  it('400 ValidationError for an unknown key, a bad date, a wrong type or an empty body; nothing changes', async () => {
    const token = await createToken({ name: 'Strict' });
    const cases: Array<[unknown, string]> = [
      [{ enabled: false, name: 'renamed' }, 'name'],
      [{ expiresAt: '2024-13-45' }, 'expiresAt'],
      [{ expiresAt: 'soon' }, 'expiresAt'],
      [{ enabled: 'no' }, 'enabled'],
      [{}, ''],
      [[], ''],
    ];
    for (const [body, path] of cases) {
      const res = await app.put(`${T}/${token.secret}`, body);
      expect({ body, status: res.status, name: res.body.name, path: res.body.details?.[0]?.path }).toEqual({ body, status: 400, name: 'ValidationError', path });
    }
    expect((await app.get(`${T}/${token.secret}`)).body).toEqual(token);
  });

  it('404 for an unknown secret, 401 without credentials, 403 for a non-admin, 415 for a non-JSON body', async () => {
    const token = await createToken({ name: 'Guarded' });
    const missing = await app.put(`${T}/ffffffffffffffffffffffffffffffff`, { enabled: false });
    expect(missing.status).toBe(404);
    expect(missing.body.name).toBe('NotFoundError');
    const anonymous = await app.put(`${T}/${token.secret}`, { enabled: false }, { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.name).toBe('AuthenticationRequired');
    const editor = await userSession('token-editor', 'Editor');
    for (const res of [await app.put(`${T}/${token.secret}`, { enabled: false }, editor), await app.post(T, { name: 'x', expiresAt: inDays(1) }, editor), await app.get(T, editor), await app.get(`${T}/${token.secret}`, editor)]) {
      expect(res.status).toBe(403);
      expect(res.body.name).toBe('NoAccessError');
    }
    const text = await app.put(`${T}/${token.secret}`, undefined, { raw: 'enabled=false', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body.name).toBe('ContentTypeerror');
    expect((await app.get(`${T}/${token.secret}`)).body).toEqual(token);
  });

  it('D4: an expired token reports enabled false in every response (PUT, GET one, the list), whatever is stored', async () => {
    const token = await createToken({ name: 'Expiring' });
    const past = new Date(Date.now() - 60_000).toISOString();
    const res = await app.put(`${T}/${token.secret}`, { expiresAt: past });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ enabled: false, expiresAt: past });
    expect((await app.get(`${T}/${token.secret}`)).body.enabled).toBe(false);
    expect((await app.get(T)).body.tokens.find((t: { secret: string }) => t.secret === token.secret).enabled).toBe(false);
    // The stored flag is still on: enabling an expired token does not make it usable.
    const [stored] = await app.orm.em.fork().execute('select enabled from public_signup_tokens where secret = ?', [token.secret]);
    expect(stored.enabled).toBe(true);
    expect((await app.put(`${T}/${token.secret}`, { enabled: true })).body.enabled).toBe(false);
    // Expiry passing on its own (not through the API) is reported the same way.
    const other = await createToken({ name: 'Lapsing' });
    await app.orm.em.fork().execute(`update public_signup_tokens set expires_at = now() - interval '1 second' where secret = ?`, [other.secret]);
    expect((await app.get(`${T}/${other.secret}`)).body.enabled).toBe(false);
  });
});

describe('signing up with an invite link', () => {
  it('validate answers 200 for a usable link; signup creates the user with the token role, listed in the token, who can log in', async () => {
    const token = await createToken({ name: 'Editors', role: 'Editor' });
    const valid = await app.get(`/invite/${token.secret}/validate`, { token: null });
    expect(valid.status).toBe(200);
    const res = await signup(token.secret, { name: 'Newcomer', email: 'Newcomer@Example.com', username: 'newcomer', password: PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: expect.any(Number), name: 'Newcomer', email: 'Newcomer@Example.com', username: 'newcomer', rootRole: 2, isAPI: false });
    expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
    const read = await app.get(`${T}/${token.secret}`);
    expect(read.body.users).toEqual([expect.objectContaining({ id: res.body.id, email: 'Newcomer@Example.com' })]);
    const [added] = await app.events('public-signup-token-user-added');
    expect(added).toMatchObject({ createdBy: 'newcomer', data: { name: 'Editors', userId: res.body.id } });
    expect(JSON.stringify(added)).not.toContain(token.secret);
    const [created] = await app.events('user-created');
    expect(created.data).toMatchObject({ id: res.body.id, rootRole: 2 });
    const login = await app.post('/auth/simple/login', { username: 'newcomer@example.com', password: PASSWORD }, { token: null });
    expect(login.status).toBe(200);
    expect(login.body.rootRole).toBe(2);
  });

  it('a disabled, an expired and an unknown link are refused (validate 400, signup 400) and create no user', async () => {
    const disabled = await createToken({ name: 'Disabled' });
    await app.put(`${T}/${disabled.secret}`, { enabled: false });
    const expired = await createToken({ name: 'Expired' });
    await app.orm.em.fork().execute(`update public_signup_tokens set expires_at = now() - interval '1 second' where secret = ?`, [expired.secret]);
    const users = (await app.get('/api/admin/user-admin')).body.users.length;
    for (const secret of [disabled.secret, expired.secret, '0123456789abcdef0123456789abcdef']) {
      const check = await app.get(`/invite/${secret}/validate`, { token: null });
      expect(check.status).toBe(400);
      expect(check.body).toMatchObject({ name: 'ValidationError', details: [{ path: 'secret' }] });
      const res = await signup(secret, { name: 'Late', email: `late-${secret.slice(0, 6)}@example.com`, password: PASSWORD });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ name: 'ValidationError', details: [{ path: 'secret' }] });
    }
    expect((await app.get('/api/admin/user-admin')).body.users).toHaveLength(users);
    // Enabled again (and extended), the link works.
    await app.put(`${T}/${expired.secret}`, { expiresAt: inDays(2) });
    expect((await app.get(`/invite/${expired.secret}/validate`, { token: null })).status).toBe(200);
  });

  it('refuses a weak password, a bad email, unknown keys (400 naming the property) and a taken email (409)', async () => {
    const token = await createToken({ name: 'Strict signup' });
    const cases: Array<[unknown, string]> = [
      [{ name: 'A', email: 'a@example.com', password: 'short' }, 'password'],
      [{ name: 'A', email: 'not-an-email', password: PASSWORD }, 'email'],
      [{ name: 'A', email: 'a@example.com', password: PASSWORD, rootRole: 1 }, 'rootRole'],
      [{ email: 'a@example.com', password: PASSWORD }, 'name'],
    ];
    for (const [body, path] of cases) {
      const res = await signup(token.secret, body as Record<string, unknown>);
      expect({ body, status: res.status, name: res.body.name, path: res.body.details?.[0]?.path }).toEqual({ body, status: 400, name: 'ValidationError', path });
    }
    expect((await signup(token.secret, { name: 'B', email: 'b@example.com', password: PASSWORD })).status).toBe(201);
    const again = await signup(token.secret, { name: 'B2', email: 'B@EXAMPLE.COM', password: PASSWORD });
    expect(again.status).toBe(409);
    expect(again.body.name).toBe('NameExistsError');
    expect((await app.get(`${T}/${token.secret}`)).body.users).toHaveLength(1);
  });

  it('parallel signups with one link: each gets its user, its listing and its event', async () => {
    const token = await createToken({ name: 'Crowd' });
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => signup(token.secret, { name: `P${i}`, email: `p${i}@crowd.example`, password: PASSWORD })));
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect((await app.get(`${T}/${token.secret}`)).body.users).toHaveLength(8);
    const added = (await app.events('public-signup-token-user-added')).filter((e) => e.data.name === 'Crowd');
    expect(added.map((e) => e.data.userId).sort()).toEqual(replies.map((r) => r.body.id).sort());
  });

  it('a role given by a signup link cannot be deleted while the link exists (400 RoleInUseError)', async () => {
    const role = await app.post('/api/admin/roles', { name: 'Signup auditors', type: 'root-custom', permissions: [] });
    expect(role.status).toBe(200);
    await createToken({ name: 'Auditors', role: role.body.roles.id });
    const del = await app.del(`/api/admin/roles/${role.body.roles.id}`);
    expect(del.status).toBe(400);
    expect(del.body).toMatchObject({ name: 'RoleInUseError', message: expect.stringContaining('signup link') });
  });

  it('no signup secret appears in any event or log line', async () => {
    // Unexpected and refused requests on public paths are what would be logged: make some.
    await app.get('/invite/0123456789abcdef0123456789abcdef/validate', { token: null });
    await app.post(`/invite/${secrets[0]}/signup`, undefined, { token: null, raw: '{"name":', headers: { 'content-type': 'application/json' } });
    const events = JSON.stringify((await app.orm.em.fork().execute('select data, pre_data from events')));
    const log = logLines.join('\n');
    expect(secrets.length).toBeGreaterThan(10);
    for (const secret of secrets) {
      expect(events).not.toContain(secret);
      expect(log).not.toContain(secret);
    }
  });
});

describe('cost', () => {
  it('the token list reads every token and every signed-up user in the same number of statements, however many there are', async () => {
    const count = async () => {
      app.resetQueryCount();
      expect((await app.get(T)).status).toBe(200);
      return app.queries.filter((q) => /public_signup/.test(q)).length;
    };
    await createToken({ name: 'Bulk first' });
    const few = await count();
    for (let i = 0; i < 5; i++) {
      const token = await createToken({ name: `Bulk ${i}` });
      await signup(token.secret, { name: `Bulk ${i}`, email: `bulk${i}@cost.example`, password: PASSWORD });
    }
    expect(few).toBe(2);
    expect(await count()).toBe(few);
  });
});
