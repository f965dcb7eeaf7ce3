/**
 * What access control costs per request (issue 9), through the real app over HTTP against PostgreSQL, on the
 * 1000-feature data set: the same write and read sent with an admin token, a personal access token of an Editor,
 * one of a project Member (grants from project roles), one whose Member role comes through a group, and a session
 * cookie; and a password login (scrypt, N = 2^15).
 * Usage: npm run bench:access [-- --pg postgresql://postgres@127.0.0.1:5432/postgres] [-- --requests 300]
 */
import { percentile, startBenchApp, TOKEN } from './bench-app';
import { PROJECT } from './feature-model-data';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const pgBase = opt('--pg', process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const requests = Number(opt('--requests', '300'));
const PASSWORD = 'Bench-Access-42';


async function call(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(base + path, {
    method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] };
}

async function row(label: string, n: number, send: (i: number) => Promise<number>, expected: number): Promise<void> {
  const times: number[] = [];
  for (let i = -20; i < n; i++) {
    const start = process.hrtime.bigint();
    const status = await send(i + 20);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (status !== expected) throw new Error(`${label}: status ${status}`);
    if (i >= 0) times.push(ms);
  }
  times.sort((a, b) => a - b);
  console.log(`| ${label.padEnd(72)} | ${percentile(times, 50).toFixed(2).padStart(7)} ms | ${percentile(times, 99).toFixed(2).padStart(7)} ms |`);
}

async function main() {
  const app = await startBenchApp(pgBase);
  const admin = { authorization: TOKEN };
  try {
    console.log(app.describe);
    const mustOk = async (method: string, path: string, body?: unknown, headers: Record<string, string> = admin) => {
      const res = await call(app.base, method, path, headers, body);
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`);
      return res;
    };
    const user = async (username: string, rootRole: string) => {
      const id = JSON.parse((await mustOk('POST', '/api/admin/user-admin', { username, password: PASSWORD, rootRole })).text).id as number;
      const { cookie } = await mustOk('POST', '/auth/simple/login', { username, password: PASSWORD }, {});
      const pat = JSON.parse((await mustOk('POST', '/api/admin/user/tokens', { description: 'bench', expiresAt: '2100-01-01T00:00:00Z' }, { cookie })).text).secret as string;
      return { id, cookie, pat };
    };
    const editor = await user('bench-editor', 'Editor');
    const member = await user('bench-member', 'Viewer');
    const grouped = await user('bench-grouped', 'Viewer');
    const group = JSON.parse((await mustOk('POST', '/api/admin/groups', { name: 'bench-team', users: [{ user: { id: grouped.id } }] })).text).id as number;
    await mustOk('POST', `/api/admin/projects/${PROJECT}/access`, { roles: [5], users: [member.id], groups: [group] });
    // An Editor's project permissions hold in `default`; in the bench project it is an Owner (as a project's creator is).
    await mustOk('POST', `/api/admin/projects/${PROJECT}/access`, { roles: [4], users: [editor.id] });
    const features = JSON.parse((await mustOk('GET', `/api/admin/projects/${PROJECT}/features`)).text).features as Array<{ name: string }>;
    const feature = features[0].name;

    console.log(`node ${process.version}; ${requests} sequential requests per row after 20 warm-up requests`);
    console.log('| request and credential                                                   | median     | p99        |');
    console.log('|--------------------------------------------------------------------------|------------|------------|');
    const credentials: Array<[string, Record<string, string>]> = [
      ['admin token', admin],
      ['PAT, Editor and project Owner', { authorization: editor.pat }],
      ['PAT, Member of the project (project role)', { authorization: member.pat }],
      ['PAT, Member through a group', { authorization: grouped.pat }],
      ['session cookie, Editor and project Owner', { cookie: editor.cookie }],
    ];
    for (const [label, headers] of credentials) {
      await row(`toggle a feature environment, ${label}`, requests, async (i) => (await call(app.base, 'POST',
        `/api/admin/projects/${PROJECT}/features/${feature}/environments/development/${i % 2 ? 'on' : 'off'}`, headers, {})).status, 200);
    }
    for (const [label, headers] of credentials) {
      await row(`GET /api/admin/user, ${label}`, requests, async () => (await call(app.base, 'GET', '/api/admin/user', headers)).status, 200);
    }
    await row('POST /auth/simple/login (scrypt N=2^15, r=8)', Math.max(20, Math.floor(requests / 10)), async () =>
      (await call(app.base, 'POST', '/auth/simple/login', {}, { username: 'bench-editor', password: PASSWORD })).status, 200);
  } finally {
    await app.close();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
