import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * `me { allowed(project, environment) }`: the permission names the caller holds in a place, which the web UI reads to
 * decide which controls to show. It must say exactly what the service then enforces: each name it gives (or leaves
 * out) is checked against a real request in the same place.
 */
let app: TestApp;
const PASSWORD = 'Gql-Allowed-42';

const query = async (q: string, variables: Record<string, unknown> = {}, token?: string) =>
  (await app.post('/graphql', { query: q, variables }, token === undefined ? {} : { token })).body as { data?: any; errors?: Array<{ extensions: { name: string } }> };
const allowed = async (token: string | undefined, project?: string, environment?: string): Promise<string[]> =>
  (await query('query($p: String, $e: String) { me { allowed(project: $p, environment: $e) } }', { p: project ?? null, e: environment ?? null }, token)).data.me.allowed;

async function userToken(username: string, rootRole: string): Promise<{ id: number; token: string }> {
  const id = (await app.post('/api/admin/user-admin', { username, password: PASSWORD, rootRole })).body.id;
  const login = await app.post('/auth/simple/login', { username, password: PASSWORD }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const token = (await app.post('/api/admin/user/tokens', { description: 'allowed', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } })).body.secret;
  return { id, token };
}

const toggle = (token: string, project: string, feature: string, environment = 'development') =>
  query('mutation($i: SetFeatureEnvironmentEnabledInput!) { setFeatureEnvironmentEnabled(input: $i) { enabled } }', { i: { project, feature, environment, enabled: true } }, token);

beforeAll(async () => {
  app = await startTestApp();
  expect((await app.post('/api/admin/projects', { id: 'mine', name: 'Mine' })).status).toBe(201);
  expect((await app.post('/api/admin/projects', { id: 'theirs', name: 'Theirs' })).status).toBe(201);
  for (const project of ['mine', 'theirs', 'default']) {
    expect((await app.post(`/api/admin/projects/${project}/features`, { name: `f-${project}` })).status).toBe(201);
  }
});
afterAll(async () => { await app.close(); });

describe('me.allowed', () => {
  it('gives an admin token every permission, ADMIN included, anywhere', async () => {
    const names = await allowed(undefined, 'mine', 'production');
    expect(names).toEqual(expect.arrayContaining(['ADMIN', 'CREATE_PROJECT', 'UPDATE_FEATURE_ENVIRONMENT', 'DELETE_FEATURE']));
    expect(await allowed(undefined)).toEqual(names);
  });

  it('gives a Viewer nothing it could not do, and the service refuses what it leaves out', async () => {
    const viewer = await userToken('allowed-viewer', 'Viewer');
    const names = await allowed(viewer.token, 'default', 'development');
    expect(names).not.toContain('UPDATE_FEATURE_ENVIRONMENT');
    expect(names).not.toContain('CREATE_FEATURE');
    expect((await toggle(viewer.token, 'default', 'f-default')).errors?.[0].extensions.name).toBe('NoAccessError');
  });

  it('follows a project role to its project only, and root grants to checks without a project', async () => {
    const member = await userToken('allowed-member', 'Viewer');
    expect((await app.post('/api/admin/projects/mine/access', { roles: [5], users: [member.id] })).status).toBe(200);
    const inMine = await allowed(member.token, 'mine', 'development');
    expect(inMine).toEqual(expect.arrayContaining(['CREATE_FEATURE', 'UPDATE_FEATURE', 'UPDATE_FEATURE_ENVIRONMENT']));
    expect((await toggle(member.token, 'mine', 'f-mine')).errors).toBeUndefined();

    const inTheirs = await allowed(member.token, 'theirs', 'development');
    expect(inTheirs).not.toContain('UPDATE_FEATURE_ENVIRONMENT');
    expect((await toggle(member.token, 'theirs', 'f-theirs')).errors?.[0].extensions.name).toBe('NoAccessError');

    // Without a project only root grants count: the project role gives nothing there.
    expect(await allowed(member.token)).not.toContain('CREATE_FEATURE');
    expect(await allowed(member.token)).not.toContain('CREATE_PROJECT');
  });

  it("gives an Editor its root role's project permissions in `default` only (as Unleash), and the service agrees", async () => {
    const editor = await userToken('allowed-editor', 'Editor');
    const inDefault = await allowed(editor.token, 'default', 'production');
    expect(inDefault).toEqual(expect.arrayContaining(['CREATE_FEATURE', 'UPDATE_FEATURE_ENVIRONMENT', 'CREATE_PROJECT']));
    expect(inDefault).not.toContain('ADMIN');
    expect((await toggle(editor.token, 'default', 'f-default', 'production')).errors).toBeUndefined();
    const inTheirs = await allowed(editor.token, 'theirs', 'production');
    expect(inTheirs).not.toContain('UPDATE_FEATURE_ENVIRONMENT');
    expect((await toggle(editor.token, 'theirs', 'f-theirs', 'production')).errors?.[0].extensions.name).toBe('NoAccessError');
    expect(await allowed(editor.token)).toContain('CREATE_PROJECT');
  });
});
