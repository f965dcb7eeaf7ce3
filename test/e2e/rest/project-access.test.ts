import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/** Spec endpoint 13 and the changes of project access (issue 9). */
let app: TestApp;
let alice: number;
let bob: number;
let group: number;
const PASSWORD = 'Access-Pass-42';

async function tokenOf(username: string): Promise<string> {
  const login = await app.post('/auth/simple/login', { username, password: PASSWORD }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const pat = await app.post('/api/admin/user/tokens', { description: 't', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } });
  return pat.body.secret;
}

beforeAll(async () => {
  app = await startTestApp();
  alice = (await app.post('/api/admin/user-admin', { username: 'alice', email: 'alice@example.com', name: 'Alice', password: PASSWORD, rootRole: 'Editor' })).body.id;
  bob = (await app.post('/api/admin/user-admin', { username: 'bob', password: PASSWORD, rootRole: 'Viewer' })).body.id;
  [{ id: group }] = await app.orm.em.fork().execute<Array<{ id: number }>>(`insert into groups (name, description, mappings_sso, created_by) values ('Ops', 'Operators', '{ops}', 'admin') returning id`);
  await app.orm.em.fork().execute('insert into group_user (group_id, user_id, created_by) values (?, ?, ?)', [group, bob, 'admin']);
});
afterAll(async () => { await app.close(); });

describe('GET /api/admin/projects/:projectId/access', () => {
  it('200: the project roles, and no users or groups on a fresh project', async () => {
    const res = await app.get('/api/admin/projects/default/access');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      roles: [
        { id: 4, name: 'Owner', type: 'project', description: expect.stringContaining('full control') },
        { id: 5, name: 'Member', type: 'project', description: expect.stringContaining('view, create, and update') },
      ],
      users: [],
      groups: [],
    });
  });

  it('a project created by a user lists that user as Owner', async () => {
    const token = await tokenOf('alice');
    expect((await app.post('/api/admin/projects', { id: 'alices', name: 'Alice\'s' }, { token })).status).toBe(201);
    const res = await app.get('/api/admin/projects/alices/access');
    expect(res.body.users).toEqual([expect.objectContaining({ id: alice, username: 'alice', name: 'Alice', email: 'alice@example.com', isAPI: false, roleId: 4, roles: [4], addedAt: expect.any(String), imageUrl: expect.any(String) })]);
  });

  it('401 without credentials, 404 for an unknown project', async () => {
    const anon = await app.get('/api/admin/projects/default/access', { token: null });
    expect(anon.status).toBe(401);
    expect(anon.body.name).toBe('AuthenticationRequired');
    const missing = await app.get('/api/admin/projects/nope/access');
    expect(missing.status).toBe(404);
    expect(missing.body.name).toBe('NotFoundError');
  });

  it('403 NoAccessError for valid credentials that do not open the admin API (a client token)', async () => {
    const client = (await app.post('/api/admin/api-tokens', { tokenName: 'pa-client', type: 'client', environment: 'development' })).body.secret;
    const res = await app.get('/api/admin/projects/default/access', { token: client });
    expect(res.status).toBe(403);
    expect(res.body.name).toBe('NoAccessError');
  });
});

