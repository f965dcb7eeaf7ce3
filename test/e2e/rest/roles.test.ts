import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Migration0022RoleDescriptions } from '../../../src/db/migrations/0022-role-descriptions';
import { PERMISSIONS, PREDEFINED_ROLES } from '../../../src/domain/access/permissions';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 9: roles and the permission listing (spec endpoints 12 and 17), on both doors: every documented status with
 * its error name, the events, built-in roles fixed, roles in use kept, and concurrent creates of one name.
 */
let app: TestApp;
let viewerToken: string;

beforeAll(async () => {
  app = await startTestApp();
  await app.post('/api/admin/user-admin', { username: 'rv', password: 'Roles-Viewer-42', rootRole: 'Viewer' });
  const login = await app.post('/auth/simple/login', { username: 'rv', password: 'Roles-Viewer-42' }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  viewerToken = (await app.post('/api/admin/user/tokens', { description: 't', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } })).body.secret;
});
afterAll(async () => { await app.close(); });

const query = async (query: string, variables?: Record<string, unknown>, token?: string) =>
  (await app.post('/graphql', { query, variables }, token === undefined ? {} : { token })).body as { data?: any; errors?: Array<{ message: string; extensions: { name: string; code: number } }> };

describe('GET /api/admin/permissions (spec endpoint 12)', () => {
  it('200: version, root and project permissions, and every environment (disabled ones too) with its environment permissions', async () => {
    await app.post('/api/admin/environments', { name: 'perm-off', type: 'test' });
    await app.post('/api/admin/environments/perm-off/off');
    const res = await app.get('/api/admin/permissions');
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    const { root, project, environments } = res.body.permissions;
    expect(root).toEqual(PERMISSIONS.filter((p) => p.type === 'root').map(({ id, name, displayName, type }) => ({ id, name, displayName, type })));
    expect(project.map((p: { name: string }) => p.name)).toEqual(PERMISSIONS.filter((p) => p.type === 'project').map((p) => p.name));
    expect(root).toContainEqual({ id: 1, name: 'ADMIN', displayName: 'Admin', type: 'root' });
    expect(environments.map((e: { name: string }) => e.name)).toEqual(expect.arrayContaining(['development', 'production', 'perm-off']));
    const production = environments.find((e: { name: string }) => e.name === 'production');
    expect(production.permissions).toContainEqual({ id: 28, name: 'UPDATE_FEATURE_ENVIRONMENT', displayName: 'Enable/disable toggles', type: 'environment', environment: 'production' });
    expect(production.permissions).toHaveLength(PERMISSIONS.filter((p) => p.type === 'environment').length);
  });

  it('401 without credentials; 200 for a Viewer (reading is open to any admin-API principal)', async () => {
    expect((await app.get('/api/admin/permissions', { token: null })).body.name).toBe('AuthenticationRequired');
    expect((await app.get('/api/admin/permissions', { token: viewerToken })).status).toBe(200);
  });

  it('GraphQL `permissions` gives the same listing', async () => {
    const rest = (await app.get('/api/admin/permissions')).body;
    const { data } = await query('{ permissions { version root { id name displayName type } project { id name displayName type } environments { name permissions { id name displayName type environment } } } }');
    expect(data.permissions).toEqual({ version: rest.version, ...rest.permissions });
  });
});

