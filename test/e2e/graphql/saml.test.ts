import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createIdp, type TestIdp } from '../../support/saml-idp';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 10 on the GraphQL door: `samlSettings` and `updateSamlSettings` give what GET/POST
 * /api/admin/auth/saml/settings give, refuse with the same error names and paths, and write the same event.
 */
let app: TestApp;
let idp: TestIdp;
let viewerToken: string;

const FIELDS = 'enabled entityId signOnUrl certificate signOutUrl spCertificate autoCreate emailDomains defaultRootRole';
const READ = `{ samlSettings { ${FIELDS} } }`;
const UPDATE = `mutation($input: UpdateSamlSettingsInput!) { updateSamlSettings(input: $input) { ${FIELDS} } }`;

type Answer = { data?: any; errors?: Array<{ message: string; extensions: { name: string; code: number; details?: Array<{ path: string }> } }> };
const run = async (query: string, variables?: Record<string, unknown>, token?: string | null) =>
  (await app.post('/graphql', { query, variables }, token === undefined ? {} : { token })).body as Answer;

/** The REST shape with GraphQL's nulls for absent fields. */
const withNulls = (rest: Record<string, unknown>) => Object.fromEntries(FIELDS.split(' ').map((f) => [f, rest[f] ?? null]));

beforeAll(async () => {
  app = await startTestApp();
  idp = await createIdp();
  expect((await app.post('/api/admin/user-admin', { username: 'gql-saml-viewer', password: 'Gql-Saml-42', rootRole: 'Viewer' })).status).toBe(201);
  const login = await app.post('/auth/simple/login', { username: 'gql-saml-viewer', password: 'Gql-Saml-42' }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  viewerToken = (await app.post('/api/admin/user/tokens', { description: 'gql', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } })).body.secret;
}, 60_000);
afterAll(async () => { await app.close(); });

const input = (extra: Record<string, unknown> = {}) => ({
  enabled: true, entityId: idp.entityId, signOnUrl: idp.signOnUrl, certificate: idp.certificate, autoCreate: true, emailDomains: 'example.com', defaultRootRole: 'Editor', ...extra,
});

describe('SAML settings on the GraphQL door', () => {
  it('samlSettings before anything is saved equals the REST answer (enabled false, defaults, the SP certificate)', async () => {
    const answer = await run(READ);
    expect(answer.errors).toBeUndefined();
    const rest = (await app.get('/api/admin/auth/saml/settings')).body;
    expect(answer.data.samlSettings).toEqual(withNulls(rest));
    expect(answer.data.samlSettings).toMatchObject({ enabled: false, entityId: null, defaultRootRole: 'Viewer' });
  });

  it('updateSamlSettings stores what REST reads back and writes the same setting-updated event', async () => {
    const answer = await run(UPDATE, { input: input({ signOutUrl: idp.signOutUrl }) });
    expect(answer.errors).toBeUndefined();
    const rest = (await app.get('/api/admin/auth/saml/settings')).body;
    expect(answer.data.updateSamlSettings).toEqual(withNulls(rest));
    expect(rest).toMatchObject({ enabled: true, entityId: idp.entityId, signOutUrl: idp.signOutUrl, defaultRootRole: 'Editor' });
    const [event] = await app.events('setting-updated');
    expect(event).toMatchObject({ createdBy: 'admin', data: { entityId: idp.entityId, certificate: expect.stringMatching(/^sha256:/) } });
    expect(JSON.stringify(event)).not.toContain('CERTIFICATE');
  });

  it('the same refusals as REST, with the same names and paths; nothing changes', async () => {
    const before = (await app.get('/api/admin/auth/saml/settings')).body;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ certificate: 'not a certificate' }, 'certificate'],
      [{ signOnUrl: '/relative' }, 'signOnUrl'],
      [{ emailDomains: 'bad domain' }, 'emailDomains'],
      [{ defaultRootRole: 'Owner' }, 'defaultRootRole'],
      [{ spCertificate: 'IDP' }, 'spCertificate'],
      [{ emailDomains: undefined }, 'emailDomains'],
    ];
    for (const [change, path] of cases) {
      const body: Record<string, unknown> = { ...input(), ...change };
      if (body.spCertificate === 'IDP') body.spCertificate = idp.certificate;
      if ('emailDomains' in change && change.emailDomains === undefined) delete body.emailDomains;
      const gqlAnswer = await run(UPDATE, { input: body });
      const restAnswer = await app.post('/api/admin/auth/saml/settings', body);
      expect({ path, gql: gqlAnswer.errors?.[0].extensions.name, gqlPath: gqlAnswer.errors?.[0].extensions.details?.[0]?.path, code: gqlAnswer.errors?.[0].extensions.code })
        .toEqual({ path, gql: 'ValidationError', gqlPath: path, code: 400 });
      expect({ rest: restAnswer.body.name, restPath: restAnswer.body.details?.[0]?.path }).toEqual({ rest: 'ValidationError', restPath: path });
    }
    const missing = await run(UPDATE, { input: { enabled: true } });
    expect(missing.errors?.[0].extensions.name).toBe('ValidationError');
    expect(missing.errors?.[0].extensions.details?.map((d) => d.path)).toEqual(['entityId', 'signOnUrl', 'certificate']);
    expect((await app.get('/api/admin/auth/saml/settings')).body).toEqual(before);
  });

  it('a user without ADMIN gets NoAccessError for the query and the mutation; without a token, AuthenticationRequired', async () => {
    for (const answer of [await run(READ, undefined, viewerToken), await run(UPDATE, { input: input() }, viewerToken)]) {
      expect(answer.errors?.[0].extensions).toMatchObject({ name: 'NoAccessError', code: 403 });
    }
    const anonymous = await app.post('/graphql', { query: READ }, { token: null });
    expect({ status: anonymous.status, name: anonymous.body.errors?.[0].extensions.name }).toEqual({ status: 401, name: 'AuthenticationRequired' });
  });
});
