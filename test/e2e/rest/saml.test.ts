import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createIdp, logoutResponseQuery, readRedirect, samlResponse, type ResponseOptions, type TestIdp } from '../../support/saml-idp';
import { startTestApp, type TestApp } from '../../support/harness';
import { SAML_LOGINS_PER_MINUTE } from '../../../src/rest/saml.routes';

/**
 * Issue 10, parts 3 and 4: SAML settings (spec endpoint 11) and SAML sign-in against a test identity provider that
 * signs its assertions with its own key (test/support/saml-idp.ts). The log is captured at trace level and searched
 * for secrets at the end.
 */
let app: TestApp;
let idp: TestIdp;
let forger: TestIdp;
const logLines: string[] = [];
const logSink = new Writable({ write(chunk, _enc, done) { logLines.push(String(chunk)); done(); } });

/** buildApp's default public URL (the harness does not set one): the SP's addresses are built from it. */
const SP = 'http://localhost:4242';
const AUDIENCE = `${SP}/auth/saml/metadata`;
const ACS = `${SP}/auth/saml/callback`;
const PASSWORD = 'Saml-Test-Pass-42';

/** Every SAMLResponse and session id handed out, to search the log and the events for. */
const secrets: string[] = [];

beforeAll(async () => {
  app = await startTestApp({ logger: pino({ level: 'trace' }, logSink) });
  [idp, forger] = await Promise.all([createIdp(), createIdp('https://forger.example.test/saml')]);
}, 60_000);
afterAll(async () => { await app.close(); });

const settings = (extra: Record<string, unknown> = {}) => ({
  enabled: true, entityId: idp.entityId, signOnUrl: idp.signOnUrl, certificate: idp.certificate,
  autoCreate: true, emailDomains: 'example.com, corp.example.org', defaultRootRole: 'Editor', ...extra,
});

interface Raw { status: number; body: any; location: string | null; cookie: string | null; headers: Headers }

/** A request that does not follow redirects, with an optional form body. */
async function raw(method: string, path: string, options: { form?: Record<string, string>; body?: string; headers?: Record<string, string>; cookie?: string } = {}): Promise<Raw> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let body = options.body;
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  }
  if (options.cookie) headers.cookie = options.cookie;
  const res = await fetch(app.url + path, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  const setCookie = res.headers.get('set-cookie');
  const cookie = setCookie && /^unleash-session=[^;]+/.test(setCookie) ? setCookie.split(';')[0] : null;
  if (cookie) secrets.push(cookie.slice(cookie.indexOf('=') + 1));
  return { status: res.status, body: parsed, location: res.headers.get('location'), cookie, headers: res.headers };
}

/** Posts a response from `who` to the ACS, as the browser does after the IdP's auto-submitting form. */
function post(o: Partial<ResponseOptions> & { email: string }, extra: Record<string, string> = {}, who: TestIdp = idp) {
  const { SAMLResponse } = samlResponse(who, { audience: AUDIENCE, recipient: ACS, ...o });
  secrets.push(SAMLResponse);
  return raw('POST', '/auth/saml/callback', { form: { SAMLResponse, ...extra } });
}

const saveSettings = async (body: unknown) => {
  const res = await app.post('/api/admin/auth/saml/settings', body);
  expect(res.status).toBe(200);
  return res.body;
};

