import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 9 on the GraphQL door: users, the caller, API and personal tokens, and project access (spec endpoint 13)
 * give what the REST routes give, refuse with the same error names, and write the same events.
 */
let app: TestApp;
let viewer: { id: number; token: string };

const query = async (query: string, variables?: Record<string, unknown>, token?: string | null) =>
  (await app.post('/graphql', { query, variables }, token === undefined ? {} : { token })).body as { data?: any; errors?: Array<{ message: string; extensions: { name: string; code: number } }> };

async function userWithToken(username: string, rootRole: string): Promise<{ id: number; token: string }> {
  const id = (await app.post('/api/admin/user-admin', { username, password: 'Gql-Access-42', rootRole })).body.id;
  const login = await app.post('/auth/simple/login', { username, password: 'Gql-Access-42' }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const token = (await app.post('/api/admin/user/tokens', { description: 'gql', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } })).body.secret;
  return { id, token };
}

beforeAll(async () => {
  app = await startTestApp();
  viewer = await userWithToken('gql-viewer', 'Viewer');
});
afterAll(async () => { await app.close(); });

describe('users and the caller', () => {
  it('createUser, users, user, updateUser and deleteUser agree with the REST routes and write the same events', async () => {
    const created = await query('mutation($input: CreateUserInput!) { createUser(input: $input) { id username email name rootRole accountType isAPI } }',
      { input: { username: 'gql-ed', email: 'gql-ed@example.com', name: 'Ed', password: 'Gql-Editor-42', rootRole: 'Editor' } });
    expect(created.errors).toBeUndefined();
    const id = created.data.createUser.id;
    const rest = (await app.get(`/api/admin/user-admin/${id}`)).body;
    expect(created.data.createUser).toEqual({ id, username: rest.username, email: rest.email, name: rest.name, rootRole: 2, accountType: 'User', isAPI: false });
    expect((await app.events('user-created'))[0].data).toMatchObject({ id, username: 'gql-ed' });

    const byId = await query('mutation($input: UpdateUserInput!) { updateUser(input: $input) { name rootRole } }', { input: { id, name: 'Edwin', rootRole: '3' } });
    expect(byId.data.updateUser).toEqual({ name: 'Edwin', rootRole: 3 });
    const list = await query('{ users { id username } }');
    expect(list.data.users.map((u: { username: string }) => u.username)).toEqual((await app.get('/api/admin/user-admin')).body.users.map((u: { username: string }) => u.username));

    const weak = await query('mutation($input: CreateUserInput!) { createUser(input: $input) { id } }', { input: { username: 'weak', password: 'short', rootRole: 'Viewer' } });
    expect(weak.errors?.[0].extensions).toMatchObject({ name: 'ValidationError', code: 400 });
    const taken = await query('mutation($input: CreateUserInput!) { createUser(input: $input) { id } }', { input: { username: 'GQL-ED', rootRole: 'Viewer' } });
    expect(taken.errors?.[0].extensions).toMatchObject({ name: 'NameExistsError', code: 409 });
    const refused = await query('{ users { id } }', undefined, viewer.token);
    expect(refused.errors?.[0].extensions).toMatchObject({ name: 'NoAccessError', code: 403 });

    expect((await query('mutation { deleteUser(input: { id: ' + id + ' }) }')).data.deleteUser).toBe(true);
    expect((await app.get(`/api/admin/user-admin/${id}`)).status).toBe(404);
    expect((await query('{ user(id: ' + id + ') { id } }')).errors?.[0].extensions).toMatchObject({ name: 'NotFoundError', code: 404 });
  });

  it('me: the caller and its grants, as GET /api/admin/user gives them', async () => {
    const rest = (await app.get('/api/admin/user', { token: viewer.token })).body;
    const { data } = await query('{ me { user { id username rootRole isAPI } permissions { permission project environment } } }', undefined, viewer.token);
    expect(data.me.user).toEqual({ id: viewer.id, username: 'gql-viewer', rootRole: 3, isAPI: false });
    expect(data.me.permissions).toEqual(rest.permissions.map((p: { permission: string; project?: string; environment?: string }) => ({ permission: p.permission, project: p.project ?? null, environment: p.environment ?? null })));
    const admin = await query('{ me { user { isAPI } permissions { permission } } }');
    expect(admin.data.me).toEqual({ user: { isAPI: true }, permissions: [{ permission: 'ADMIN' }] });
  });

  it('setUserPassword and changeOwnPassword: the new password logs in, the old one does not; the strength rule applies', async () => {
    const user = await userWithToken('gql-pw', 'Viewer');
    expect((await query(`mutation { setUserPassword(input: { id: ${user.id}, password: "Set-By-Admin-42" }) }`)).data.setUserPassword).toBe(true);
    expect((await app.post('/auth/simple/login', { username: 'gql-pw', password: 'Gql-Access-42' }, { token: null })).status).toBe(401);
    expect((await app.post('/auth/simple/login', { username: 'gql-pw', password: 'Set-By-Admin-42' }, { token: null })).status).toBe(200);
    const own = await query('mutation { changeOwnPassword(input: { password: "Chosen-By-Me-42", confirmPassword: "Chosen-By-Me-42" }) }', undefined, user.token);
    expect(own.data.changeOwnPassword).toBe(true);
    expect((await app.post('/auth/simple/login', { username: 'gql-pw', password: 'Chosen-By-Me-42' }, { token: null })).status).toBe(200);
    const mismatch = await query('mutation { changeOwnPassword(input: { password: "Chosen-By-Me-43", confirmPassword: "other" }) }', undefined, user.token);
    expect(mismatch.errors?.[0].extensions).toMatchObject({ name: 'ValidationError', code: 400 });
  });

  it('password hashing is priced: eleven createUser aliases are over the budget and refused before any runs', async () => {
    const aliases = Array.from({ length: 11 }, (_, i) => `u${i}: createUser(input: { username: "priced${i}", password: "Priced-Pass-42", rootRole: "Viewer" }) { id }`).join(' ');
    const res = await app.post('/graphql', { query: `mutation { ${aliases} }` });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.name).toBe('ValidationError');
    expect((await app.get('/api/admin/user-admin')).body.users.map((u: { username: string }) => u.username)).not.toContain('priced0');
  });
});

