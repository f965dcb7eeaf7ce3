import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pino from 'pino';
import type { TrustProxy } from '../../../src/config';
import { LOGIN_FAILURES_PER_ADDRESS } from '../../../src/rest/auth.routes';
import { startTestApp, type Reply, type TestApp } from '../../support/harness';

/**
 * TRUST_PROXY (src/config.ts, applied in buildApp): behind a TLS proxy, X-Forwarded-Proto decides whether the session
 * cookie is Secure and X-Forwarded-For the client address (the per-address login limit, the request log, the SDKs'
 * client address, the frontend API's remoteAddress); without it both headers are ignored, so a client cannot claim
 * another address or HTTPS. The test client always calls from 127.0.0.1, over plain HTTP.
 */
const PASSWORD = 'Proxied-Person-42';
const FLAG = 'only-for-198-51-100-7';

interface Running {
  app: TestApp;
  lines: Array<Record<string, any>>;
  frontendToken: string;
  clientToken: string;
}

async function start(trustProxy?: TrustProxy): Promise<Running> {
  const lines: Array<Record<string, any>> = [];
  const logger = pino({ level: 'info', base: undefined }, { write: (line: string) => { lines.push(JSON.parse(line)); } });
  const app = await startTestApp({ logger, trustProxy, metricsFlushMs: 50 });
  const ok = async (reply: Promise<Reply>, status: number) => {
    const res = await reply;
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  await ok(app.post('/api/admin/user-admin', { username: 'proxied', password: PASSWORD, rootRole: 'Viewer' }), 201);
  const feature = '/api/admin/projects/default/features';
  await ok(app.post(feature, { name: FLAG }), 201);
  await ok(app.post(`${feature}/${FLAG}/environments/development/strategies`, { name: 'remoteAddress', parameters: { IPs: '198.51.100.7' } }), 200);
  await ok(app.post(`${feature}/${FLAG}/environments/development/on`), 200);
  const token = async (type: string) => (await ok(app.post('/api/admin/api-tokens', { tokenName: `proxy-${type}`, type, environment: 'development', projects: ['default'] }), 201)).secret as string;
  return { app, lines, frontendToken: await token('frontend'), clientToken: await token('client') };
}

const login = (app: TestApp, username: string, password: string, headers: Record<string, string> = {}) =>
  app.post('/auth/simple/login', { username, password }, { token: null, headers });
const setCookie = (res: Reply) => res.headers.get('set-cookie') ?? '';

/** LOGIN_FAILURES_PER_ADDRESS failed logins, each for another account (the per-account limit stays out of it). */
async function failLogins(app: TestApp, forwardedFor: (i: number) => string): Promise<void> {
  const statuses = await Promise.all(Array.from({ length: LOGIN_FAILURES_PER_ADDRESS }, (_, i) =>
    login(app, `nobody-${i}`, 'Wrong-Password-42', { 'x-forwarded-for': forwardedFor(i) }).then((r) => r.status)));
  expect(statuses.every((s) => s === 401)).toBe(true);
}

/** The request log line of a reply (by its request id). */
async function lineOf(r: Running, res: Reply): Promise<Record<string, any>> {
  const id = res.headers.get('x-request-id');
  for (let waited = 0; waited < 3000; waited += 10) {
    const found = r.lines.find((l) => l.reqId === id && l.msg?.startsWith('request '));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no log line for request ${id}`);
}

/** The client address an SDK instance was last seen from (written by the metrics flush). */
async function instanceAddress(app: TestApp, appName: string): Promise<string | undefined> {
  for (let waited = 0; waited < 5000; waited += 20) {
    const res = await app.get(`/api/admin/metrics/applications/${appName}`);
    const ip = res.status === 200 ? res.body.instances?.[0]?.clientIp : undefined;
    if (ip) return ip;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

const report = (appName: string) => ({ appName, instanceId: `${appName}-1`, bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: { [FLAG]: { yes: 1, no: 0 } } } });
const registration = (appName: string) => ({ appName, instanceId: `${appName}-1`, sdkVersion: 'unleash-client-node:6.12.1', strategies: ['default'], started: new Date().toISOString(), interval: 10_000 });

describe('without TRUST_PROXY (the default): X-Forwarded-For and X-Forwarded-Proto are ignored', () => {
  let r: Running;
  beforeAll(async () => { r = await start(); });
  afterAll(async () => { await r.app.close(); });

  it('X-Forwarded-Proto: https does not make the session cookie Secure over plain HTTP', async () => {
    const res = await login(r.app, 'proxied', PASSWORD, { 'x-forwarded-proto': 'https' });
    expect(res.status).toBe(200);
    expect(setCookie(res)).toMatch(/^unleash-session=/);
    expect(setCookie(res)).not.toMatch(/;\s*Secure/i);
  });

  it(`a spoofed X-Forwarded-For does not change the per-address login limit: ${LOGIN_FAILURES_PER_ADDRESS} failures, each claiming another address, block the next login from a new claimed address`, async () => {
    await failLogins(r.app, (i) => `203.0.113.${i + 1}`);
    const blocked = await login(r.app, 'proxied', PASSWORD, { 'x-forwarded-for': '198.51.100.200' });
    expect([blocked.status, blocked.body.name]).toEqual([429, 'TooManyRequestsError']);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 120_000);

  it('the request log, the SDK client address and the frontend API\'s remoteAddress are the peer\'s (127.0.0.1)', async () => {
    const forwarded = { 'x-forwarded-for': '198.51.100.7' };
    const health = await r.app.get('/health', { token: null, headers: forwarded });
    expect((await lineOf(r, health)).remoteAddress).toBe('127.0.0.1');
    expect((await r.app.post('/api/client/register', registration('direct-reg'), { token: r.clientToken, headers: forwarded })).status).toBe(202);
    expect(await instanceAddress(r.app, 'direct-reg')).toBe('127.0.0.1');
    // The metrics report is answered before Express (src/rest/sdk/fast-paths.ts).
    expect((await r.app.post('/api/client/metrics', report('direct-metrics'), { token: r.clientToken, headers: forwarded })).status).toBe(202);
    expect(await instanceAddress(r.app, 'direct-metrics')).toBe('127.0.0.1');
    const toggles = await r.app.get('/api/frontend', { token: r.frontendToken, headers: forwarded });
    expect(toggles.body.toggles.map((t: { name: string }) => t.name)).not.toContain(FLAG);
  });
});

describe('with TRUST_PROXY=loopback (a TLS proxy on the same host)', () => {
  let r: Running;
  beforeAll(async () => { r = await start(['loopback']); });
  afterAll(async () => { await r.app.close(); });

  it('the session cookie is Secure when the proxy says X-Forwarded-Proto: https, and only then', async () => {
    const https = await login(r.app, 'proxied', PASSWORD, { 'x-forwarded-proto': 'https' });
    expect(https.status).toBe(200);
    expect(setCookie(https)).toMatch(/;\s*Secure/i);
    const cookie = setCookie(https).split(';')[0];
    const logout = await r.app.post('/auth/logout', undefined, { token: null, headers: { cookie, 'x-forwarded-proto': 'https' } });
    expect(logout.status).toBe(200);
    expect(setCookie(logout)).toMatch(/;\s*Secure/i);
    const http = await login(r.app, 'proxied', PASSWORD, { 'x-forwarded-proto': 'http' });
    expect(setCookie(http)).not.toMatch(/;\s*Secure/i);
    expect(setCookie(await login(r.app, 'proxied', PASSWORD))).not.toMatch(/;\s*Secure/i);
  });

  it(`the per-address login limit keys by the forwarded address: ${LOGIN_FAILURES_PER_ADDRESS} failures from one address block it, not another`, async () => {
    await failLogins(r.app, () => '203.0.113.10');
    const blocked = await login(r.app, 'proxied', PASSWORD, { 'x-forwarded-for': '203.0.113.10' });
    expect([blocked.status, blocked.body.name]).toEqual([429, 'TooManyRequestsError']);
    // Through a second proxy hop: the right-most address the trusted proxy adds is the client.
    expect((await login(r.app, 'proxied', PASSWORD, { 'x-forwarded-for': '198.51.100.1, 203.0.113.10' })).status).toBe(429);
    const other = await login(r.app, 'proxied', PASSWORD, { 'x-forwarded-for': '203.0.113.11' });
    expect(other.status).toBe(200);
  }, 120_000);

  it('the request log, the SDK client address and the frontend API\'s remoteAddress are the forwarded address', async () => {
    const forwarded = { 'x-forwarded-for': '198.51.100.7' };
    const health = await r.app.get('/health', { token: null, headers: forwarded });
    expect((await lineOf(r, health)).remoteAddress).toBe('198.51.100.7');
    const direct = await r.app.get('/health', { token: null });
    expect((await lineOf(r, direct)).remoteAddress).toBe('127.0.0.1');
    expect((await r.app.post('/api/client/register', registration('proxied-reg'), { token: r.clientToken, headers: forwarded })).status).toBe(202);
    expect(await instanceAddress(r.app, 'proxied-reg')).toBe('198.51.100.7');
    expect((await r.app.post('/api/client/metrics', report('proxied-metrics'), { token: r.clientToken, headers: forwarded })).status).toBe(202);
    expect(await instanceAddress(r.app, 'proxied-metrics')).toBe('198.51.100.7');
    const toggles = await r.app.get('/api/frontend', { token: r.frontendToken, headers: forwarded });
    expect(toggles.body.toggles.map((t: { name: string }) => t.name)).toContain(FLAG);
  });
});
