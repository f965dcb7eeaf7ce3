import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 10 on the GraphQL door: public signup tokens give what the REST routes give (spec endpoint 7), refuse with the
 * same error names, write the same events, and follow D4 (an expired token is never enabled).
 */
let app: TestApp;
let viewerToken: string;

const query = async (query: string, variables?: Record<string, unknown>, token?: string | null) =>
  (await app.post('/graphql', { query, variables }, token === undefined ? {} : { token })).body as { data?: any; errors?: Array<{ message: string; extensions: { name: string; code: number; details?: Array<{ path: string }> } }> };

const FIELDS = 'secret url name enabled expiresAt createdAt createdBy role { id name type description } users { id email }';
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

beforeAll(async () => {
  app = await startTestApp();
  await app.post('/api/admin/user-admin', { username: 'gql-link-viewer', password: 'Gql-Links-42', rootRole: 'Viewer' });
  const login = await app.post('/auth/simple/login', { username: 'gql-link-viewer', password: 'Gql-Links-42' }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  viewerToken = (await app.post('/api/admin/user/tokens', { description: 'gql', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } })).body.secret;
});
afterAll(async () => { await app.close(); });

describe('public signup tokens over GraphQL', () => {
  it('createPublicSignupToken, publicSignupTokens and publicSignupToken answer what REST answers, with the same event', async () => {
    const created = await query(`mutation($input: CreatePublicSignupTokenInput!) { createPublicSignupToken(input: $input) { ${FIELDS} } }`,
      { input: { name: 'Gql link', expiresAt: inDays(3), role: 'Editor' } });
    expect(created.errors).toBeUndefined();
    const token = created.data.createPublicSignupToken;
    const rest = (await app.get(`/api/admin/invite-link/tokens/${token.secret}`)).body;
    expect(token).toEqual({ ...rest, users: [] });
    expect(token.role).toMatchObject({ id: 2, name: 'Editor', type: 'root' });
    expect((await app.events('public-signup-token-created'))[0].data).toMatchObject({ name: 'Gql link', role: 'Editor' });

    const list = await query(`{ publicSignupTokens { ${FIELDS} } }`);
    expect(list.data.publicSignupTokens).toEqual((await app.get('/api/admin/invite-link/tokens')).body.tokens.map((t: any) => ({ ...t, users: t.users.map((u: any) => ({ id: u.id, email: u.email })) })));
    const one = await query(`query($secret: String!) { publicSignupToken(secret: $secret) { ${FIELDS} } }`, { secret: token.secret });
    expect(one.data.publicSignupToken).toEqual(token);
  });

  it('updatePublicSignupToken: the whole token; D4 on every read; users who signed up are listed', async () => {
    const secret = (await app.post('/api/admin/invite-link/tokens', { name: 'Gql update', expiresAt: inDays(3) })).body.secret;
    expect((await app.post(`/invite/${secret}/signup`, { name: 'Joiner', email: 'joiner@gql.example', password: 'Gql-Joiner-42' }, { token: null })).status).toBe(201);
    const past = new Date(Date.now() - 1000).toISOString();
    const updated = await query(`mutation($input: UpdatePublicSignupTokenInput!) { updatePublicSignupToken(input: $input) { ${FIELDS} } }`, { input: { secret, expiresAt: past } });
    expect(updated.errors).toBeUndefined();
    expect(updated.data.updatePublicSignupToken).toMatchObject({ enabled: false, expiresAt: past, users: [{ email: 'joiner@gql.example' }] });
    expect((await query(`query($secret: String!) { publicSignupToken(secret: $secret) { enabled } }`, { secret })).data.publicSignupToken.enabled).toBe(false);
    const listed = (await query('{ publicSignupTokens { secret enabled } }')).data.publicSignupTokens.find((t: { secret: string }) => t.secret === secret);
    expect(listed.enabled).toBe(false);
    expect((await app.events('public-signup-token-updated'))[0].data).toEqual({ name: 'Gql update', expiresAt: past });
  });

  it('refuses with the REST error names: 400 ValidationError, 404 NotFoundError, 403 NoAccessError', async () => {
    const secret = (await app.post('/api/admin/invite-link/tokens', { name: 'Gql errors', expiresAt: inDays(3) })).body.secret;
    const empty = await query('mutation($input: UpdatePublicSignupTokenInput!) { updatePublicSignupToken(input: $input) { name } }', { input: { secret } });
    expect(empty.errors?.[0].extensions).toMatchObject({ name: 'ValidationError', code: 400 });
    const past = await query('mutation($input: CreatePublicSignupTokenInput!) { createPublicSignupToken(input: $input) { name } }', { input: { name: 'x', expiresAt: inDays(-1) } });
    expect(past.errors?.[0].extensions).toMatchObject({ name: 'ValidationError', code: 400, details: [{ path: 'expiresAt' }] });
    const projectRole = await query('mutation($input: CreatePublicSignupTokenInput!) { createPublicSignupToken(input: $input) { name } }', { input: { name: 'x', expiresAt: inDays(1), role: 'Owner' } });
    expect(projectRole.errors?.[0].extensions).toMatchObject({ name: 'ValidationError', code: 400, details: [{ path: 'role' }] });
    const missing = await query('{ publicSignupToken(secret: "ffffffffffffffffffffffffffffffff") { name } }');
    expect(missing.errors?.[0].extensions).toMatchObject({ name: 'NotFoundError', code: 404 });
    const denied = await query('mutation($input: UpdatePublicSignupTokenInput!) { updatePublicSignupToken(input: $input) { name } }', { input: { secret, enabled: false } }, viewerToken);
    expect(denied.errors?.[0].extensions).toMatchObject({ name: 'NoAccessError', code: 403 });
    expect((await query('{ publicSignupTokens { name } }', undefined, viewerToken)).errors?.[0].extensions).toMatchObject({ name: 'NoAccessError', code: 403 });
    expect((await app.get(`/api/admin/invite-link/tokens/${secret}`)).body.enabled).toBe(true);
  });
});
