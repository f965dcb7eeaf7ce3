import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LOGIN_FAILURES_PER_ACCOUNT } from '../../../src/rest/auth.routes';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 27, defects 2 and 3: a person is an id. Usernames and e-mails share one case-insensitive namespace (so a name
 * signs in as one user), change requests decide who authored or reviewed by id, and the login limit counts per
 * account whatever spelling names it, taking its point before the password is checked.
 */
let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

const PASSWORD = 'Identity-Pass-42';

async function createUser(body: Record<string, unknown>): Promise<number> {
  const res = await app.post('/api/admin/user-admin', { rootRole: 'Viewer', password: PASSWORD, ...body });
  expect(res.status).toBe(201);
  return Number(res.body.id);
}

const login = (username: string, password = PASSWORD) => app.post('/auth/simple/login', { username, password }, { token: null });

/** A login sent from another local address (127.0.0.0/8 is all loopback): the status. */
function loginFrom(localAddress: string, username: string, password: string): Promise<number> {
  const url = new URL('/auth/simple/login', app.url);
  const body = JSON.stringify({ username, password });
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function inviteLink(): Promise<string> {
  const res = await app.post('/api/admin/invite-link/tokens', { name: `link-${Math.random()}`, expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
  expect(res.status).toBe(201);
  return res.body.secret;
}

describe('usernames and e-mails share one namespace', () => {
  it("an invite-link signup cannot take another user's e-mail as its username (any case): 409 naming the property, nothing created", async () => {
    const victim = await createUser({ email: 'victim@example.com', name: 'Victim' });
    const secret = await inviteLink();
    const signup = await app.post(`/invite/${secret}/signup`, { name: 'Mallory', email: 'mallory@example.com', username: 'VICTIM@example.com', password: PASSWORD }, { token: null });
    expect(signup.status).toBe(409);
    expect(signup.body).toMatchObject({ name: 'NameExistsError', details: [{ path: 'username' }] });
    expect(signup.body.message).toMatch(/username VICTIM@example.com is already the username or email of another user/);
    expect((await app.get('/api/admin/user-admin')).body.users.map((u: { email: string | null }) => u.email)).not.toContain('mallory@example.com');
    // The victim still signs in with their e-mail, as themselves.
    const signedIn = await login('victim@EXAMPLE.com');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.id).toBe(victim);
  });

  it("nor the reverse: an e-mail equal to another user's username, on create, signup and update", async () => {
    await createUser({ username: 'owner@example.com' });
    const created = await app.post('/api/admin/user-admin', { email: 'Owner@Example.com', rootRole: 'Viewer' });
    expect([created.status, created.body.name, created.body.details?.[0]?.path]).toEqual([409, 'NameExistsError', 'email']);
    const signup = await app.post(`/invite/${await inviteLink()}/signup`, { name: 'Other', email: 'OWNER@example.com', password: PASSWORD }, { token: null });
    expect([signup.status, signup.body.details?.[0]?.path]).toEqual([409, 'email']);
    const other = await createUser({ email: 'other@example.com' });
    const updated = await app.put(`/api/admin/user-admin/${other}`, { email: 'owner@EXAMPLE.com' });
    expect([updated.status, updated.body.details?.[0]?.path]).toEqual([409, 'email']);
    expect((await app.get(`/api/admin/user-admin/${other}`)).body.email).toBe('other@example.com');
    // One's own username as one's e-mail is fine.
    await createUser({ username: 'self@example.com', email: 'SELF@example.com' });
  });

  it('the database refuses the clash too (what a request losing a race meets), naming the property', async () => {
    await createUser({ email: 'raced@example.com' });
    const [{ id: viewer }] = await app.orm.em.fork().execute<Array<{ id: number }>>(`select id from roles where name = 'Viewer'`);
    let caught: any;
    try {
      await app.orm.em.fork().execute(`insert into users (username, root_role_id) values ('RACED@example.com', ?)`, [viewer]);
    } catch (err) { caught = err; }
    expect([caught?.code, caught?.constraint]).toEqual(['23505', 'user_login_names_username_taken']);
    // Concurrent signups of the same name as username and as e-mail: exactly one wins.
    const secret = await inviteLink();
    const [a, b] = await Promise.all([
      app.post(`/invite/${secret}/signup`, { name: 'A', email: 'a-twin@example.com', username: 'twin@example.com', password: PASSWORD }, { token: null }),
      app.post(`/invite/${secret}/signup`, { name: 'B', email: 'twin@example.com', password: PASSWORD }, { token: null }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.body.name).toBe('NameExistsError');
  });
});

describe('change requests decide who is who by id', () => {
  const P = '/api/admin/projects/ident';
  const CR = `${P}/environments/production/change-requests`;
  let userToken = '';
  let sameNameToken = '';

  beforeAll(async () => {
    await app.post('/api/admin/projects', { id: 'ident', name: 'Identity' });
    await app.post(`${P}/environments`, { environment: 'production' });
    await app.put(`${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 1 });
    await app.post(`${P}/features`, { name: 'ident-f' });
    // An Editor identified by e-mail only, and an admin API token that carries the same name.
    const id = await createUser({ email: 'carol@example.com', rootRole: 'Editor' });
    await app.post(`${P}/access`, { roles: [4], users: [id] });
    const cookie = ((await login('carol@example.com')).headers.get('set-cookie') ?? '').split(';')[0];
    userToken = (await app.post('/api/admin/user/tokens', { description: 'id test', expiresAt: '2100-01-01T00:00:00.000Z' }, { token: null, headers: { cookie } })).body.secret;
    sameNameToken = (await app.post('/api/admin/api-tokens', { tokenName: 'carol@example.com', type: 'admin' })).body.secret;
  });

  it("someone with the author's name is not the author: another Draft, no editing theirs, and approving is not approving one's own", async () => {
    const draft = await app.post(CR, { action: 'updateEnabled', feature: 'ident-f', payload: { enabled: true } }, { token: userToken });
    expect(draft.status).toBe(200);
    const changeId = draft.body.features[0].changes[0].id;
    // Same name, another actor: their change goes into a Draft of their own.
    const theirs = await app.post(CR, { action: 'updateEnabled', feature: 'ident-f', payload: { enabled: false } }, { token: sameNameToken });
    expect(theirs.status).toBe(200);
    expect(theirs.body.id).not.toBe(draft.body.id);
    const edit = await app.put(`${P}/change-requests/${draft.body.id}/changes/${changeId}`, { action: 'updateEnabled', feature: 'ident-f', payload: { enabled: false } }, { token: sameNameToken });
    expect([edit.status, edit.body.name]).toEqual([403, 'ForbiddenError']);
    const title = await app.put(`${P}/change-requests/${draft.body.id}/title`, { title: 'Taken over' }, { token: sameNameToken });
    expect(title.status).toBe(403);
    const toReview = await app.put(`${P}/change-requests/${draft.body.id}/state`, { state: 'In review' }, { token: sameNameToken });
    expect(toReview.status).toBe(403);
    // The author sends it to review; the same-named token is another person and may approve it.
    expect((await app.put(`${P}/change-requests/${draft.body.id}/state`, { state: 'In review' }, { token: userToken })).status).toBe(200);
    const approved = await app.put(`${P}/change-requests/${draft.body.id}/state`, { state: 'Approved' }, { token: sameNameToken });
    expect([approved.status, approved.body.state]).toEqual([200, 'Approved']);
  });

  it('the author stays the author when their e-mail (their display name) changes', async () => {
    const id = await createUser({ email: 'dave@example.com', rootRole: 'Editor' });
    const cookie = ((await login('dave@example.com')).headers.get('set-cookie') ?? '').split(';')[0];
    const token = (await app.post('/api/admin/user/tokens', { description: 'dave', expiresAt: '2100-01-01T00:00:00.000Z' }, { token: null, headers: { cookie } })).body.secret;
    await app.post(`${P}/access`, { roles: [4], users: [id] });
    const draft = await app.post(CR, { action: 'updateEnabled', feature: 'ident-f', payload: { enabled: true } }, { token });
    expect(draft.status).toBe(200);
    expect((await app.put(`/api/admin/user-admin/${id}`, { email: 'david@example.com' })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_100)); // the credential cache forgets the old name
    expect((await app.put(`${P}/change-requests/${draft.body.id}/title`, { title: 'Still mine' }, { token })).status).toBe(204);
    expect((await app.get(`${P}/change-requests/${draft.body.id}`)).body.title).toBe('Still mine');
    const more = await app.post(CR, { action: 'updateEnabled', feature: 'ident-f', payload: { enabled: false } }, { token });
    expect(more.body.id).toBe(draft.body.id);
  });
});

describe('the login limit counts per account, whatever spelling names it', () => {
  it(`after ${LOGIN_FAILURES_PER_ACCOUNT} failures as the username, the e-mail spelling is refused too (429), even with the right password`, async () => {
    await createUser({ username: 'bob', email: 'bob@example.com' });
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) expect((await login('bob', `Wrong-Pass-${i}x`)).status).toBe(401);
    for (const spelling of ['bob@example.com', 'BOB@Example.com', 'Bob']) {
      const refused = await login(spelling);
      expect([refused.status, refused.body.name]).toEqual([429, 'TooManyRequestsError']);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it(`40 wrong passwords at once: ${LOGIN_FAILURES_PER_ACCOUNT} are checked (401), the rest refused (429)`, async () => {
    await createUser({ username: 'parallel', email: 'parallel@example.com' });
    // From another loopback address, whose own limit has seen no failure yet.
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) =>
      loginFrom('127.0.0.2', i % 2 ? 'parallel' : 'PARALLEL@example.com', `Wrong-Pass-${i}x`)));
    expect({ 401: statuses.filter((s) => s === 401).length, 429: statuses.filter((s) => s === 429).length })
      .toEqual({ 401: LOGIN_FAILURES_PER_ACCOUNT, 429: 40 - LOGIN_FAILURES_PER_ACCOUNT });
    // The account's limit is spent: the right password is refused too, from any address.
    expect((await login('parallel')).status).toBe(429);
  });

  it('a success does not use up the limit', async () => {
    await createUser({ username: 'steady', email: 'steady@example.com' });
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT + 5; i++) expect((await login(i % 2 ? 'steady' : 'steady@example.com')).status).toBe(200);
    expect((await login('steady', 'Wrong-Pass-0x')).status).toBe(401);
  });
});
