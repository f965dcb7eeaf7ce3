import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 10 on the GraphQL door: createPasswordResetLink gives what POST /api/admin/user-admin/reset-password gives,
 * through the same service (the same refusals, the same expiry of older links), and createUser carries the invite
 * link of a user created without a password. Checking and using a link stay REST-only (/auth needs no credentials;
 * GraphQL always does), so the links made here are checked there.
 */
let app: TestApp;

const query = async (text: string, variables?: Record<string, unknown>, token?: string | null) =>
  (await app.post('/graphql', { query: text, variables }, token === undefined ? {} : { token })).body as { data?: any; errors?: Array<{ message: string; extensions: { name: string; code: number } }> };

const CREATE_LINK = 'mutation($input: CreatePasswordResetLinkInput!) { createPasswordResetLink(input: $input) { resetPasswordUrl } }';
const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? '';
const validate = (token: string) => app.get(`/auth/reset/validate?token=${encodeURIComponent(token)}`, { token: null });

beforeAll(async () => {
  app = await startTestApp();
  for (const username of ['gina', 'gil']) {
    const res = await app.post('/api/admin/user-admin', { username, email: `${username}@example.com`, password: 'Gql-Reset-42', rootRole: 'Editor' });
    if (res.status !== 201) throw new Error(`user ${username}: ${res.status}`);
  }
});
afterAll(async () => { await app.close(); });

describe('createPasswordResetLink', () => {
  it('gives the same kind of link as REST; either door expires the link the other gave before', async () => {
    const rest = await app.post('/api/admin/user-admin/reset-password', { id: 'gina' });
    expect(rest.status).toBe(200);
    const viaGraphql = await query(CREATE_LINK, { input: { id: 'GINA@example.com' } });
    expect(viaGraphql.errors).toBeUndefined();
    const link = viaGraphql.data.createPasswordResetLink.resetPasswordUrl as string;
    expect(link).toMatch(/^http:\/\/localhost:4242\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    expect((await validate(tokenOf(rest.body.resetPasswordUrl))).status).toBe(401);
    const check = await validate(tokenOf(link));
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ email: 'gina@example.com', createdBy: 'admin', role: { id: 2, name: 'Editor', type: 'root' } });

    const again = await app.post('/api/admin/user-admin/reset-password', { id: 'gina' });
    expect((await validate(tokenOf(link))).status).toBe(401);
    expect((await validate(tokenOf(again.body.resetPasswordUrl))).status).toBe(200);
  });

  it('refuses as REST does: NotFoundError for an unknown user, ValidationError for an empty id, NoAccessError without ADMIN', async () => {
    const unknown = await query(CREATE_LINK, { input: { id: 'nobody' } });
    expect(unknown.errors?.[0].extensions).toMatchObject({ name: 'NotFoundError', code: 404 });
    const empty = await query(CREATE_LINK, { input: { id: '' } });
    expect(empty.errors?.[0].extensions).toMatchObject({ name: 'ValidationError', code: 400 });

    const login = await app.post('/auth/simple/login', { username: 'gil', password: 'Gql-Reset-42' }, { token: null });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const pat = (await app.post('/api/admin/user/tokens', { description: 'gql', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } })).body.secret as string;
    const denied = await query(CREATE_LINK, { input: { id: 'gina' } }, pat);
    expect(denied.errors?.[0].extensions).toMatchObject({ name: 'NoAccessError', code: 403 });
    expect(denied.data?.createPasswordResetLink ?? null).toBeNull();
  });
});

describe('createUser and inviteLink', () => {
  const CREATE_USER = 'mutation($input: CreateUserInput!) { createUser(input: $input) { id username inviteLink } }';

  it('a created user carries an invite link that works, with or without a password; elsewhere the field is empty', async () => {
    const invited = await query(CREATE_USER, { input: { username: 'gql-invited', rootRole: 'Viewer' } });
    expect(invited.errors).toBeUndefined();
    const { id, inviteLink } = invited.data.createUser;
    expect(inviteLink).toMatch(/^http:\/\/localhost:4242\/new-user\?token=[A-Za-z0-9_-]{43}$/);
    const check = await validate(tokenOf(inviteLink));
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ id, name: null, email: '', createdBy: 'admin', role: { id: 3, name: 'Viewer' } });

    const withPassword = await query(CREATE_USER, { input: { username: 'gql-has-password', password: 'Gql-Reset-43', rootRole: 'Viewer' } });
    expect(withPassword.data.createUser.inviteLink).toMatch(/^http:\/\/localhost:4242\/new-user\?token=[A-Za-z0-9_-]{43}$/);
    expect((await validate(tokenOf(withPassword.data.createUser.inviteLink))).status).toBe(200);

    const read = await query('query($id: Int!) { user(id: $id) { inviteLink } users { inviteLink } }', { id });
    expect(read.data.user.inviteLink).toBe('');
    expect(read.data.users.every((u: { inviteLink: string }) => u.inviteLink === '')).toBe(true);
    // REST reads the same.
    expect((await app.get(`/api/admin/user-admin/${id}`)).body.inviteLink).toBe('');
  });
});