describe('POST /api/admin/roles (spec endpoint 17)', () => {
  it('200 with {version, roles}: a custom project role from permissions by name, environment kept; event role-created', async () => {
    const res = await app.post('/api/admin/roles', {
      name: 'Prod toggler', description: 'Toggles in production', type: 'custom',
      permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' }, { name: 'UPDATE_FEATURE' }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 1, roles: { id: expect.any(Number), name: 'Prod toggler', type: 'custom', description: 'Toggles in production' } });
    const [event] = await app.events('role-created');
    expect(event).toMatchObject({ createdBy: 'admin', data: { id: res.body.roles.id, name: 'Prod toggler', type: 'custom', permissions: expect.arrayContaining([{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' }, { name: 'UPDATE_FEATURE' }]) } });
    const read = await app.get(`/api/admin/roles/${res.body.roles.id}`);
    expect(read.body.permissions).toEqual([
      { id: 7, name: 'UPDATE_FEATURE', displayName: 'Update feature toggles', type: 'project' },
      { id: 28, name: 'UPDATE_FEATURE_ENVIRONMENT', displayName: 'Enable/disable toggles', type: 'environment', environment: 'production' },
    ]);
  });

  it('the second body form (permissions by id), and `root-custom` drops environments; any other type is a project role', async () => {
    const root = await app.post('/api/admin/roles', { name: 'Segment keeper', type: 'root-custom', permissions: [{ id: 31 }, { id: 32, environment: 'production' }, { id: 28, environment: 'production' }] });
    expect(root.status).toBe(200);
    expect(root.body.roles.type).toBe('root-custom');
    const perms = (await app.get(`/api/admin/roles/${root.body.roles.id}`)).body.permissions;
    expect(perms.map((p: { name: string; environment?: string }) => [p.name, p.environment])).toEqual([['UPDATE_FEATURE_ENVIRONMENT', undefined], ['CREATE_SEGMENT', undefined], ['UPDATE_SEGMENT', undefined]]);
    const other = await app.post('/api/admin/roles', { name: 'Odd type', type: 'whatever', permissions: [{ id: 2 }] });
    expect(other.body.roles).toMatchObject({ type: 'custom', description: '' });
  });

  it('400 ValidationError: no name, an unknown permission, id and name that disagree, an unknown environment, a root permission in a project role, unknown keys', async () => {
    const cases: Array<[unknown, string]> = [
      [{ permissions: [] }, 'name'],
      [{ name: 'x1', permissions: [{ name: 'FLY' }] }, 'permissions/0/name'],
      [{ name: 'x2', permissions: [{ id: 999 }] }, 'permissions/0/id'],
      [{ name: 'x3', permissions: [{ id: 7, name: 'CREATE_FEATURE' }] }, 'permissions/0'],
      [{ name: 'x4', permissions: [{ environment: 'production' }] }, 'permissions/0'],
      [{ name: 'x5', type: 'custom', permissions: [{ name: 'UPDATE_FEATURE' }, { name: 'CREATE_FEATURE_STRATEGY', environment: 'nowhere' }] }, 'permissions/1/environment'],
      [{ name: 'x6', type: 'custom', permissions: [{ name: 'ADMIN' }] }, 'permissions/0'],
      [{ name: 'x7', colour: 'red' }, 'colour'],
      [{ name: '' }, 'name'],
    ];
    const before = (await app.get('/api/admin/roles')).body.roles.length;
    for (const [body, path] of cases) {
      const res = await app.post('/api/admin/roles', body);
      expect({ body, status: res.status, name: res.body.name, path: res.body.details?.[0]?.path }).toEqual({ body, status: 400, name: 'ValidationError', path });
    }
    expect((await app.get('/api/admin/roles')).body.roles).toHaveLength(before);
  });

  it('409 NameExistsError for a taken name, whatever its case (a predefined one too)', async () => {
    for (const name of ['Prod toggler', 'PROD TOGGLER', 'editor']) {
      const res = await app.post('/api/admin/roles', { name, permissions: [] });
      expect({ name, status: res.status, error: res.body.name }).toEqual({ name, status: 409, error: 'NameExistsError' });
    }
    expect((await app.post('/api/admin/roles', { name: 'Prod toggler' })).body.message).toBe('There already exists a role with the name Prod toggler');
  });

  it('401 without credentials, 403 NoAccessError naming ADMIN for a Viewer; nothing created', async () => {
    expect((await app.post('/api/admin/roles', { name: 'anon' }, { token: null })).status).toBe(401);
    const res = await app.post('/api/admin/roles', { name: 'by-viewer' }, { token: viewerToken });
    expect(res.status).toBe(403);
    expect(res.body.name).toBe('NoAccessError');
    expect(res.body.message).toContain('"ADMIN"');
    expect((await app.get('/api/admin/roles')).body.roles.map((r: { name: string }) => r.name)).not.toContain('by-viewer');
  });

  it('20 parallel creates of one name: exactly one 200, the rest 409, one event', async () => {
    const before = (await app.events('role-created')).length;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => app.post('/api/admin/roles', { name: i % 2 ? 'Racer' : 'racer', permissions: [{ name: 'CREATE_FEATURE' }] })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.name === 'NameExistsError')).toBe(true);
    expect((await app.events('role-created')).length).toBe(before + 1);
  });

  it('GraphQL createRole: the same role and the same errors (name in extensions)', async () => {
    const mutation = 'mutation($input: CreateRoleInput!) { createRole(input: $input) { version role { id name type description permissions { name environment } } } }';
    const ok = await query(mutation, { input: { name: 'Gql role', type: 'custom', permissions: [{ name: 'UPDATE_FEATURE_STRATEGY', environment: 'development' }] } });
    expect(ok.errors).toBeUndefined();
    expect(ok.data.createRole).toEqual({ version: 1, role: { id: expect.any(Number), name: 'Gql role', type: 'custom', description: '', permissions: [{ name: 'UPDATE_FEATURE_STRATEGY', environment: 'development' }] } });
    const rest = (await app.get(`/api/admin/roles/${ok.data.createRole.role.id}`)).body;
    expect(rest).toMatchObject({ id: ok.data.createRole.role.id, name: 'Gql role', type: 'custom', description: '' });
    const taken = await query(mutation, { input: { name: 'gql ROLE' } });
    expect(taken.errors?.[0].extensions).toMatchObject({ name: 'NameExistsError', code: 409 });
    const bad = await query(mutation, { input: { name: 'x', permissions: [{ name: 'FLY' }] } });
    expect(bad.errors?.[0].extensions).toMatchObject({ name: 'ValidationError', code: 400 });
    const refused = await query(mutation, { input: { name: 'y' } }, viewerToken);
    expect(refused.errors?.[0].extensions).toMatchObject({ name: 'NoAccessError', code: 403 });
  });
});

describe('reading, changing and deleting roles', () => {
  it('GET /api/admin/roles lists the predefined roles first, {version, roles}; GraphQL `roles` agrees', async () => {
    const res = await app.get('/api/admin/roles');
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.roles.slice(0, 5)).toEqual(PREDEFINED_ROLES.map(({ id, name, type, description }) => ({ id, name, type, description })));
    const { data } = await query('{ roles { id name type description } }');
    expect(data.roles).toEqual(res.body.roles);
  });

  it('GET /api/admin/roles/:id: a predefined role with its permissions; 404 NotFoundError for an unknown or malformed id', async () => {
    const owner = await app.get('/api/admin/roles/4');
    expect(owner.status).toBe(200);
    expect(owner.body.permissions.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['DELETE_PROJECT', 'UPDATE_FEATURE_ENVIRONMENT']));
    for (const id of ['9999', 'abc', '0', '99999999999']) {
      const res = await app.get(`/api/admin/roles/${id}`);
      expect({ id, status: res.status, name: res.body.name }).toEqual({ id, status: 404, name: 'NotFoundError' });
    }
  });

  it('PUT replaces a custom role (event role-updated with preData); a predefined role is 403 InvalidOperationError', async () => {
    const { id } = (await app.post('/api/admin/roles', { name: 'Changing', permissions: [{ name: 'CREATE_FEATURE' }] })).body.roles;
    const res = await app.put(`/api/admin/roles/${id}`, { name: 'Changed', description: 'Now deletes', permissions: [{ name: 'DELETE_FEATURE' }] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 1, roles: { id, name: 'Changed', type: 'custom', description: 'Now deletes' } });
    const [event] = await app.events('role-updated');
    expect(event).toMatchObject({ data: { name: 'Changed', permissions: [{ name: 'DELETE_FEATURE' }] }, preData: { name: 'Changing', permissions: [{ name: 'CREATE_FEATURE' }] } });
    for (const builtIn of [1, 2, 3, 4, 5]) {
      const refused = await app.put(`/api/admin/roles/${builtIn}`, { name: 'Mine now', permissions: [] });
      expect({ builtIn, status: refused.status, name: refused.body.name, message: refused.body.message }).toEqual({ builtIn, status: 403, name: 'InvalidOperationError', message: 'You cannot change built in roles.' });
    }
    expect((await app.get('/api/admin/roles/2')).body.name).toBe('Editor');
    expect((await app.put('/api/admin/roles/9999', { name: 'nobody' })).status).toBe(404);
  });

  it('DELETE: 200 and event role-deleted; 400 RoleInUseError while a user holds it (root or project) or a group does; 403 for a predefined role', async () => {
    const { id: projectRole } = (await app.post('/api/admin/roles', { name: 'In a project', permissions: [{ name: 'UPDATE_FEATURE' }] })).body.roles;
    const { id: rootRole } = (await app.post('/api/admin/roles', { name: 'As root', type: 'root-custom', permissions: [{ name: 'CREATE_SEGMENT' }] })).body.roles;
    const user = (await app.post('/api/admin/user-admin', { username: 'holder', rootRole: rootRole })).body;
    expect(user.rootRole).toBe(rootRole);
    expect((await app.post('/api/admin/projects/default/access', { roles: [projectRole], users: [user.id] })).status).toBe(200);

    for (const id of [projectRole, rootRole]) {
      const res = await app.del(`/api/admin/roles/${id}`);
      expect({ id, status: res.status, name: res.body.name }).toEqual({ id, status: 400, name: 'RoleInUseError' });
    }
    expect((await app.del('/api/admin/roles/3')).body.name).toBe('InvalidOperationError');
    // A custom project role cannot be a user's root role, and a root role cannot be given in a project.
    expect((await app.post('/api/admin/user-admin', { username: 'h2', rootRole: projectRole })).status).toBe(400);

    await app.del(`/api/admin/projects/default/users/${user.id}/roles`);
    expect((await app.del(`/api/admin/roles/${projectRole}`)).status).toBe(200);
    const [event] = await app.events('role-deleted');
    expect(event).toMatchObject({ preData: { id: projectRole, name: 'In a project', permissions: [{ name: 'UPDATE_FEATURE' }] } });
    expect((await app.get(`/api/admin/roles/${projectRole}`)).status).toBe(404);
    expect((await app.del(`/api/admin/roles/${projectRole}`)).status).toBe(404);
  });

  it('a custom root role gives its permissions at once; an environment permission of a project role holds only in its environment', async () => {
    const { id: segmentRole } = (await app.post('/api/admin/roles', { name: 'Segmenter', type: 'root-custom', permissions: [{ name: 'CREATE_SEGMENT' }] })).body.roles;
    const { id: toggler } = (await app.post('/api/admin/roles', { name: 'Dev toggler', permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' }] })).body.roles;
    const user = (await app.post('/api/admin/user-admin', { username: 'segmenter', password: 'Segment-Pass-42', rootRole: segmentRole })).body;
    await app.post('/api/admin/projects/default/access', { roles: [toggler], users: [user.id] });
    await app.post('/api/admin/projects/default/features', { name: 'role-flag' });
    const login = await app.post('/auth/simple/login', { username: 'segmenter', password: 'Segment-Pass-42' }, { token: null });
    const as = { token: null, headers: { cookie: (login.headers.get('set-cookie') ?? '').split(';')[0] } };
    expect((await app.post('/api/admin/segments', { name: 'by-custom-root', constraints: [] }, as)).status).toBe(201);
    expect((await app.post('/api/admin/context', { name: 'by-custom-root' }, as)).status).toBe(403);
    expect((await app.post('/api/admin/projects/default/features/role-flag/environments/development/on', {}, as)).status).toBe(200);
    const prod = await app.post('/api/admin/projects/default/features/role-flag/environments/production/on', {}, as);
    expect(prod.status).toBe(403);
    expect(prod.body.message).toContain('"UPDATE_FEATURE_ENVIRONMENT" permission in the "production" environment');
    // Changing the role changes what its holders may do, at once.
    await app.put(`/api/admin/roles/${toggler}`, { name: 'Dev toggler', permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT' }] });
    expect((await app.post('/api/admin/projects/default/features/role-flag/environments/production/on', {}, as)).status).toBe(200);
  });

  it('deleting an environment removes custom roles\' permissions in it', async () => {
    await app.post('/api/admin/environments', { name: 'short-lived', type: 'test' });
    const { id } = (await app.post('/api/admin/roles', { name: 'Short', permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'short-lived' }, { name: 'UPDATE_FEATURE' }] })).body.roles;
    expect((await app.del('/api/admin/environments/short-lived')).status).toBe(200);
    expect((await app.get(`/api/admin/roles/${id}`)).body.permissions.map((p: { name: string }) => p.name)).toEqual(['UPDATE_FEATURE']);
  });

  it('GraphQL updateRole and deleteRole call the same service: errors by name, events written', async () => {
    const { id } = (await app.post('/api/admin/roles', { name: 'Gql changing' })).body.roles;
    const updated = await query('mutation($input: UpdateRoleInput!) { updateRole(input: $input) { role { name permissions { name } } } }', { input: { id, name: 'Gql changed', permissions: [{ id: 2 }] } });
    expect(updated.data.updateRole.role).toEqual({ name: 'Gql changed', permissions: [{ name: 'CREATE_FEATURE' }] });
    const builtIn = await query('mutation { updateRole(input: { id: 1, name: "x" }) { version } }');
    expect(builtIn.errors?.[0].extensions).toMatchObject({ name: 'InvalidOperationError', code: 403 });
    const deleted = await query('mutation($input: IdInput!) { deleteRole(input: $input) }', { input: { id } });
    expect(deleted.data.deleteRole).toBe(true);
    expect((await app.events('role-deleted'))[0].preData.name).toBe('Gql changed');
    const gone = await query('mutation($input: IdInput!) { deleteRole(input: $input) }', { input: { id } });
    expect(gone.errors?.[0].extensions).toMatchObject({ name: 'NotFoundError', code: 404 });
  });
});

describe('built-in root roles describe flagdeck (migration 0022)', () => {
  it('name flagdeck, not Unleash, and a database made before the migration is brought to the same words', async () => {
    const rootRoles = () => app.get('/api/admin/roles').then((r) => (r.body.roles as Array<{ id: number; type: string; description: string }>).filter((role) => role.type === 'root'));
    for (const role of await rootRoles()) {
      expect(role.description).toContain('flagdeck');
      expect(role.description).not.toContain('Unleash');
    }
    // A database migrated before 0022 still holds the old words: the migration's statements replace exactly those.
    const em = app.orm.em.fork();
    const migration = new Migration0022RoleDescriptions(undefined as never, undefined as never);
    await migration.up();
    await em.execute(`update roles set description = replace(description, 'flagdeck', 'Unleash') where id in (1, 2, 3)`);
    await em.execute(`update roles set description = replace(description, 'within it.', 'within the Unleash platform.') where id = 1`);
    for (const sql of migration.getQueries()) await em.execute(sql as string);
    expect((await rootRoles()).map((r) => r.description).sort()).toEqual(PREDEFINED_ROLES.filter((r) => r.type === 'root').map((r) => r.description).sort());
  });
});
