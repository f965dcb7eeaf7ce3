/**
 * OFREP (issue 45) against the frontend API on the 1000-feature data set (bench/feature-model-data.ts), for one and the
 * same context, through the real app over HTTP on either database:
 *   1. `POST /ofrep/v1/evaluate/flags/{key}`: one flag;
 *   2. `POST /ofrep/v1/evaluate/flags`: the 1000 flags (every flag, enabled or not, with value, variant and reason);
 *   3. the same with `If-None-Match` naming its ETag: the 304 a polling provider gets while nothing changes;
 *   4. `POST /api/frontend`: the enabled flags. The frontend API has no single-flag path: this one request is what a
 *      frontend SDK makes for one flag as for all of them, so it is the comparison for both 1 and 2.
 * Each row runs at 1 connection (latency without queueing) and at `--concurrency` connections (throughput), for
 * `--seconds` after a second of warm-up. Per row: requests per second, p50 and p99, the app's CPU per request, on
 * PostgreSQL the database server's CPU per request, SQL statements per request, and the answer's size.
 *
 * How it is measured: the app runs in this process as src/server.ts runs it (on PostgreSQL, commits announced by
 * NOTIFY with a listener connection; the embedded database in a throwaway data folder, as `npm start`); the load comes
 * from a child process (this file with `--driver`, kept-alive node:http connections), so process.cpuUsage() here is
 * the app's alone: Express, the evaluations, the driver of the database and, on the embedded database, PGlite. On
 * PostgreSQL the server's backends for the bench database are read from /proc (10 ms ticks; a backend that ended
 * during a row is lost). A single OFREP evaluation is counted as an SDK's metrics report of one evaluation: buffered,
 * written every 5 s (CLIENT_METRICS_FLUSH_MS) in one statement per flag and application; that cost is in its figures
 * (with the default 10 s per row, about two flushes fall in a row). The bulk answer and /api/frontend count nothing.
 *
 *   npm run bench:ofrep                                  # embedded database
 *   npm run bench:ofrep -- --db pg                       # PostgreSQL at DATABASE_URL or postgresql://postgres@127.0.0.1:5432/postgres
 *   options: --seconds N (per row, default 10), --concurrency N (the loaded rows' connections, default 8), --pg URL,
 *            --sql (after each row, the statements the app ran during it)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { ensureAdminTokens } from '../src/domain/access/api-token.service';
import { openOrm } from '../src/db/orm';
import { fullGc } from '../src/idle-gc';
import { benchDatabase, createApiToken, migrateAndSeed, percentile, send, serveAsServer, TOKEN } from './bench-app';
import { FEATURES, PROJECT } from './feature-model-data';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const kind = opt('--db', 'embedded');
const pgBase = opt('--pg', process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const seconds = Number(opt('--seconds', '10'));
const concurrency = Number(opt('--concurrency', '8'));
/** --sql: after each row, the statements the app ran during it (the start of each, and how often). */
const showSql = args.includes('--sql');
const WARMUP_MS = 1000;
/** Seconds of load per request before the first row (after WARMUP_MS of its own). */
const WARM_PASS_S = 2;

/** One request as the driver sends it, the same every time: the same context, so the same answer. */
interface Shot { path: string; body: unknown; headers?: Record<string, string>; status: number }
interface Job { base: string; token: string; label: string; connections: number; seconds: number; shot: Shot }
type DriverMessage = { phase: 'measuring' } | { phase: 'done'; times: number[]; bytes: number; elapsed: number } | { phase: 'failed'; error: string };

// ---------------------------------------------------------------------------------------------------------------
// The driver (child process): `connections` loops, each one request after the other over a kept-alive connection.

async function drive(job: Job): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.connections });
  const url = new URL(job.base + job.shot.path);
  const headers = { authorization: job.token, 'content-type': 'application/json', ...job.shot.headers };
  const body = JSON.stringify(job.shot.body);
  const times: number[] = [];
  let bytes = 0;
  const loop = async (until: number, record: boolean) => {
    while (Date.now() < until) {
      const start = process.hrtime.bigint();
      const res = await send(agent, url, 'POST', headers, body);
      if (res.status !== job.shot.status) throw new Error(`${job.label}: status ${res.status}, expected ${job.shot.status}: ${res.text}`);
      if (record) { times.push(Number(process.hrtime.bigint() - start) / 1e6); bytes = res.bytes; }
    }
  };
  await Promise.all(Array.from({ length: job.connections }, () => loop(Date.now() + WARMUP_MS, false)));
  process.send!({ phase: 'measuring' } satisfies DriverMessage);
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: job.connections }, () => loop(Date.now() + job.seconds * 1000, true)));
  const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
  agent.destroy();
  process.send!({ phase: 'done', times, bytes, elapsed } satisfies DriverMessage);
}

