/**
 * What joining and signing in cost (issue 10), through the real app over HTTP against PostgreSQL, on the 1000-feature
 * data set: invite links (the admin list with the users who signed up, a public validation, a signup with its scrypt
 * hash), reset links (issue, public validation) and SAML (the settings, a sign-in redirect with its signed
 * AuthnRequest, and the assertion consumer service verifying a signed response and opening a session).
 * Usage: npm run bench:joining [-- --pg postgresql://postgres@127.0.0.1:5432/postgres] [-- --requests 200]
 */
import { createIdp, samlResponse } from '../test/support/saml-idp';
import { SAML_LOGINS_PER_MINUTE } from '../src/rest/saml.routes';
import { percentile, startBenchApp, TOKEN } from './bench-app';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const pgBase = opt('--pg', process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const requests = Number(opt('--requests', '200'));
const PASSWORD = 'Bench-Joining-42';
const WARM_UP = 20;
const SP = 'http://localhost:4242';


async function call(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown, form?: Record<string, string>) {
  const type: Record<string, string> = form ? { 'content-type': 'application/x-www-form-urlencoded' } : body === undefined ? {} : { 'content-type': 'application/json' };
  const res = await fetch(base + path, {
    method, redirect: 'manual', headers: { ...headers, ...type }, body: form ? new URLSearchParams(form).toString() : body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

async function row(label: string, n: number, send: (i: number) => Promise<number>, expected: number): Promise<void> {
  const times: number[] = [];
  for (let i = -WARM_UP; i < n; i++) {
    const start = process.hrtime.bigint();
    const status = await send(i + WARM_UP);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (status !== expected) throw new Error(`${label}: status ${status}`);
    if (i >= 0) times.push(ms);
  }
  times.sort((a, b) => a - b);
  console.log(`| ${label.padEnd(78)} | ${String(n).padStart(5)} | ${percentile(times, 50).toFixed(2).padStart(7)} ms | ${percentile(times, 99).toFixed(2).padStart(7)} ms |`);
}

async function main() {
  const app = await startBenchApp(pgBase);
  const admin = { authorization: TOKEN };
  const mustOk = async (method: string, path: string, body?: unknown) => {
    const res = await call(app.base, method, path, admin, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`);
    return JSON.parse(res.text);
  };
  try {
    console.log(app.describe);
    const tokens: string[] = [];
    for (let i = 0; i < 20; i++) tokens.push((await mustOk('POST', '/api/admin/invite-link/tokens', { name: `bench-link-${i}`, expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString() })).secret);
    const idp = await createIdp('https://idp.bench.example/saml');
    await mustOk('POST', '/api/admin/auth/saml/settings', {
      enabled: true, entityId: idp.entityId, signOnUrl: idp.signOnUrl, certificate: idp.certificate, autoCreate: true, emailDomains: 'bench.example', defaultRootRole: 'Editor',
    });
    // Signed before the clock starts: the identity provider's work is not ours.
    const responses = Array.from({ length: requests + WARM_UP }, (_, i) => samlResponse(idp, { email: `sso-${i % 50}@bench.example`, audience: `${SP}/auth/saml/metadata`, recipient: `${SP}/auth/saml/callback` }).SAMLResponse);

    console.log(`node ${process.version}; sequential requests per row after ${WARM_UP} warm-up requests`);
    console.log(`| ${'request'.padEnd(78)} |     n | median     | p99        |`);
    console.log(`|${'-'.repeat(80)}|-------|------------|------------|`);
    const signups = Math.max(20, Math.floor(requests / 2));
    await row('POST /invite/:secret/signup (a new user; scrypt N=2^15, r=8)', signups, async (i) => (await call(app.base, 'POST', `/invite/${tokens[i % tokens.length]}/signup`, {},
      { name: `Joiner ${i}`, email: `joiner-${i}@bench.example`, password: PASSWORD })).status, 201);
    await row(`GET /api/admin/invite-link/tokens (${tokens.length} links, ${signups + WARM_UP} users signed up)`, requests, async () => (await call(app.base, 'GET', '/api/admin/invite-link/tokens', admin)).status, 200);
    await row('GET /api/admin/invite-link/tokens/:secret', requests, async (i) => (await call(app.base, 'GET', `/api/admin/invite-link/tokens/${tokens[i % tokens.length]}`, admin)).status, 200);
    await row('GET /invite/:secret/validate (no credentials)', requests, async (i) => (await call(app.base, 'GET', `/invite/${tokens[i % tokens.length]}/validate`, {})).status, 200);
    const links: string[] = [];
    await row('POST /api/admin/user-admin/reset-password', requests, async (i) => {
      const res = await call(app.base, 'POST', '/api/admin/user-admin/reset-password', admin, { id: `joiner-${i % signups}@bench.example` });
      if (res.status === 200) links.push(new URL(JSON.parse(res.text).resetPasswordUrl).searchParams.get('token')!);
      return res.status;
    }, 200);
    // The last link of each user is the valid one.
    const valid = [...new Map(links.map((t, i) => [i % signups, t])).values()];
    await row('GET /auth/reset/validate?token= (no credentials)', requests, async (i) => (await call(app.base, 'GET', `/auth/reset/validate?token=${encodeURIComponent(valid[i % valid.length])}`, {})).status, 200);
    await row('GET /api/admin/auth/saml/settings', requests, async () => (await call(app.base, 'GET', '/api/admin/auth/saml/settings', admin)).status, 200);
    await row('GET /auth/saml/login (signed AuthnRequest, request id stored)', SAML_LOGINS_PER_MINUTE - WARM_UP, async () => (await call(app.base, 'GET', '/auth/saml/login', {})).status, 302);
    await row('POST /auth/saml/callback (verify signed assertion, replay record, session; 50 users)', requests, async (i) =>
      (await call(app.base, 'POST', '/auth/saml/callback', {}, undefined, { SAMLResponse: responses[i] })).status, 302);
  } finally {
    await app.close();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
