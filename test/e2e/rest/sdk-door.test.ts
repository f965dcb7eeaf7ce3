import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 14: the SDK doors. Backend SDKs use /api/client with client tokens, browser and mobile SDKs /api/frontend with
 * frontend tokens; admin tokens open both; every other credential is refused there, and SDK tokens stay refused on
 * the admin API and GraphQL.
 */
let app: TestApp;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  app = await startTestApp();
  for (const type of ['client', 'frontend']) {
    const res = await app.post('/api/admin/api-tokens', { tokenName: `door-${type}`, type, environment: 'development', projects: ['default'] });
    tokens[type] = res.body.secret;
  }
});
afterAll(async () => { await app.close(); });

describe('the SDK doors', () => {
  it('401 AuthenticationRequired without a token or with an unknown one, on both doors', async () => {
    for (const path of ['/api/client/features', '/api/frontend']) {
      for (const token of [null, '*:development.0000000000000000']) {
        const res = await app.get(path, { token });
        expect([path, res.status, res.body.name]).toEqual([path, 401, 'AuthenticationRequired']);
      }
    }
  });

  it('a frontend token gets 403 on the client API, the admin API and GraphQL; a client token on the frontend API, the admin API and GraphQL', async () => {
    const refused: Array<[string, string]> = [['frontend', '/api/client/features'], ['client', '/api/frontend'], ['frontend', '/api/admin/projects'], ['client', '/api/admin/projects']];
    for (const [type, path] of refused) {
      const res = await app.get(path, { token: tokens[type] });
      expect([type, path, res.status, res.body.name]).toEqual([type, path, 403, 'NoAccessError']);
    }
    for (const type of ['client', 'frontend']) {
      const res = await app.post('/graphql', { query: '{ projects { id } }' }, { token: tokens[type] });
      expect(res.body.errors[0].extensions).toMatchObject({ name: 'NoAccessError', code: 403 });
    }
  });

  it('a personal access token or a session is not an SDK credential: 403', async () => {
    await app.post('/api/admin/user-admin', { username: 'door-user', password: 'Door-Pass-4242', rootRole: 'Admin' });
    const login = await app.post('/auth/simple/login', { username: 'door-user', password: 'Door-Pass-4242' }, { token: null });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const pat = (await app.post('/api/admin/user/tokens', { description: 'door', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } })).body.secret;
    expect((await app.get('/api/client/features', { token: pat })).status).toBe(403);
    expect((await app.get('/api/frontend', { token: null, headers: { cookie } })).status).toBe(401);
  });

  it('an unknown SDK path is a 404 NotFoundError behind the door', async () => {
    const res = await app.get('/api/client/nowhere', { token: tokens.client });
    expect([res.status, res.body.name]).toEqual([404, 'NotFoundError']);
  });
});