function driverMain(): void {
  process.on('message', (job: Job | 'exit') => {
    if (job === 'exit') process.exit(0);
    drive(job).catch((err) => process.send!({ phase: 'failed', error: String((err as Error).stack ?? err) } satisfies DriverMessage));
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The app's side (this process).

/** CPU seconds of the PostgreSQL backends serving `dbName`, by pid, from /proc (the server runs on this machine). */
async function backendTicks(admin: Client, dbName: string): Promise<Map<number, number> | undefined> {
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [dbName]);
  const ticks = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th of them.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // ended meanwhile, or not on this machine
    }
  }
  if (rows.length > 0 && ticks.size === 0) return undefined; // the server is elsewhere, or its processes not readable
  return ticks;
}

interface Probe { cpu: NodeJS.CpuUsage; queries: number; pg?: Map<number, number> }

async function main(): Promise<void> {
  if (kind !== 'pg' && kind !== 'embedded') throw new Error('--db pg|embedded');
  const started = Date.now();
  const db = await benchDatabase(kind === 'pg' ? pgBase : undefined, 'ofrep', true);
  let queries = 0;
  const statements = new Map<string, number>();
  let admin: Client | undefined;
  let driver: ChildProcess | undefined;
  try {
    await migrateAndSeed(db.url);
    const orm = await openOrm({ url: db.url, poolMax: kind === 'pg' ? 10 : 1, holdConnection: kind === 'embedded', onQuery: (sql) => {
      queries++;
      if (showSql) { const k = sql.replace(/\s+/g, ' ').slice(0, 100); statements.set(k, (statements.get(k) ?? 0) + 1); }
    } });
    await ensureAdminTokens(orm.em, [TOKEN]);
    const { base, close: stopServing } = await serveAsServer(orm, db.url, kind);
    const dbName = new URL(db.url).pathname.slice(1);
    if (kind === 'pg') { admin = new Client({ connectionString: pgBase }); await admin.connect(); }
    try {
      const token = await createApiToken(base, 'bench-ofrep', 'frontend', 'production', [PROJECT]);
      // bench:frontend's first context: each of the 20 context fields with a value passing some of the data set's
      // constraints (IN, STR_STARTS_WITH, NUM_GT, SEMVER_GT), so the context enables a realistic share of the flags.
      const POOL = ['v1', 'v3', 'v5', 'pre0', 'pre1', 'pre2', '75', '99', '1.9.0', '2.0.0'];
      const fields = Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`field${k}`, POOL[(7 + k * 3) % POOL.length]]));
      const ofrepContext = { targetingKey: 'user-1', appName: 'bench', ...fields };
      const frontendContext = { userId: 'user-1', appName: 'bench', properties: fields };

      // What the context gets from each, and that both agree on which flags are enabled.
      const post = async (path: string, body: unknown) => {
        const res = await fetch(base + path, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        return { etag: res.headers.get('etag') ?? '', json: (await res.json()) as any };
      };
      const bulk = await post('/ofrep/v1/evaluate/flags', { context: ofrepContext });
      const flags = bulk.json.flags as Array<{ key: string; value?: unknown; reason: string; variant: string }>;
      const toggles = (await post('/api/frontend', { context: frontendContext })).json.toggles as Array<{ name: string }>;
      // Enabled through OFREP: a value that is not `false` (a disabled flag with variants has no value, one without
      // variants reads false; an enabled one reads true, or its variant's payload or name).
      const ofrepOn = new Set(flags.filter((f) => f.value !== undefined && f.value !== false).map((f) => f.key));
      const frontendOn = new Set(toggles.map((t) => t.name));
      const differ = [...new Set([...ofrepOn, ...frontendOn])].filter((k) => ofrepOn.has(k) !== frontendOn.has(k));
      // The single flag: the first one enabled by its targeting (constraints and rollout evaluated, a variant picked;
      // not the data set's strategy variant named `off`, which the OFREP metrics count as a `no`).
      const one = flags.find((f) => ofrepOn.has(f.key) && f.reason !== 'STATIC' && f.variant !== 'off') ?? flags.find((f) => ofrepOn.has(f.key))!;
      const single = await post(`/ofrep/v1/evaluate/flags/${one.key}`, { context: ofrepContext });

      const rows: Array<{ label: string; shot: Shot }> = [
        { label: `OFREP single: POST /ofrep/v1/evaluate/flags/${one.key}`, shot: { path: `/ofrep/v1/evaluate/flags/${one.key}`, body: { context: ofrepContext }, status: 200 } },
        { label: `OFREP bulk: POST /ofrep/v1/evaluate/flags (${flags.length} flags)`, shot: { path: '/ofrep/v1/evaluate/flags', body: { context: ofrepContext }, status: 200 } },
        { label: 'OFREP bulk, If-None-Match: 304', shot: { path: '/ofrep/v1/evaluate/flags', body: { context: ofrepContext }, headers: { 'if-none-match': bulk.etag }, status: 304 } },
        { label: `POST /api/frontend (${toggles.length} enabled flags)`, shot: { path: '/api/frontend', body: { context: frontendContext }, status: 200 } },
      ];

      driver = fork(__filename, ['--driver'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      const probe = async (): Promise<Probe> => {
        const cpu = process.cpuUsage();
        const at = queries;
        return { cpu, queries: at, pg: admin ? await backendTicks(admin, dbName) : undefined };
      };
      const measure = (job: Job) => new Promise<string>((resolve, reject) => {
        let before: Promise<Probe> | undefined;
        const onMessage = async (m: DriverMessage) => {
          if (m.phase === 'measuring') { before = probe(); return; }
          driver!.off('message', onMessage);
          driver!.off('exit', onExit);
          if (m.phase === 'failed') return reject(new Error(m.error));
          const after = await probe();
          const b = await before!;
          const n = m.times.length;
          const times = m.times.sort((x, y) => x - y);
          const cpuUs = (after.cpu.user - b.cpu.user + after.cpu.system - b.cpu.system) / n;
          let pgUs = 'n/a';
          if (after.pg && b.pg) {
            let s = 0;
            for (const [pid, t] of after.pg) s += t - (b.pg.get(pid) ?? 0);
            pgUs = ((s * 1e6) / n).toFixed(0);
          }
          const size = m.bytes >= 1024 ? `${(m.bytes / 1024).toFixed(1)} kB` : `${m.bytes} B`;
          resolve(`| ${job.label} | ${job.connections} | ${n} | ${(n / m.elapsed).toFixed(0)} | ${percentile(times, 50).toFixed(2)} | ${percentile(times, 99).toFixed(2)} | ${cpuUs.toFixed(0)} | ${pgUs} | ${((after.queries - b.queries) / n).toFixed(3)} | ${size} |`);
        };
        const onExit = (code: number | null) => reject(new Error(`driver exited (${code})`));
        driver!.on('message', onMessage);
        driver!.once('exit', onExit);
        driver!.send(job);
      });

      const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
      console.log(`command: npm run bench:ofrep -- --db ${kind} --seconds ${seconds} --concurrency ${concurrency}; node ${process.version}; ${db.describe}; set up in ${((Date.now() - started) / 1000).toFixed(0)} s; load average at start ${load()}`);
      console.log(`data: bench/feature-model-data.ts (1 project, ${FEATURES} flags, 2 flexibleRollout strategies with 2–3 constraints each per environment); frontend token for production`);
      console.log(`context (every request): OFREP ${JSON.stringify({ targetingKey: 'user-1', appName: 'bench' })} + field0…field19 as top-level keys; /api/frontend the same with userId and \`properties\``);
      console.log(`the context enables ${ofrepOn.size} of ${flags.length} flags through OFREP and ${frontendOn.size} through /api/frontend: ${differ.length === 0 ? 'the same flags' : `DIFFERENT for ${differ.length} (${differ.slice(0, 5).join(', ')})`}`);
      console.log(`single flag: ${one.key} → ${JSON.stringify(single.json)}`);
      console.log('');
      console.log(`| request | conns | requests | req/s | p50 ms | p99 ms | app CPU µs/req | PostgreSQL CPU µs/req | SQL/req | answer |`);
      console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
      // Warm-up: every request at full load first (compiled code, caches, the pool's connections), then the garbage of
      // the seeding and the warm-up collected, so neither lands in the first rows.
      for (const row of rows) await measure({ base, token, label: row.label, connections: concurrency, seconds: WARM_PASS_S, shot: row.shot });
      fullGc()();
      for (const connections of [...new Set([1, concurrency])]) {
        for (const row of rows) {
          statements.clear();
          console.log(await measure({ base, token, label: row.label, connections, seconds, shot: row.shot }));
          if (showSql) for (const [sql, n] of [...statements].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(6)} × ${sql}`);
        }
      }
      console.log('');
      console.log(`${seconds} s per row after ${WARMUP_MS / 1000} s of warm-up, the load from a child process, after ${WARMUP_MS / 1000 + WARM_PASS_S} s of every request at ${concurrency} connections; load average at end ${load()}; ${Math.round((Date.now() - started) / 1000)} s in all.`);
      console.log('- app CPU: this process (Express, the evaluation, the database driver' + (kind === 'embedded' ? ', and PGlite, which runs in it' : '') + '), process.cpuUsage() over the row / requests; the load generator is not in it.');
      console.log(kind === 'pg'
        ? '- PostgreSQL CPU: the server\'s backends for the bench database (pool and LISTEN connection) from /proc, 10 ms ticks, over the row / requests.'
        : '- PostgreSQL CPU: n/a (the embedded database runs in this process: it is in the app CPU).');
      console.log('- SQL/req: the statements the app ran over the row / requests (`--sql` lists them per row).');
      console.log('- OFREP single: each evaluation is counted as an SDK metrics report (buffered, written every 5 s): that cost, and its SQL, are in the row.');
      console.log('- /api/frontend has no single-flag path: a frontend SDK reads one flag from the same POST that answers all enabled flags, so its row is the comparison for the single and the bulk OFREP rows.');
    } finally {
      driver?.send('exit');
      await stopServing();
      await orm.close(true);
    }
  } finally {
    await admin?.end();
    await db.close();
  }
}

if (args.includes('--driver')) driverMain();
else main().catch((err) => { console.error(err); process.exit(1); });