async function userToken(username: string, rootRole: string): Promise<string> {
  expect((await app.post('/api/admin/user-admin', { username, password: PASSWORD, rootRole })).status).toBe(201);
  const login = await app.post('/auth/simple/login', { username, password: PASSWORD }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const pat = await app.post('/api/admin/user/tokens', { description: 'saml test', expiresAt: '2100-01-01T00:00:00.000Z' }, { token: null, headers: { cookie } });
  expect(pat.status).toBe(201);
  return pat.body.secret;
}

const usersByEmail = async (email: string) => app.orm.em.fork().execute<Array<{ id: number; root_role_id: number; name: string | null }>>(
  'select id, root_role_id, name from users where lower(email) = lower(?)', [email]);

describe('GET/POST /api/admin/auth/saml/settings (spec endpoint 11)', () => {
  it('before anything is saved: 200 with enabled false, the defaults and the service\'s own signing certificate', async () => {
    const res = await app.get('/api/admin/auth/saml/settings');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: false, autoCreate: false, defaultRootRole: 'Viewer', spCertificate: expect.stringContaining('-----BEGIN CERTIFICATE-----') });
    // The same certificate on every read: the key pair is generated once.
    expect((await app.get('/api/admin/auth/saml/settings')).body.spCertificate).toBe(res.body.spCertificate);
  });

  it('401 AuthenticationRequired without a token, for GET and POST', async () => {
    for (const res of [await app.get('/api/admin/auth/saml/settings', { token: null }), await app.post('/api/admin/auth/saml/settings', settings(), { token: null })]) {
      expect({ status: res.status, name: res.body.name }).toEqual({ status: 401, name: 'AuthenticationRequired' });
    }
  });

  it('403 NoAccessError naming ADMIN for a user who is not an admin, for GET and POST; nothing changes', async () => {
    const editor = await userToken('saml-editor', 'Editor');
    const before = (await app.get('/api/admin/auth/saml/settings')).body;
    for (const res of [await app.get('/api/admin/auth/saml/settings', { token: editor }), await app.post('/api/admin/auth/saml/settings', settings(), { token: editor })]) {
      expect({ status: res.status, name: res.body.name, permissions: res.body.permissions }).toEqual({ status: 403, name: 'NoAccessError', permissions: ['ADMIN'] });
    }
    expect((await app.get('/api/admin/auth/saml/settings')).body).toEqual(before);
  });

  it('415 ContentTypeerror for a body that is not JSON', async () => {
    const res = await app.post('/api/admin/auth/saml/settings', undefined, { raw: 'enabled=true', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect({ status: res.status, name: res.body.name }).toEqual({ status: 415, name: 'ContentTypeerror' });
  });

  it('200 echoes what is stored; GET reads it back; event setting-updated names certificates by fingerprint only', async () => {
    const res = await app.post('/api/admin/auth/saml/settings', settings({ signOutUrl: idp.signOutUrl }));
    expect(res.status).toBe(200);
    const sp = (await app.get('/api/admin/auth/saml/settings')).body.spCertificate;
    expect(res.body).toEqual({ ...settings({ signOutUrl: idp.signOutUrl }), spCertificate: sp });
    expect((await app.get('/api/admin/auth/saml/settings')).body).toEqual(res.body);
    const [event] = await app.events('setting-updated');
    expect(event.data).toEqual({
      enabled: true, entityId: idp.entityId, signOnUrl: idp.signOnUrl, signOutUrl: idp.signOutUrl, autoCreate: true,
      emailDomains: 'example.com, corp.example.org', defaultRootRole: 'Editor',
      certificate: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), spCertificate: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect(event.preData).toBeNull();
    expect(JSON.stringify(event)).not.toContain('CERTIFICATE');
  });

  it('empty strings in optional fields mean absent; a certificate without its BEGIN/END lines is accepted; booleans default to false', async () => {
    const bare = idp.certificate.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
    const body = { entityId: idp.entityId, signOnUrl: idp.signOnUrl, certificate: bare, signOutUrl: '', spCertificate: '', emailDomains: '' };
    const res = await app.post('/api/admin/auth/saml/settings', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: false, entityId: idp.entityId, signOnUrl: idp.signOnUrl, certificate: bare, autoCreate: false, defaultRootRole: 'Viewer', spCertificate: expect.any(String) });
    // Sending back what was read (the UI's read-modify-write, with the service's own certificate) is fine.
    const again = await app.post('/api/admin/auth/saml/settings', { ...res.body, enabled: true });
    expect(again.status).toBe(200);
    expect(again.body.enabled).toBe(true);
  });

  it('an update that changes nothing writes no event; a change writes one whose preData is the old settings', async () => {
    await saveSettings(settings());
    const count = (await app.events('setting-updated')).length;
    await saveSettings(settings());
    expect(await app.events('setting-updated')).toHaveLength(count);
    await saveSettings(settings({ defaultRootRole: 'Viewer' }));
    const [latest] = await app.events('setting-updated');
    expect(latest.preData.defaultRootRole).toBe('Editor');
    expect(latest.data.defaultRootRole).toBe('Viewer');
    await saveSettings(settings());
  });

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['entityId missing', { entityId: undefined }, 'entityId'],
    ['entityId empty', { entityId: '' }, 'entityId'],
    ['signOnUrl missing', { signOnUrl: undefined }, 'signOnUrl'],
    ['signOnUrl relative', { signOnUrl: '/sso' }, 'signOnUrl'],
    ['signOnUrl not http(s)', { signOnUrl: 'javascript:alert(1)' }, 'signOnUrl'],
    ['certificate missing', { certificate: undefined }, 'certificate'],
    ['certificate not X.509', { certificate: 'hello' }, 'certificate'],
    ['certificate is base64 of something else', { certificate: Buffer.from('not a certificate at all').toString('base64') }, 'certificate'],
    ['a private key in certificate', { certificate: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----' }, 'certificate'],
    ['signOutUrl not a URL', { signOutUrl: 'not a url' }, 'signOutUrl'],
    ['signOutUrl ftp', { signOutUrl: 'ftp://idp.example.test/slo' }, 'signOutUrl'],
    ['spCertificate not X.509', { spCertificate: 'garbage' }, 'spCertificate'],
    ['spCertificate another certificate', { spCertificate: 'IDP' }, 'spCertificate'],
    ['emailDomains with a space inside a name', { emailDomains: 'exa mple.com' }, 'emailDomains'],
    ['emailDomains with an empty entry', { emailDomains: 'example.com,,example.org' }, 'emailDomains'],
    ['emailDomains with an email address', { emailDomains: 'me@example.com' }, 'emailDomains'],
    ['emailDomains with a single label', { emailDomains: 'localhost' }, 'emailDomains'],
    ['autoCreate without emailDomains', { autoCreate: true, emailDomains: undefined }, 'emailDomains'],
    ['defaultRootRole not a root role', { defaultRootRole: 'Owner' }, 'defaultRootRole'],
    ['enabled not a boolean', { enabled: 'yes' }, 'enabled'],
    ['autoCreate not a boolean', { autoCreate: 1 }, 'autoCreate'],
    ['entityId not a string', { entityId: 42 }, 'entityId'],
    ['an unknown property', { spPrivateKey: 'x' }, 'spPrivateKey'],
  ];
  it.each(bad)('400 ValidationError naming the property: %s; nothing changes', async (_label, change, path) => {
    const before = (await app.get('/api/admin/auth/saml/settings')).body;
    const events = (await app.events()).length;
    const body: Record<string, unknown> = { ...settings(), ...change };
    if (body.spCertificate === 'IDP') body.spCertificate = idp.certificate;
    for (const [k, v] of Object.entries(change)) if (v === undefined) delete body[k];
    const res = await app.post('/api/admin/auth/saml/settings', body);
    expect({ status: res.status, name: res.body.name, path: res.body.details?.[0]?.path }).toEqual({ status: 400, name: 'ValidationError', path });
    expect(JSON.stringify(res.body)).not.toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
    expect((await app.get('/api/admin/auth/saml/settings')).body).toEqual(before);
    expect(await app.events()).toHaveLength(events);
  });

  it('a body that is not an object, and malformed JSON: 400 ValidationError', async () => {
    expect((await app.post('/api/admin/auth/saml/settings', ['x'])).body.name).toBe('ValidationError');
    const res = await app.post('/api/admin/auth/saml/settings', undefined, { raw: '{"enabled":' });
    expect({ status: res.status, name: res.body.name }).toEqual({ status: 400, name: 'ValidationError' });
  });

  it('concurrent updates: each is one true event, in a chain (each preData is the data before it), and the last one wins', async () => {
    await saveSettings(settings());
    const before = (await app.events('setting-updated')).length;
    const entityIds = Array.from({ length: 8 }, (_, i) => `https://idp${i}.example.test/saml`);
    const answers = await Promise.all(entityIds.map((entityId) => app.post('/api/admin/auth/saml/settings', settings({ entityId }))));
    expect(answers.map((a) => a.status)).toEqual(entityIds.map(() => 200));
    const events = (await app.events('setting-updated')).slice(0, 8).reverse();
    expect((await app.events('setting-updated')).length).toBe(before + 8);
    expect(events.map((e) => e.data.entityId).sort()).toEqual([...entityIds].sort());
    expect(events[0].preData.entityId).toBe(idp.entityId);
    for (let i = 1; i < events.length; i++) expect(events[i].preData).toEqual(events[i - 1].data);
    expect((await app.get('/api/admin/auth/saml/settings')).body.entityId).toBe(events[7].data.entityId);
    await saveSettings(settings());
  });
});

describe('SAML sign-in', () => {
  let spCertificate: string;
  beforeAll(async () => {
    await saveSettings(settings({ signOutUrl: idp.signOutUrl }));
    spCertificate = (await app.get('/api/admin/auth/saml/settings')).body.spCertificate;
  });

  it('GET /auth/config says which sign-in methods are on (no credentials needed)', async () => {
    const res = await raw('GET', '/auth/config');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ password: true, saml: { enabled: true, loginUrl: `${SP}/auth/saml/login` } });
  });

  it('GET /auth/saml/metadata serves the SP metadata: entity id, ACS, logout callback and the signing certificate', async () => {
    const res = await raw('GET', '/auth/saml/metadata');
    expect(res.status).toBe(200);
    const xml = String(res.body);
    expect(xml).toContain(`entityID="${AUDIENCE}"`);
    expect(xml).toContain(`Location="${ACS}"`);
    expect(xml).toContain(`Location="${SP}/auth/saml/logout/callback"`);
    expect(xml).toContain('AuthnRequestsSigned="true"');
    const body = spCertificate.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
    expect(xml.replace(/\s+/g, '')).toContain(body);
    expect(xml).not.toContain('PRIVATE KEY');
  });

  it('GET /auth/saml/login redirects to signOnUrl with a signed AuthnRequest for our ACS; a same-origin redirect path becomes the RelayState', async () => {
    const res = await raw('GET', '/auth/saml/login?redirect=%2Fprojects%2Fdefault');
    expect(res.status).toBe(302);
    expect(res.location!.startsWith(`${idp.signOnUrl}?`)).toBe(true);
    const request = readRedirect(res.location!, spCertificate);
    expect(request.signatureValid).toBe(true);
    expect(request.sigAlg).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(request.relayState).toBe('/projects/default');
    expect(request.xml).toContain(`AssertionConsumerServiceURL="${ACS}"`);
    expect(request.xml).toContain(AUDIENCE);
    // Another origin is never a RelayState: the browser could be sent anywhere after sign-in.
    for (const evil of ['https://evil.example', '//evil.example', '/\\evil.example']) {
      const other = await raw('GET', `/auth/saml/login?redirect=${encodeURIComponent(evil)}`);
      expect(readRedirect(other.location!, spCertificate).relayState).toBeNull();
    }
  });

  it('a signed response answering our request signs the user in: created with the default root role, the cookie works, the browser goes to the RelayState', async () => {
    const login = readRedirect((await raw('GET', '/auth/saml/login')).location!, spCertificate);
    const res = await post({ email: 'Ada@Example.com', inResponseTo: login.id, attributes: { displayName: 'Ada Lovelace' } }, { RelayState: '/projects/default' });
    expect(res.status).toBe(302);
    expect(res.location).toBe(`${SP}/projects/default`);
    expect(res.cookie).toMatch(/^unleash-session=/);
    const me = await app.get('/api/admin/user', { token: null, headers: { cookie: res.cookie! } });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: 'Ada@Example.com', name: 'Ada Lovelace', rootRole: 2 });
    const [created] = await app.events('user-created');
    expect(created).toMatchObject({ createdBy: 'unleash_system_user', data: { id: me.body.user.id, email: 'Ada@Example.com', rootRole: 2, source: 'saml' } });
  });

  it('an existing user is matched by email whatever its case, and not created again; an unsafe RelayState sends the browser home', async () => {
    const created = await app.post('/api/admin/user-admin', { email: 'grace@example.com', name: 'Grace', rootRole: 'Viewer' });
    expect(created.status).toBe(201);
    const events = (await app.events('user-created')).length;
    const res = await post({ email: 'GRACE@example.COM' }, { RelayState: 'https://evil.example/' });
    expect(res.status).toBe(302);
    expect(res.location).toBe(`${SP}/`);
    const me = await app.get('/api/admin/user', { token: null, headers: { cookie: res.cookie! } });
    expect(me.body.user).toMatchObject({ id: created.body.id, rootRole: 3 });
    expect(await app.events('user-created')).toHaveLength(events);
  });

  it('the email may come from the NameID alone (IdP-initiated, without InResponseTo)', async () => {
    const res = await post({ email: 'nameid-only@corp.example.org', noEmailAttribute: true });
    expect(res.status).toBe(302);
    expect((await usersByEmail('nameid-only@corp.example.org'))).toHaveLength(1);
  });

  const refusedAs = async (res: Raw, status: number, name: string, message: RegExp) => {
    expect({ status: res.status, name: res.body?.name, cookie: res.cookie }).toEqual({ status, name, cookie: null });
    expect(res.body.message).toMatch(message);
  };

  it('refused (401): signed with another key', async () => {
    await refusedAs(await post({ email: 'forged@example.com' }, {}, forger), 401, 'AuthenticationRequired', /signature/);
    expect(await usersByEmail('forged@example.com')).toEqual([]);
  });

  it('refused (401): not signed at all', async () => {
    await refusedAs(await post({ email: 'unsigned@example.com', unsigned: true }), 401, 'AuthenticationRequired', /signature/);
  });

  it('refused (401): meant for another audience', async () => {
    await refusedAs(await post({ email: 'other-sp@example.com', audience: 'https://other-sp.example.test/metadata' }), 401, 'AuthenticationRequired', /audience/);
    expect(await usersByEmail('other-sp@example.com')).toEqual([]);
  });

  const sessionCount = async () => Number((await app.orm.em.fork().execute<Array<{ n: number }>>('select count(*)::int as n from user_sessions'))[0].n);
  const OTHER_ACS = 'https://other-sp.example.test/saml/acs';

  it('refused (401): a signed assertion whose Recipient is another service provider\'s ACS (or ours spelt differently); nobody is created, no session', async () => {
    const sessions = await sessionCount();
    const near = [OTHER_ACS, `${ACS}/`, ACS.replace('localhost', 'LOCALHOST'), `${SP}/auth/saml/callback?x=1`];
    for (const recipient of near) {
      await refusedAs(await post({ email: 'recipient@example.com', recipient, destination: ACS }), 401, 'AuthenticationRequired', /Recipient/);
    }
    expect(await usersByEmail('recipient@example.com')).toEqual([]);
    expect(await sessionCount()).toBe(sessions);
  });

  it('refused (401): a Response whose Destination is another service provider\'s ACS (or ours spelt differently); nobody is created, no session', async () => {
    const sessions = await sessionCount();
    for (const destination of [OTHER_ACS, `${ACS}/`, '']) {
      await refusedAs(await post({ email: 'destination@example.com', recipient: ACS, destination }), 401, 'AuthenticationRequired', /Destination/);
    }
    expect(await usersByEmail('destination@example.com')).toEqual([]);
    expect(await sessionCount()).toBe(sessions);
  });

  it('a Recipient and a Destination that are this service\'s ACS sign in; so does a response that leaves either or both out', async () => {
    const cases: Array<[string, Partial<ResponseOptions>]> = [
      ['both@example.com', { recipient: ACS, destination: ACS }],
      ['no-recipient@example.com', { recipient: null, destination: ACS }],
      ['no-destination@example.com', { recipient: ACS, destination: null }],
      ['neither@example.com', { recipient: null, destination: null }],
    ];
    for (const [email, o] of cases) {
      const res = await post({ email, ...o });
      expect({ email, status: res.status }).toEqual({ email, status: 302 });
      expect((await app.get('/api/admin/user', { token: null, headers: { cookie: res.cookie! } })).body.user.email).toBe(email);
    }
  });

  it('refused (401): a Response whose own Issuer is another identity provider (the signed assertion\'s is right); leaving it out is fine', async () => {
    await refusedAs(await post({ email: 'response-issuer@example.com', responseIssuer: 'https://someone-else.example.test' }), 401, 'AuthenticationRequired', /Issuer of the response/);
    expect(await usersByEmail('response-issuer@example.com')).toEqual([]);
    expect((await post({ email: 'response-issuer@example.com', responseIssuer: null })).status).toBe(302);
  });

  it('refused (401): a signed assertion answering a sign-in request (its InResponseTo) that the Response does not name, or names differently', async () => {
    // Without the Response's InResponseTo, node-saml checks none: the assertion's would name any request, unchecked.
    await refusedAs(await post({ email: 'subject-irt@example.com', subjectInResponseTo: '_never-issued' }), 401, 'AuthenticationRequired', /InResponseTo/);
    const login = readRedirect((await raw('GET', '/auth/saml/login')).location!, spCertificate);
    await refusedAs(await post({ email: 'subject-irt@example.com', subjectInResponseTo: login.id }), 401, 'AuthenticationRequired', /InResponseTo/);
    expect(await usersByEmail('subject-irt@example.com')).toEqual([]);
    const other = readRedirect((await raw('GET', '/auth/saml/login')).location!, spCertificate);
    await refusedAs(await post({ email: 'subject-irt@example.com', inResponseTo: other.id, subjectInResponseTo: login.id }), 401, 'AuthenticationRequired', /request/);
    expect(await usersByEmail('subject-irt@example.com')).toEqual([]);
    // Named in both places, alike: signed in.
    const third = readRedirect((await raw('GET', '/auth/saml/login')).location!, spCertificate);
    expect((await post({ email: 'subject-irt@example.com', inResponseTo: third.id })).status).toBe(302);
  });

  it('refused (401): expired, and not yet valid', async () => {
    await refusedAs(await post({ email: 'late@example.com', issuedAtOffsetMs: -20 * 60_000, notBeforeOffsetMs: -20 * 60_000, notOnOrAfterOffsetMs: -10 * 60_000 }), 401, 'AuthenticationRequired', /expired/);
    await refusedAs(await post({ email: 'early@example.com', notBeforeOffsetMs: 10 * 60_000, notOnOrAfterOffsetMs: 20 * 60_000 }), 401, 'AuthenticationRequired', /not valid yet/);
    expect(await usersByEmail('late@example.com')).toEqual([]);
  });

  it('refused (401): older than an hour even when the IdP said it lives longer', async () => {
    await refusedAs(await post({ email: 'old@example.com', issuedAtOffsetMs: -2 * 60 * 60_000, notOnOrAfterOffsetMs: 60 * 60_000 }), 401, 'AuthenticationRequired', /expired/);
  });

  it('refused (401): issued by another IdP than the settings\' entityId (even when signed with the right key)', async () => {
    await refusedAs(await post({ email: 'issuer@example.com', issuer: 'https://someone-else.example.test' }), 401, 'AuthenticationRequired', /another identity provider/);
  });

  it('refused (401): answering a request we never made, or one already answered', async () => {
    await refusedAs(await post({ email: 'irt@example.com', inResponseTo: '_never-issued' }), 401, 'AuthenticationRequired', /request/);
    const login = readRedirect((await raw('GET', '/auth/saml/login')).location!, spCertificate);
    expect((await post({ email: 'irt@example.com', inResponseTo: login.id })).status).toBe(302);
    await refusedAs(await post({ email: 'irt@example.com', inResponseTo: login.id }), 401, 'AuthenticationRequired', /request/);
  });

  it('refused (401): the same response replayed, also concurrently', async () => {
    const { SAMLResponse } = samlResponse(idp, { email: 'replay@example.com', audience: AUDIENCE, recipient: ACS });
    secrets.push(SAMLResponse);
    const first = await raw('POST', '/auth/saml/callback', { form: { SAMLResponse } });
    expect(first.status).toBe(302);
    await refusedAs(await raw('POST', '/auth/saml/callback', { form: { SAMLResponse } }), 401, 'AuthenticationRequired', /already used/);
    const again = samlResponse(idp, { email: 'replay2@example.com', audience: AUDIENCE, recipient: ACS }).SAMLResponse;
    secrets.push(again);
    const answers = await Promise.all(Array.from({ length: 4 }, () => raw('POST', '/auth/saml/callback', { form: { SAMLResponse: again } })));
    expect(answers.map((a) => a.status).sort()).toEqual([302, 401, 401, 401]);
    expect(await usersByEmail('replay2@example.com')).toHaveLength(1);
  });

  it('the first sign-in of a new user from several responses at once creates the user once and signs every one in', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => post({ email: 'rush@example.com' })));
    expect(answers.map((a) => a.status)).toEqual([302, 302, 302, 302]);
    expect(await usersByEmail('rush@example.com')).toHaveLength(1);
    const ids = await Promise.all(answers.map(async (a) => (await app.get('/api/admin/user', { token: null, headers: { cookie: a.cookie! } })).body.user.id));
    expect(new Set(ids).size).toBe(1);
  });

  it('refused (403 ForbiddenError): an unknown email outside emailDomains with autoCreate on; nobody is created', async () => {
    await refusedAs(await post({ email: 'mallory@elsewhere.example' }), 403, 'ForbiddenError', /email domains/);
    expect(await usersByEmail('mallory@elsewhere.example')).toEqual([]);
    // A subdomain is another domain.
    await refusedAs(await post({ email: 'sub@mail.example.com' }), 403, 'ForbiddenError', /email domains/);
  });

  it('refused (403 ForbiddenError): an unknown user with autoCreate off; a known one still signs in', async () => {
    await saveSettings(settings({ autoCreate: false, signOutUrl: idp.signOutUrl }));
    await refusedAs(await post({ email: 'newcomer@example.com' }), 403, 'ForbiddenError', /autoCreate is off/);
    expect(await usersByEmail('newcomer@example.com')).toEqual([]);
    expect((await post({ email: 'ada@example.com' })).status).toBe(302);
    await saveSettings(settings({ signOutUrl: idp.signOutUrl }));
  });

  it('refused (404 NotFoundError): sign-in while SAML is disabled; /auth/config says so', async () => {
    await saveSettings(settings({ enabled: false, signOutUrl: idp.signOutUrl }));
    await refusedAs(await post({ email: 'ada@example.com' }), 404, 'NotFoundError', /not enabled/);
    expect((await raw('GET', '/auth/saml/login')).status).toBe(404);
    expect((await raw('GET', '/auth/config')).body).toEqual({ password: true, saml: { enabled: false, loginUrl: null } });
    // The metadata stays available: the IdP is set up from it before sign-in is turned on.
    expect((await raw('GET', '/auth/saml/metadata')).status).toBe(200);
    await saveSettings(settings({ signOutUrl: idp.signOutUrl }));
  });

  it('the callback reads a form: JSON is a 415, a missing or non-base64 SAMLResponse a 400, bad text a 400 naming the field', async () => {
    const json = await raw('POST', '/auth/saml/callback', { body: JSON.stringify({ SAMLResponse: 'x' }), headers: { 'content-type': 'application/json' } });
    expect({ status: json.status, name: json.body.name }).toEqual({ status: 415, name: 'ContentTypeerror' });
    expect(json.body.message).toContain('application/x-www-form-urlencoded');
    const missing = await raw('POST', '/auth/saml/callback', { form: { RelayState: '/' } });
    expect({ status: missing.status, name: missing.body.name, path: missing.body.details[0].path }).toEqual({ status: 400, name: 'ValidationError', path: 'SAMLResponse' });
    const notBase64 = await raw('POST', '/auth/saml/callback', { form: { SAMLResponse: '<xml/>' } });
    expect({ status: notBase64.status, path: notBase64.body.details[0].path }).toEqual({ status: 400, path: 'SAMLResponse' });
    for (const value of ['a%00b', 'a%FFb', '%ED%A0%80', '%ZZ']) {
      const res = await raw('POST', '/auth/saml/callback', { body: `SAMLResponse=abcd&RelayState=${value}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect({ value, status: res.status, name: res.body.name, path: res.body.details?.[0]?.path }).toEqual({ value, status: 400, name: 'ValidationError', path: 'RelayState' });
    }
    const twice = await raw('POST', '/auth/saml/callback', { body: 'SAMLResponse=abcd&SAMLResponse=efgh', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect({ status: twice.status, path: twice.body.details?.[0]?.path }).toEqual({ status: 400, path: 'SAMLResponse' });
    const latin1 = await raw('POST', '/auth/saml/callback', { body: 'SAMLResponse=abcd', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=iso-8859-1' } });
    expect(latin1.status).toBe(415);
    const huge = await raw('POST', '/auth/saml/callback', { form: { SAMLResponse: 'A'.repeat(300_000) } });
    expect({ status: huge.status, name: huge.body.name }).toEqual({ status: 413, name: 'ContentTooLarge' });
    const garbage = await raw('POST', '/auth/saml/callback', { form: { SAMLResponse: Buffer.from('<not-saml/>').toString('base64') } });
    expect({ status: garbage.status, name: garbage.body.name }).toEqual({ status: 401, name: 'AuthenticationRequired' });
  });

  it('single logout: ends the session here and sends a signed LogoutRequest for the SAML NameID to signOutUrl; the IdP\'s signed answer lands home', async () => {
    const signedIn = await post({ email: 'ada@example.com', sessionIndex: '_session-ada' });
    expect(signedIn.status).toBe(302);
    const res = await raw('GET', '/auth/saml/logout', { cookie: signedIn.cookie! });
    expect(res.status).toBe(302);
    expect(res.location!.startsWith(`${idp.signOutUrl}?`)).toBe(true);
    const request = readRedirect(res.location!, spCertificate);
    expect(request.signatureValid).toBe(true);
    expect(request.xml).toContain('LogoutRequest');
    expect(request.xml).toContain('>ada@example.com<');
    expect(request.xml).toContain('_session-ada');
    expect((await app.get('/api/admin/user', { token: null, headers: { cookie: signedIn.cookie! } })).status).toBe(401);

    const destination = `${SP}/auth/saml/logout/callback`;
    const forged = await raw('GET', `/auth/saml/logout/callback?${logoutResponseQuery(idp, { inResponseTo: request.id, destination, signer: forger })}`);
    expect({ status: forged.status, name: forged.body.name }).toEqual({ status: 401, name: 'AuthenticationRequired' });
    const unsigned = await raw('GET', `/auth/saml/logout/callback?${logoutResponseQuery(idp, { inResponseTo: request.id, destination }).replace(/&Signature=[^&]*/, '')}`);
    expect(unsigned.status).toBe(401);
    const answer = await raw('GET', `/auth/saml/logout/callback?${logoutResponseQuery(idp, { inResponseTo: request.id, destination })}`);
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`${SP}/`);
  });

  it('refused (401): a signed LogoutResponse whose Destination is another service provider\'s; ours, or none, lands home', async () => {
    const logoutRequestId = async () => {
      const signedIn = await post({ email: 'ada@example.com' });
      return readRedirect((await raw('GET', '/auth/saml/logout', { cookie: signedIn.cookie! })).location!, spCertificate).id;
    };
    const id = await logoutRequestId();
    for (const destination of ['https://other-sp.example.test/saml/logout/callback', `${SP}/auth/saml/logout/callback/`]) {
      const res = await raw('GET', `/auth/saml/logout/callback?${logoutResponseQuery(idp, { inResponseTo: id, destination })}`);
      expect({ status: res.status, name: res.body.name, cookie: res.cookie }).toEqual({ status: 401, name: 'AuthenticationRequired', cookie: null });
      expect(res.body.message).toMatch(/Destination/);
    }
    const ours = await raw('GET', `/auth/saml/logout/callback?${logoutResponseQuery(idp, { inResponseTo: id, destination: `${SP}/auth/saml/logout/callback` })}`);
    expect({ status: ours.status, location: ours.location }).toEqual({ status: 302, location: `${SP}/` });
    const none = await raw('GET', `/auth/saml/logout/callback?${logoutResponseQuery(idp, { inResponseTo: await logoutRequestId(), destination: null })}`);
    expect({ status: none.status, location: none.location }).toEqual({ status: 302, location: `${SP}/` });
  });

  it('logout of a password session (or none) just ends it and goes home', async () => {
    expect((await app.post('/api/admin/user-admin', { username: 'pw-user', password: PASSWORD, rootRole: 'Viewer' })).status).toBe(201);
    const login = await app.post('/auth/simple/login', { username: 'pw-user', password: PASSWORD }, { token: null });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const res = await raw('GET', '/auth/saml/logout', { cookie });
    expect({ status: res.status, location: res.location }).toEqual({ status: 302, location: `${SP}/` });
    expect((await app.get('/api/admin/user', { token: null, headers: { cookie } })).status).toBe(401);
    expect((await raw('GET', '/auth/saml/logout')).status).toBe(302);
  });

  it('no SAML response, session id, private key or certificate appears in the log; no private key or certificate in any event', async () => {
    const [{ content }] = await app.orm.em.fork().execute<Array<{ content: { privateKey: string } }>>(`select content from settings where name = 'saml-sp-key'`);
    const spKeyBody = content.privateKey.split('\n')[1];
    const idpKeyBody = idp.privateKey.split('\n')[1];
    const log = logLines.join('');
    expect(logLines.length).toBeGreaterThan(0);
    expect(log).toContain('SAML sign-in');
    expect(log).toContain('SAML response refused');
    expect(secrets.length).toBeGreaterThan(10);
    for (const secret of secrets) expect(log).not.toContain(secret.slice(0, 40));
    expect(log).not.toContain('PRIVATE KEY');
    expect(log).not.toContain(spKeyBody);
    expect(log).not.toContain(idpKeyBody);
    expect(log).not.toContain('CERTIFICATE');
    const events = JSON.stringify(await app.events());
    expect(events).not.toContain('PRIVATE KEY');
    expect(events).not.toContain(spKeyBody);
    expect(events).not.toContain('CERTIFICATE');
    expect(events).not.toContain(idp.certificate.split('\n')[1]);
  });
});

describe('anonymous sign-in requests are bounded', () => {
  it(`one address may start ${SAML_LOGINS_PER_MINUTE} sign-ins a minute; then 429 TooManyRequestsError with Retry-After, and no request id is stored`, async () => {
    const stored = async () => Number((await app.orm.em.fork().execute(`select count(*)::int as n from saml_message_ids where kind = 'request'`))[0].n);
    const statuses: number[] = [];
    for (let i = 0; i <= SAML_LOGINS_PER_MINUTE; i++) statuses.push((await raw('GET', '/auth/saml/login')).status);
    expect(statuses.filter((s) => s !== 302 && s !== 429)).toEqual([]);
    expect(statuses[statuses.length - 1]).toBe(429);
    const before = await stored();
    const refused = await raw('GET', '/auth/saml/login');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ name: 'TooManyRequestsError' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await stored()).toBe(before);
  });
});

describe('a stored signing certificate OpenSSL cannot read (written by an earlier version)', () => {
  it('is issued again for the same key, once, however many requests find it at the same time', async () => {
    const em = app.orm.em.fork();
    const row = async () => (await em.execute<Array<{ content: { privateKey: string; certificate: string } }>>(`select content from settings where name = 'saml-sp-key'`))[0].content;
    const stored = await row();
    // A padded serial number made about one certificate in 200 unreadable; any unreadable text takes the same path.
    const unreadable = stored.certificate.replace(/MII[A-Za-z0-9+/]{8}/, 'MIIAAAAAAAAA');
    expect(() => new X509Certificate(unreadable)).toThrow();
    await em.execute(`update settings set content = ?::jsonb where name = 'saml-sp-key'`, [JSON.stringify({ ...stored, certificate: unreadable })]);

    const answers = await Promise.all([1, 2, 3, 4].map(() => app.get('/api/admin/auth/saml/settings')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const certificates = new Set(answers.map((a) => a.body.spCertificate));
    expect(certificates.size).toBe(1);
    const [certificate] = certificates;
    const cert = new X509Certificate(certificate);
    expect(cert.subject).toBe('CN=flagdeck SAML service provider');
    expect(cert.checkPrivateKey(createPrivateKey(stored.privateKey))).toBe(true);
    expect(await row()).toEqual({ privateKey: stored.privateKey, certificate });

    const metadata = await raw('GET', '/auth/saml/metadata');
    expect(String(metadata.body).replace(/\s+/g, '')).toContain(certificate.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, ''));
  });
});
