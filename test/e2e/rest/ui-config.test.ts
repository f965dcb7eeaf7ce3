import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import packageJson from '../../../package.json';
import { MAX_STRATEGY_SEGMENTS } from '../../../src/domain/features/feature-strategy.schemas';
import { UiConfigService } from '../../../src/domain/ui-config/ui-config.service';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 15 part 7: `GET /api/admin/ui-config`, the fields Unleash clients read (Unleash v5.8 uiConfigSchema), and its
 * GraphQL twin `uiConfig`: one service, the same answer; authentication like every admin path.
 */
let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

const UiConfigQuery = graphql(`
  query UiConfigQuery {
    uiConfig {
      version versionInfo { current { oss } latest isLatest } authenticationType baseUriPath unleashUrl flags
      slogan name environment disablePasswordAuth emailEnabled maintenanceMode strategySegmentsLimit
    }
  }
`);

const EXPECTED = {
  version: packageJson.version,
  versionInfo: { current: { oss: packageJson.version }, latest: {}, isLatest: true },
  authenticationType: 'open-source',
  baseUriPath: '',
  unleashUrl: 'http://localhost:4242',
  flags: {},
  slogan: packageJson.description,
  name: 'flagdeck',
  environment: 'Open Source',
  disablePasswordAuth: false,
  emailEnabled: false,
  maintenanceMode: false,
  strategySegmentsLimit: MAX_STRATEGY_SEGMENTS,
};

describe('GET /api/admin/ui-config', () => {
  it('answers the UI configuration: version from package.json, password sign-in, PUBLIC_URL and its path', async () => {
    const res = await app.get('/api/admin/ui-config');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(EXPECTED);
  });

  it('GraphQL `uiConfig` answers the same', async () => {
    const res = await app.gql(UiConfigQuery);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.uiConfig).toEqual((await app.get('/api/admin/ui-config')).body);
  });

  it('needs authentication like every admin path: 401 without a token, 403 for SDK tokens; any admin-API caller may read it', async () => {
    const anonymous = await app.get('/api/admin/ui-config', { token: null });
    expect([anonymous.status, anonymous.body.name]).toEqual([401, 'AuthenticationRequired']);
    const anonymousGql = await app.gql(UiConfigQuery, {}, { token: null });
    expect([anonymousGql.status, anonymousGql.body.errors?.[0].extensions.name]).toEqual([401, 'AuthenticationRequired']);
    const client = await app.post('/api/admin/api-tokens', { tokenName: 'ui-config-client', type: 'client', environment: 'development', projects: ['*'] });
    const refused = await app.get('/api/admin/ui-config', { token: client.body.secret });
    expect([refused.status, refused.body.name]).toEqual([403, 'NoAccessError']);
    // A Viewer signed in with a password (session cookie) reads it as well.
    const user = await app.post('/api/admin/user-admin', { username: 'ui-viewer', rootRole: 'Viewer', password: 'Ui-Config-Viewer-42' });
    expect(user.status).toBe(201);
    const login = await fetch(`${app.url}/auth/simple/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'ui-viewer', password: 'Ui-Config-Viewer-42' }) });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const asViewer = await app.get('/api/admin/ui-config', { token: null, headers: { cookie } });
    expect([asViewer.status, asViewer.body]).toEqual([200, EXPECTED]);
  });
});

describe('UiConfigService', () => {
  it('baseUriPath is the path of PUBLIC_URL ("" at the root), unleashUrl PUBLIC_URL itself', () => {
    expect(new UiConfigService('https://flags.example.com/unleash').get()).toMatchObject({ baseUriPath: '/unleash', unleashUrl: 'https://flags.example.com/unleash' });
    expect(new UiConfigService('https://flags.example.com/a/b').get().baseUriPath).toBe('/a/b');
    expect(new UiConfigService('http://localhost:4242').get().baseUriPath).toBe('');
  });
});