describe('changing project access', () => {
  it('adds roles to users and groups (event), lists them with every documented field, and the grant takes effect', async () => {
    const bobToken = await tokenOf('bob');
    const before = await app.post('/api/admin/projects/default/features', { name: 'by-bob' }, { token: bobToken });
    expect(before.status).toBe(403);
    expect(before.body).toMatchObject({ name: 'NoAccessError', permissions: ['CREATE_FEATURE'] });
    const res = await app.post('/api/admin/projects/default/access', { roles: [5], users: [{ id: alice }], groups: [group] });
    expect(res.status).toBe(200);
    const [event] = await app.events('project-access-added');
    expect(event).toMatchObject({ project: 'default', data: { roles: [5], users: [alice], groups: [group] } });
    const access = (await app.get('/api/admin/projects/default/access')).body;
    expect(access.users).toEqual([expect.objectContaining({ id: alice, roleId: 5, roles: [5] })]);
    expect(access.groups).toEqual([{
      id: group, name: 'Ops', description: 'Operators', mappingsSSO: ['ops'], rootRole: null, createdBy: 'admin', createdAt: expect.any(String),
      addedAt: expect.any(String), roleId: 5, roles: [5],
      users: [{ joinedAt: expect.any(String), createdBy: 'admin', user: expect.objectContaining({ id: bob, username: 'bob' }) }],
    }]);
    // Bob is a Viewer, but his group is now a Member of default.
    expect((await app.post('/api/admin/projects/default/features', { name: 'by-bob' }, { token: bobToken })).status).toBe(201);
  });

  it('replaces and removes a user\'s or group\'s roles, with events; the last Owner cannot be removed', async () => {
    expect((await app.put(`/api/admin/projects/default/users/${alice}/roles`, { roles: [4, 5] })).status).toBe(200);
    const [updated] = await app.events('project-access-user-roles-updated');
    expect(updated).toMatchObject({ project: 'default', data: { userId: alice, roles: [4, 5] }, preData: { userId: alice, roles: [5] } });
    const last = await app.del(`/api/admin/projects/default/users/${alice}/roles`);
    expect(last.status).toBe(400);
    expect(last.body.name).toBe('ProjectWithoutOwnerError');
    expect((await app.put(`/api/admin/projects/default/groups/${group}/roles`, { roles: [4] })).status).toBe(200);
    expect((await app.del(`/api/admin/projects/default/users/${alice}/roles`)).status).toBe(200);
    const [removed] = await app.events('project-access-user-roles-deleted');
    expect(removed.preData).toEqual({ userId: alice, roles: [4, 5] });
    const access = (await app.get('/api/admin/projects/default/access')).body;
    expect(access.users).toEqual([]);
    expect(access.groups.map((g: { roles: number[] }) => g.roles)).toEqual([[4]]);
  });

  it('refuses bad input with the right name and changes nothing', async () => {
    const before = (await app.get('/api/admin/projects/default/access')).body;
    const cases: Array<[string, string, unknown, number, string]> = [
      ['POST', '/api/admin/projects/default/access', { roles: [1], users: [alice] }, 400, 'ValidationError'],
      ['POST', '/api/admin/projects/default/access', { roles: [5], users: [99999] }, 400, 'ValidationError'],
      ['POST', '/api/admin/projects/default/access', { roles: [5] }, 400, 'ValidationError'],
      ['POST', '/api/admin/projects/default/access', { roles: ['5'], users: [alice] }, 400, 'ValidationError'],
      ['POST', '/api/admin/projects/nope/access', { roles: [5], users: [alice] }, 404, 'NotFoundError'],
      ['PUT', `/api/admin/projects/default/users/99999/roles`, { roles: [5] }, 404, 'NotFoundError'],
      ['PUT', `/api/admin/projects/default/users/abc/roles`, { roles: [5] }, 404, 'NotFoundError'],
      ['PUT', `/api/admin/projects/default/groups/${group}/roles`, { roles: [5], extra: 1 }, 400, 'ValidationError'],
    ];
    for (const [method, path, body, status, name] of cases) {
      const res = await app.request(method, path, body);
      expect({ path, body, status: res.status, name: res.body.name }).toEqual({ path, body, status, name });
    }
    expect((await app.get('/api/admin/projects/default/access')).body).toEqual(before);
  });

  it('a project Member cannot change access (403 naming UPDATE_PROJECT)', async () => {
    const carol = (await app.post('/api/admin/user-admin', { username: 'carol', password: PASSWORD, rootRole: 'Viewer' })).body.id;
    await app.post('/api/admin/projects/default/access', { roles: [5], users: [carol] });
    const res = await app.post('/api/admin/projects/default/access', { roles: [4], users: [carol] }, { token: await tokenOf('carol') });
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('"UPDATE_PROJECT" permission');
  });
});
