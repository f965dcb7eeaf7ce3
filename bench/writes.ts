/**
 * The write path (issue 30): sequences of create flag → add a flexibleRollout with 2 constraints in production → enable
 * in production, over HTTP, by 1 and by 4 concurrent clients, on a fresh database seeded with the feature-model data set
 * (1000 features in another project, their events) plus project `default` linked to production.
 *
 * Prints per step p50/p99 ms, sequences per second, the app's CPU per sequence (process.cpuUsage: the app and, on the
 * embedded database, PGlite run in this process; the clients run in a child process so their CPU is not counted; in
 * brackets the part spent in the kernel, mostly socket writes to the database), on
 * PostgreSQL the CPU of the server processes serving the app's connections (from /proc, same machine only) and the SQL
 * statements each step runs (counted by a hook on the app's database driver, one client, deterministic).
 *
 * Usage: npm run bench:writes -- [--db pg|embedded|both|none] [--pg postgresql://postgres@127.0.0.1:5432/postgres]
 *          [--sequences 300] [--clients 1,4] [--log-sql]
 *          [--unleash http://127.0.0.1:4242 --unleash-token '*:*.secret' [--unleash-pid PID] [--unleash-db NAME]]
 *   --db          which database(s) flagdeck runs on (default both; none: Unleash only; the PostgreSQL URL also from
 *                 DATABASE_URL)
 *   --log-sql     prints the statements of one sequence, step by step
 *   --unleash     runs the same sequences against a running Unleash as well (its admin token with --unleash-token;
 *                 its CPU per sequence from /proc when --unleash-pid is given; its database's server processes' CPU
 *                 when --unleash-db names its database on the --pg server)
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { openOrm } from '../src/db/orm';
import { ensureAdminTokens } from '../src/domain/access/api-token.service';
import { benchDatabase, migrateAndSeed, percentile, serveAsServer } from './bench-app';
import { F, requestsOf, STEPS } from './writes-sequence';

const args = process.argv.slice(2);
const opt = (name: string, fallback?: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const pgBase = opt('--pg', process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres')!;
const dbArg = opt('--db', 'both');
const dbs = (dbArg === 'both' ? ['pg', 'embedded'] : dbArg === 'none' ? [] : [dbArg]) as Array<'pg' | 'embedded'>;
const sequences = Number(opt('--sequences', '300'));
const clientCounts = opt('--clients', '1,4')!.split(',').map(Number);
const logSql = args.includes('--log-sql');
const unleashBase = opt('--unleash');
const unleashToken = opt('--unleash-token');
const unleashPid = opt('--unleash-pid');
const TOKEN = '*:*.bench-writes-admin-token';
const WARMUP = 20;
/**
 * The clients, plain JavaScript in a child process (its CPU is not the server's): `clients` closed loops over keep-alive
 * connections share the sequence numbers; each runs its sequence's three requests in order and records each one's ms.
 */
const CLIENT = `
const http = require('node:http');
const { base, token, prefix, sequences, warmup, clients } = JSON.parse(process.argv[1]);
const url = new URL(base);
const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
const F = ${JSON.stringify(F)};
const requestsOf = ${requestsOf.toString()};
const send = (r) => new Promise((resolve, reject) => {
  const body = r.body === undefined ? '' : JSON.stringify(r.body);
  const headers = { authorization: token, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  const start = process.hrtime.bigint();
  const req = http.request({ host: url.hostname, port: url.port, path: r.path, method: 'POST', agent, headers }, (res) => {
    let text = '';
    res.on('data', (c) => { text += c; });
    res.on('end', () => r.expect.includes(res.statusCode) ? resolve(Number(process.hrtime.bigint() - start) / 1e6)
      : reject(new Error('POST ' + r.path + ': ' + res.statusCode + ' ' + text.slice(0, 300))));
    res.on('error', reject);
  });
  req.on('error', reject);
  req.end(body);
});
const run = async (from, count, times) => {
  let next = from;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < from + count) {
      const i = next++;
      const steps = [];
      for (const r of requestsOf(prefix + i)) steps.push(await send(r));
      if (times) times.push(steps);
    }
  }));
};
(async () => {
  await run(0, warmup);
  process.send({ phase: 'timed' });
  await new Promise((resolve) => process.once('message', resolve));
  const times = [];
  const started = process.hrtime.bigint();
  await run(warmup, sequences, times);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  process.send({ phase: 'done', times, elapsed });
})().catch((err) => { process.send({ phase: 'error', error: String(err && err.stack || err) }); });
`;