describe('tokens', () => {
  it('createApiToken shows the secret once; apiTokens never does; updateApiToken and deleteApiToken work by id; a client token cannot use GraphQL', async () => {
    const created = await query('mutation { createApiToken(input: { tokenName: "gql-client", type: "client", environment: "development", projects: ["default"] }) { id secret type environment projects } }');
    expect(created.errors).toBeUndefined();
    const token = created.data.createApiToken;
    expect(token).toMatchObject({ type: 'client', environment: 'development', projects: ['default'] });
    expect(token.secret).toMatch(/^default:development\.[0-9a-f]{64}$/);
    const listed = await query('{ apiTokens { id secret tokenName } }');
    expect(listed.data.apiTokens).toContainEqual({ id: token.id, secret: null, tokenName: 'gql-client' });
    expect(JSON.stringify(listed)).not.toContain(token.secret.split('.')[1]);
    expect((await app.post('/graphql', { query: '{ tags { value } }' }, { token: token.secret })).status).toBe(403);

    const updated = await query(`mutation { updateApiToken(input: { token: "${token.id}", expiresAt: "2099-05-01T00:00:00.000Z" }) { expiresAt } }`);
    expect(updated.data.updateApiToken.expiresAt).toBe('2099-05-01T00:00:00.000Z');
    expect((await query(`mutation { deleteApiToken(input: { token: "${token.id}" }) }`)).data.deleteApiToken).toBe(true);
    expect((await app.events('api-token-deleted'))[0].preData ?? (await app.events('api-token-deleted'))[0].data).toMatchObject({ tokenName: 'gql-client' });
    const again = await query(`mutation { deleteApiToken(input: { token: "${token.id}" }) }`);
    expect(again.errors?.[0].extensions).toMatchObject({ name: 'NotFoundError', code: 404 });
  });

  it('createPersonalAccessToken acts as its user; personalAccessTokens lists without secrets; an API token cannot own one', async () => {
    const created = await query('mutation { createPersonalAccessToken(input: { description: "ci", expiresAt: "2100-01-01T00:00:00Z" }) { id secret description } }', undefined, viewer.token);
    expect(created.errors).toBeUndefined();
    const pat = created.data.createPersonalAccessToken;
    expect((await app.get('/api/admin/user', { token: pat.secret })).body.user.id).toBe(viewer.id);
    const listed = await query('{ personalAccessTokens { id secret description } }', undefined, viewer.token);
    expect(listed.data.personalAccessTokens).toContainEqual({ id: pat.id, secret: null, description: 'ci' });
    expect((await query(`mutation { deletePersonalAccessToken(input: { id: ${pat.id} }) }`, undefined, viewer.token)).data.deletePersonalAccessToken).toBe(true);
    const fromAdminToken = await query('mutation { createPersonalAccessToken(input: { description: "x", expiresAt: "2100-01-01T00:00:00Z" }) { id } }');
    expect(fromAdminToken.errors?.[0].extensions).toMatchObject({ name: 'InvalidOperationError', code: 403 });
  });
});

