import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * `samlSettings.serviceProvider` (issue 29, the SAML settings page): the entity id and URLs an admin gives the identity
 * provider are the ones the service announces in its own metadata and serves, and only an admin may read them.
 */
let app: TestApp;
let viewerToken: string;

const READ = '{ samlSettings { serviceProvider { entityId acsUrl metadataUrl loginUrl logoutCallbackUrl } } }';
type Answer = { data?: any; errors?: Array<{ extensions: { name: string } }> };
const run = async (query: string, token?: string) => (await app.post('/graphql', { query }, token === undefined ? {} : { token })).body as Answer;

beforeAll(async () => {
  app = await startTestApp();
  expect((await app.post('/api/admin/user-admin', { username: 'gql-sp-viewer', password: 'Gql-Sp-Viewer-42', rootRole: 'Viewer' })).status).toBe(201);
  const login = await app.post('/auth/simple/login', { username: 'gql-sp-viewer', password: 'Gql-Sp-Viewer-42' }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  viewerToken = (await app.post('/api/admin/user/tokens', { description: 'gql', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } })).body.secret;
}, 60_000);
afterAll(async () => { await app.close(); });

describe('samlSettings.serviceProvider', () => {
  it('gives the entity id and assertion consumer URL the metadata announces, under the public URL', async () => {
    const answer = await run(READ);
    expect(answer.errors).toBeUndefined();
    const sp = answer.data.samlSettings.serviceProvider;
    expect(sp).toEqual({
      entityId: 'http://localhost:4242/auth/saml/metadata',
      acsUrl: 'http://localhost:4242/auth/saml/callback',
      metadataUrl: 'http://localhost:4242/auth/saml/metadata',
      loginUrl: 'http://localhost:4242/auth/saml/login',
      logoutCallbackUrl: 'http://localhost:4242/auth/saml/logout/callback',
    });
    // The metadata the identity provider reads names the same entity id and addresses.
    const metadata = await app.get('/auth/saml/metadata', { token: null });
    expect(metadata.status).toBe(200);
    const xml = String(metadata.body);
    expect(xml).toContain(`entityID="${sp.entityId}"`);
    expect(xml).toMatch(new RegExp(`AssertionConsumerService[^>]*Location="${sp.acsUrl}"`));
    expect(xml).toMatch(new RegExp(`SingleLogoutService[^>]*Location="${sp.logoutCallbackUrl}"`));
    // Each path is one the service serves: the metadata (above) and the sign-in start, which is 404 while SAML is off.
    const login = await fetch(`${app.url}${new URL(sp.loginUrl).pathname}`, { redirect: 'manual' });
    expect(login.status).toBe(404);
    expect(((await login.json()) as { name: string }).name).toBe('NotFoundError');
  });

  it('is refused to a non-admin, as the settings are', async () => {
    const answer = await run(READ, viewerToken);
    expect(answer.errors?.[0].extensions.name).toBe('NoAccessError');
    expect(answer.data ?? null).toBeNull();
  });
});