interface RunFigures { clients: number; steps: Array<{ p50: number; p99: number }>; perSecond: number; cpuMs?: number; dbCpuMs?: number; sysMs?: number }

/** Linux clock ticks of a process (user + system), for a server outside this process. */
const ticksOf = (pid: string) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return Number(f[11]) + Number(f[12]); };

/**
 * Runs `sequences` sequences by `clients` clients after WARMUP ones; `cpu` reads the server's CPU time in ms (measured
 * over the timed part only).
 */
async function run(base: string, token: string, prefix: string, clients: number, cpu?: () => number, count = sequences): Promise<RunFigures> {
  const child = spawn(process.execPath, ['-e', CLIENT, JSON.stringify({ base, token, prefix, sequences: count, warmup: WARMUP, clients })], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let cpuStart = 0;
  const result = await new Promise<{ times: number[][]; elapsed: number; cpuMs?: number }>((resolve, reject) => {
    child.on('message', (m: { phase: string; times: number[][]; elapsed: number; error?: string }) => {
      if (m.phase === 'timed') { cpuStart = cpu?.() ?? 0; child.send('go'); }
      else if (m.phase === 'done') resolve({ ...m, cpuMs: cpu ? cpu() - cpuStart : undefined });
      else reject(new Error(m.error));
    });
    child.on('exit', (code) => { if (code) reject(new Error(`client exited with ${code}`)); });
  });
  child.kill();
  const steps = STEPS.map((_, s) => {
    const t = result.times.map((seq) => seq[s]).sort((a, b) => a - b);
    return { p50: percentile(t, 50), p99: percentile(t, 99) };
  });
  return { clients, steps, perSecond: count / result.elapsed, cpuMs: result.cpuMs === undefined ? undefined : result.cpuMs / count };
}

const TABLE_HEADER = '| server | clients | create flag | add strategy | enable | sequences/s | CPU ms/seq | DB CPU ms/seq |\n|---|---|---|---|---|---|---|---|';

function print(label: string, f: RunFigures): void {
  const cells = f.steps.map((s) => `${s.p50.toFixed(2)} / ${s.p99.toFixed(2)}`).join(' | ');
  console.log(`| ${label} | ${f.clients} | ${cells} | ${f.perSecond.toFixed(1)} | ${f.cpuMs === undefined ? 'n/a' : f.cpuMs.toFixed(2)}${f.sysMs === undefined ? '' : ` (kernel ${f.sysMs.toFixed(2)})`} | ${f.dbCpuMs === undefined ? 'n/a' : f.dbCpuMs.toFixed(2)} |`);
}

/** PIDs of the PostgreSQL server processes serving `database` (on the --pg server), but flagdeck's LISTEN connection. */
async function backendsOf(database: string): Promise<string[]> {
  const c = new Client({ connectionString: pgBase });
  await c.connect();
  try {
    const { rows } = await c.query(`select pid from pg_stat_activity where datname = $1 and application_name <> 'flagdeck-events'`, [database]);
    return rows.map((r: { pid: number }) => String(r.pid));
  } finally {
    await c.end();
  }
}

/** Runs `work` and adds the CPU per sequence of the server processes of `database` (when given) to its figures. */
async function withDbCpu(database: string | undefined, work: () => Promise<RunFigures>): Promise<RunFigures> {
  if (!database) return work();
  const before = new Map((await backendsOf(database)).map((pid) => [pid, ticksOf(pid)]));
  const figures = await work();
  let ticks = 0;
  for (const pid of await backendsOf(database)) {
    try { ticks += ticksOf(pid) - (before.get(pid) ?? 0); } catch { /* ended meanwhile */ }
  }
  return { ...figures, dbCpuMs: (ticks * 10) / sequences };
}

/** flagdeck on a fresh database: statements per step first (one client, in this process), then the timed runs. */
async function flagdeck(kind: 'pg' | 'embedded'): Promise<void> {
  const db = await benchDatabase(kind === 'pg' ? pgBase : undefined, 'writes', true);
  let statements: string[] = [];
  try {
    await migrateAndSeed(db.url, async (seed) => {
      await seed.query(`insert into project_environments (project_id, environment_name) values ('default', 'production') on conflict do nothing`);
    });
    const orm = await openOrm({ url: db.url, poolMax: kind === 'pg' ? 10 : 1, holdConnection: kind === 'embedded', onQuery: (sql) => statements.push(sql) });
    await ensureAdminTokens(orm.em, [TOKEN]);
    const { base, close: stopServing } = await serveAsServer(orm, db.url, kind);
    try {
      // Statements per step: 10 sequences, one at a time, after 5 that warm the caches.
      const counts: number[][] = STEPS.map(() => []);
      for (let i = 0; i < 15; i++) {
        const requests = requestsOf(`sql-${i}`);
        for (let s = 0; s < requests.length; s++) {
          statements = [];
          const res = await fetch(base + requests[s].path, { method: 'POST', headers: { authorization: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify(requests[s].body ?? {}) });
          if (!requests[s].expect.includes(res.status)) throw new Error(`${requests[s].path}: ${res.status} ${await res.text()}`);
          await res.arrayBuffer();
          if (i >= 5) counts[s].push(statements.length);
          if (logSql && i === 14) console.log(`-- ${STEPS[s]}: ${statements.length} statements\n${statements.map((q) => `   ${q.replace(/\s+/g, ' ')}`).join('\n')}`);
        }
      }
      console.log(`\n## flagdeck, ${db.describe}; node ${process.version}; loadavg ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
      console.log(`SQL statements per step (median of 10 sequences, one client; BEGIN and COMMIT included): ${STEPS.map((s, k) => `${s} ${[...counts[k]].sort((a, b) => a - b)[5]}`).join(', ')}`);
      console.log(`${sequences} sequences per row after ${WARMUP} warm-up ones; ms p50 / p99 per step; CPU = the app's process CPU per sequence`);
      console.log(TABLE_HEADER);
      const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
      const sys = () => process.cpuUsage().system / 1000;
      // On PostgreSQL, the CPU of the database's server processes serving this app (its backends), read from /proc.
      const database = kind === 'pg' ? new URL(db.url).pathname.slice(1) : undefined;
      for (const clients of clientCounts) {
        const sys0 = sys();
        const figures = await withDbCpu(database, () => run(base, TOKEN, `w${clients}-`, clients, cpu));
        print(`flagdeck ${kind}`, { ...figures, sysMs: (sys() - sys0) / (sequences + WARMUP) });
      }
    } finally {
      await stopServing();
      await orm.close(true);
    }
  } finally {
    await db.close();
  }
}

async function unleash(): Promise<void> {
  if (!unleashBase || !unleashToken) return;
  const link = await fetch(`${unleashBase}/api/admin/projects/default/environments`, {
    method: 'POST', headers: { authorization: unleashToken, 'content-type': 'application/json' }, body: JSON.stringify({ environment: 'production' }),
  });
  if (link.status >= 300 && link.status !== 409) console.log(`# linking production to project default in Unleash: ${link.status} ${(await link.text()).slice(0, 200)}`);
  // The same 1000 other features flagdeck's database holds (here through the API, once per Unleash database).
  const existing = await fetch(`${unleashBase}${F}`, { headers: { authorization: unleashToken } }).then((r) => r.json()) as { features?: unknown[] };
  if ((existing.features?.length ?? 0) < 1000) await run(unleashBase, unleashToken, `seed-${Date.now().toString(36)}-`, 4, undefined, 1000);
  const version = await fetch(`${unleashBase}/api/admin/ui-config`, { headers: { authorization: unleashToken } }).then((r) => r.json()).then((c: any) => c.version).catch(() => '?');
  const tick = 1000 / 100; // USER_HZ on Linux
  const cpu = unleashPid ? () => ticksOf(unleashPid) * tick : undefined;
  console.log(`\n## ${`Unleash ${version}`} at ${unleashBase}; loadavg ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.log(TABLE_HEADER);
  const stamp = Date.now().toString(36);
  for (const clients of clientCounts) print('Unleash', await withDbCpu(opt('--unleash-db'), () => run(unleashBase, unleashToken, `u${stamp}-${clients}-`, clients, cpu)));
}

async function main(): Promise<void> {
  console.log(`# write path: create flag → add flexibleRollout (2 constraints) in production → enable in production; clients ${clientCounts.join(', ')}`);
  for (const kind of dbs) await flagdeck(kind);
  await unleash();
}

main().catch((err) => { console.error(err); process.exit(1); });
