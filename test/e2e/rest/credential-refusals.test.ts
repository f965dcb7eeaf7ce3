import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { credentialRefusal, type CredentialDoor, type CredentialProblem } from '../../../src/domain/access/credential-refusal';
import { SESSION_COOKIE } from '../../../src/domain/access/authenticator';
import { startTestApp, type Reply, type TestApp } from '../../support/harness';

/**
 * Issue 31: every door answers a refused credential with its own case's message (none, malformed, unknown, an ended
 * session), still 401 AuthenticationRequired with the body it had, and never quotes the credential.
 */
let app: TestApp;
let deletedToken: string;
let clientToken: string;
beforeAll(async () => {
  app = await startTestApp();
  const created = await app.post('/api/admin/api-tokens', { tokenName: 'gone', type: 'admin' });
  deletedToken = created.body.secret;
  expect((await app.del(`/api/admin/api-tokens/${encodeURIComponent(deletedToken)}`)).status).toBe(200);
  clientToken = (await app.post('/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: 'development', projects: ['default'] })).body.secret;
});
afterAll(async () => { await app.close(); });

interface Case {
  label: string;
  problem: CredentialProblem;
  /** The Authorization header (null: none) and other headers; `secret` is what must never come back. */
  token: string | null;
  headers?: Record<string, string>;
  secret?: string;
}

const cases = (): Case[] => [
  { label: 'no credentials', problem: 'missing', token: null },
  { label: 'a bare Bearer', problem: 'malformed', token: 'Bearer' },
  { label: 'Basic credentials', problem: 'malformed', token: 'Basic ZmxhZ2RlY2s6c2VjcmV0LXBhc3N3b3Jk', secret: 'ZmxhZ2RlY2s6c2VjcmV0LXBhc3N3b3Jk' },
  { label: 'a secret alone', problem: 'malformed', token: 'f00dfacecafe4242f00dfacecafe4242', secret: 'f00dfacecafe4242' },
  { label: 'an unknown API token', problem: 'unknown-api-token', token: '*:*.beefbeefbeefbeef4242', secret: 'beefbeefbeefbeef4242' },
  { label: 'a deleted API token', problem: 'unknown-api-token', token: deletedToken, secret: deletedToken.split('.')[1] },
  { label: 'an unknown personal access token', problem: 'unknown-personal-token', token: 'Bearer user:abcabcabcabc4242', secret: 'abcabcabcabc4242' },
];

function expectRefusal(res: Reply, c: Case, door: CredentialDoor): void {
  expect([c.label, res.status, res.body.name]).toEqual([c.label, 401, 'AuthenticationRequired']);
  expect(Object.keys(res.body).sort()).toEqual(['id', 'message', 'name']);
  expect(res.body.message).toBe(credentialRefusal(c.problem, door).message);
  if (c.secret) expect(JSON.stringify(res.body)).not.toContain(c.secret);
}

describe('the admin API', () => {
  it('answers each case with its own message', async () => {
    const messages = new Set<string>();
    for (const c of cases()) {
      const res = await app.get('/api/admin/projects', { token: c.token });
      expectRefusal(res, c, 'admin');
      messages.add(res.body.message);
    }
    expect(messages.size).toBe(4);
  });

  it('a session cookie that is no current session: the ended-session message', async () => {
    const res = await app.get('/api/admin/projects', { token: null, headers: { cookie: `${SESSION_COOKIE}=0123456789abcdef0123456789abcdef` } });
    expectRefusal(res, { label: 'ended session', problem: 'session-ended', token: null, secret: '0123456789abcdef0123456789abcdef' }, 'admin');
    expect(res.body.message).toMatch(/session has ended or expired/);
  });

  it('a client token stays a 403 NoAccessError (a known credential of the wrong type)', async () => {
    const res = await app.get('/api/admin/projects', { token: clientToken });
    expect([res.status, res.body.name]).toEqual([403, 'NoAccessError']);
  });
});

describe('the SDK doors', () => {
  it.each<[string, CredentialDoor, 'GET' | 'POST']>([
    ['/api/client/features', 'client', 'GET'],
    ['/api/client/metrics', 'client', 'POST'],
    ['/api/frontend', 'frontend', 'GET'],
  ])('%s answers each case with its door\'s message', async (path, door, method) => {
    for (const c of cases()) {
      const body = method === 'POST' ? { appName: 'refusals', instanceId: 'i', bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: {} } } : undefined;
      const res = await app.request(method, path, body, { token: c.token });
      expectRefusal(res, c, door);
    }
  });
});

describe('GraphQL', () => {
  it('answers each case with the admin API\'s message, in GraphQL\'s shape', async () => {
    for (const c of cases()) {
      const res = await app.post('/graphql', { query: '{ projects { id } }' }, { token: c.token });
      expect([c.label, res.status]).toEqual([c.label, 401]);
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].message).toBe(credentialRefusal(c.problem, 'admin').message);
      expect(res.body.errors[0].extensions).toMatchObject({ name: 'AuthenticationRequired', code: 401 });
      if (c.secret) expect(JSON.stringify(res.body)).not.toContain(c.secret);
    }
  });

  it('a subscription (server-sent events) with an unknown token is refused the same way', async () => {
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: '*:*.beefbeefbeefbeef4242' },
      body: JSON.stringify({ query: 'subscription { events { id } }' }),
    });
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body.errors[0]).toMatchObject({ message: credentialRefusal('unknown-api-token', 'admin').message, extensions: { name: 'AuthenticationRequired', code: 401 } });
  });
});