describe('project access (spec endpoint 13)', () => {
  it('project.access equals GET /api/admin/projects/:p/access, field by field', async () => {
    const person = (await app.post('/api/admin/user-admin', { username: 'gql-member', email: 'member@example.com', rootRole: 'Viewer' })).body;
    const [{ id: group }] = await app.orm.em.fork().execute<Array<{ id: number }>>(`insert into groups (name, description, mappings_sso) values ('gql-team', 'Team', '{sso-team}') returning id`);
    await app.orm.em.fork().execute('insert into group_user (group_id, user_id) values (?, ?)', [group, person.id]);
    const added = await query('mutation($input: AddProjectAccessInput!) { addProjectAccess(input: $input) { users { id roles } groups { id roles } } }',
      { input: { project: 'default', roles: [5], users: [person.id], groups: [group] } });
    expect(added.errors).toBeUndefined();
    expect(added.data.addProjectAccess.users).toContainEqual({ id: person.id, roles: [5] });

    const rest = (await app.get('/api/admin/projects/default/access')).body;
    const { data } = await query(`{ project(id: "default") { access {
      roles { id name type description }
      users { id name email username imageUrl addedAt roleId roles }
      groups { id name description mappingsSSO rootRole createdBy createdAt addedAt roleId roles users { joinedAt createdBy user { id username } } }
    } } }`);
    expect(data.project.access.roles).toEqual(rest.roles);
    expect(data.project.access.users).toEqual(rest.users.map((u: any) => ({ id: u.id, name: u.name, email: u.email, username: u.username, imageUrl: u.imageUrl, addedAt: u.addedAt, roleId: u.roleId, roles: u.roles })));
    expect(data.project.access.groups).toEqual(rest.groups.map((g: any) => ({
      id: g.id, name: g.name, description: g.description, mappingsSSO: g.mappingsSSO, rootRole: g.rootRole, createdBy: g.createdBy, createdAt: g.createdAt,
      addedAt: g.addedAt, roleId: g.roleId, roles: g.roles, users: g.users.map((m: any) => ({ joinedAt: m.joinedAt, createdBy: m.createdBy, user: { id: m.user.id, username: m.user.username } })),
    })));
    expect(data.project.access.groups[0]).toMatchObject({ name: 'gql-team', mappingsSSO: ['sso-team'], users: [{ user: { username: 'gql-member' } }] });
  });

  it('setProjectUserRoles, setProjectGroupRoles, removeProjectUserRoles, removeProjectGroupRoles: same events and errors as REST', async () => {
    const person = (await app.post('/api/admin/user-admin', { username: 'gql-owner', rootRole: 'Viewer' })).body;
    const set = await query('mutation($input: SetProjectRolesInput!) { setProjectUserRoles(input: $input) { users { id roles } } }', { input: { project: 'default', id: person.id, roles: [4, 5] } });
    expect(set.data.setProjectUserRoles.users).toContainEqual({ id: person.id, roles: [4, 5] });
    expect((await app.events('project-access-user-roles-updated'))[0]).toMatchObject({ project: 'default' });
    // The project's only Owner keeps the role, as on REST.
    const lastOwner = await query('mutation($input: RemoveProjectRolesInput!) { removeProjectUserRoles(input: $input) { users { id } } }', { input: { project: 'default', id: person.id } });
    expect(lastOwner.errors?.[0].extensions).toMatchObject({ name: 'ProjectWithoutOwnerError', code: 400 });
    await query('mutation($input: SetProjectRolesInput!) { setProjectGroupRoles(input: $input) { roles { id } } }', { input: { project: 'default', id: (await app.get('/api/admin/projects/default/access')).body.groups[0].id, roles: [4] } });
    const removed = await query('mutation($input: RemoveProjectRolesInput!) { removeProjectUserRoles(input: $input) { users { id } } }', { input: { project: 'default', id: person.id } });
    expect(removed.data.removeProjectUserRoles.users.map((u: { id: number }) => u.id)).not.toContain(person.id);

    const notProjectRole = await query('mutation($input: SetProjectRolesInput!) { setProjectUserRoles(input: $input) { roles { id } } }', { input: { project: 'default', id: person.id, roles: [2] } });
    expect(notProjectRole.errors?.[0].extensions).toMatchObject({ name: 'ValidationError', code: 400 });
    const noProject = await query('mutation($input: SetProjectRolesInput!) { setProjectGroupRoles(input: $input) { roles { id } } }', { input: { project: 'nowhere', id: 1, roles: [5] } });
    expect(noProject.errors?.[0].extensions).toMatchObject({ name: 'NotFoundError', code: 404 });
    const refused = await query('mutation($input: RemoveProjectRolesInput!) { removeProjectGroupRoles(input: $input) { roles { id } } }', { input: { project: 'default', id: 1 } }, viewer.token);
    expect(refused.errors?.[0].extensions).toMatchObject({ name: 'NoAccessError', code: 403 });
    expect(refused.errors?.[0].message).toContain('UPDATE_PROJECT');
  });
});
