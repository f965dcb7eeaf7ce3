/**
 * Client deltas (issue 32) on the feature-model data set (bench/feature-model-data.ts), the service started as
 * `npm start` starts it in a child process, on the embedded database and on PostgreSQL:
 *
 * 1. Streams: --streams (1000, the per-instance limit `maxStreams`, which has no setting) SSE connections to
 *    `GET /api/client/streaming` opened by this process with plain node:http (each counts bytes, finds the end of each
 *    event and notes its arrival), a client token of all projects in production. Then --changes times one flag switched
 *    on or off in production through the admin API: per change the bytes of the `unleash-updated` event per stream,
 *    the delay from the admin response (the commit) to its arrival on each stream, and the service's CPU for the change
 *    (process.cpuUsage() read through bench/cpu-probe.cjs, from before the admin request to SETTLE_MS after the last
 *    arrival; so it includes the admin request itself, also measured alone with no stream open).
 * 2. CPU against the number of flags: --small-streams (100) streams on a 100-flag data set (the 1000-flag one with
 *    flags 100-999 deleted before the service starts) and on the 1000-flag one, one flag changed per change; and on the
 *    1000-flag one ten flags changed in one change (one bulk stale request, one transaction). Each also without streams.
 * 3. Delta polls: `GET /api/client/delta` hydration size, the delta after one change, and --polls sequential 304 polls
 *    of it against as many of `GET /api/client/features` (each with its current ETag), over one keep-alive connection.
 *
 * Change-request and addon polls of the service are slowed to 10 minutes so their timers do not land in the CPU
 * figures. Delays are as this process sees them: it shares the 2 cores with the service (and PostgreSQL).
 *
 *   npm run bench:deltas [-- --db embedded|pg|both] [-- --pg postgresql://postgres@127.0.0.1:5432/postgres]
 *     [-- --streams 1000] [-- --small-streams 100] [-- --changes 10] [-- --polls 2000]
 */
import http from 'node:http';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from 'pg';
import { benchDatabase, createApiToken, migrateAndSeed, percentile, seedEmbeddedFolder, TOKEN } from './bench-app';
import { ENVIRONMENTS, FEATURES, featureName, PROJECT } from './feature-model-data';
import { STREAMS_OPENED_AT_ONCE, Streams } from './sse-streams';
import { forkAsNpmStart, startArguments, stopService, untilServing } from './start-command';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);
const DB = opt('--db', 'both');
const PG = opt('--pg', 'postgresql://postgres@127.0.0.1:5432/postgres');
const STREAMS = Number(opt('--streams', '1000'));
const SMALL_STREAMS = Number(opt('--small-streams', '100'));
const CHANGES = Number(opt('--changes', '10'));
const POLLS = Number(opt('--polls', '2000'));
const ENV = ENVIRONMENTS[1]!; // production
/** After the last arrival (or the admin response, without streams) until the CPU is read: work the change left behind. */
const SETTLE_MS = 100;
/** Between changes: the previous one's aftermath is over. */
const PAUSE_MS = 150;
/** Changes made (not counted) before each scenario of table 2: the code paths of the change compiled on either service. */
const WARM_UP = 4;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// --- the service -------------------------------------------------------------------------------------------------

interface Service {
  base: string;
  child: ChildProcess;
  describe: string;
  /** The service's CPU time (user + system) so far, ms. */
  cpuMs(): Promise<number>;
  /** On PostgreSQL, the CPU time so far of the server processes serving the bench's database, ms (10 ms ticks). */
  dbCpuMs(): number | undefined;
  rssMiB(): number;
  stop(): Promise<void>;
}

/** The data set cut to `flags` flags (the first ones), before the vacuum. */
const keepFlags = (flags: number) => async (seed: Client) => {
  if (flags >= FEATURES) return;
  await seed.query('delete from events where feature_name > $1', [featureName(flags - 1)]);
  await seed.query('delete from features where project = $1 and name > $2', [PROJECT, featureName(flags - 1)]);
};

async function startService(kind: 'pg' | 'embedded', flags: number): Promise<Service> {
  const t0 = Date.now();
  let env: NodeJS.ProcessEnv;
  let where: string;
  let drop: () => Promise<void>;
  let dbName: string | undefined;
  if (kind === 'pg') {
    const db = await benchDatabase(PG, `deltas${flags}`);
    try {
      await migrateAndSeed(db.url, keepFlags(flags));
    } catch (err) {
      await db.close();
      throw err;
    }
    env = { DATABASE_URL: db.url };
    dbName = new URL(db.url).pathname.slice(1);
    where = db.describe;
    drop = db.close;
  } else {
    const dir = mkdtempSync(path.join(tmpdir(), 'flagdeck-bench-deltas-'));
    await seedEmbeddedFolder(dir, keepFlags(flags));
    env = { DATABASE_URL: '', DATA_DIR: dir };
    where = `embedded PGlite (data folder ${dir})`;
    drop = async () => rmSync(dir, { recursive: true, force: true });
  }
  const seeded = Date.now() - t0;
  const port = 20000 + Math.floor(Math.random() * 20000);
  const base = `http://127.0.0.1:${port}`;
  const child = forkAsNpmStart({
    ...env, PORT: String(port), INIT_ADMIN_API_TOKENS: TOKEN, CHANGE_REQUEST_POLL_MS: '600000', ADDON_POLL_MS: '600000',
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${path.join(__dirname, 'cpu-probe.cjs')}`,
  });
  try {
    await untilServing(base, TOKEN, child);
  } catch (err) {
    await stopService(child);
    await drop();
    throw err;
  }
  return {
    base, child,
    describe: `${where}; ${flags} flags (${flags < FEATURES ? `the ${FEATURES}-flag set with flags ${flags}-${FEATURES - 1} deleted` : '4 strategies each'}), seeded in ${seeded} ms`,
    cpuMs: () => new Promise<number>((resolve) => {
      child.once('message', (m) => { const { cpu } = m as { cpu: NodeJS.CpuUsage }; resolve((cpu.user + cpu.system) / 1000); });
      child.send('cpu');
    }),
    dbCpuMs: () => (dbName === undefined ? undefined : backendsCpuMs(dbName)),
    rssMiB: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024,
    async stop() { await stopService(child); await drop(); },
  };
}

const TICK_MS = 10; // USER_HZ, 100 on Linux

/** utime + stime of the PostgreSQL backends connected to `dbName` (their process title names the database), ms. */
function backendsCpuMs(dbName: string): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(` ${dbName} `)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch { /* gone meanwhile */ }
  }
  return ticks * TICK_MS;
}

/** A GET over node:http (no decompression, so sizes are as sent). */
function get(base: string, pathname: string, headers: Record<string, string>, agent?: http.Agent): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(base + pathname, { headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

async function admin(base: string, pathname: string, body?: unknown): Promise<void> {
  const res = await fetch(base + pathname, {
    method: 'POST', headers: { authorization: TOKEN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`POST ${pathname}: ${res.status} ${text.slice(0, 300)}`);
}

// --- changes -----------------------------------------------------------------------------------------------------

interface Change {
  label: string;
  /** Makes the next change (each call alternates, so every call changes something). */
  run(): Promise<void>;
}

/** One flag switched in production, alternately off and on (starting from its state now). */
async function envSwitch(svc: Service, clientToken: string, index: number): Promise<Change> {
  const name = featureName(index);
  const now = await get(svc.base, `/api/client/features/${name}`, { authorization: clientToken });
  let enabled = (JSON.parse(now.body.toString()) as { enabled: boolean }).enabled;
  return {
    label: `1 flag on/off (${name})`,
    async run() {
      enabled = !enabled;
      await admin(svc.base, `/api/admin/projects/${PROJECT}/features/${name}/environments/${ENV}/${enabled ? 'on' : 'off'}`);
    },
  };
}

/** `count` flags made stale or not, alternately, in one bulk request (one transaction). None is stale in the data set. */
function staleSwitch(svc: Service, from: number, count: number): Change {
  const features = Array.from({ length: count }, (_, i) => featureName(from + i));
  let stale = false;
  return {
    label: `${count} flag${count > 1 ? 's' : ''} stale on/off, 1 request`,
    async run() {
      stale = !stale;
      await admin(svc.base, `/api/admin/projects/${PROJECT}/stale`, { features, stale });
    },
  };
}

interface ChangeFigures {
  label: string;
  bytes: number;
  delays: number[];
  cpu: Cpu;
  flags: number;
}

/** CPU ms of the service and (PostgreSQL only) of its database's backends. */
interface Cpu {
  app: number;
  db?: number;
}

async function cpuNow(svc: Service): Promise<Cpu> {
  return { app: await svc.cpuMs(), db: svc.dbCpuMs() };
}

const cpuSince = (before: Cpu, after: Cpu): Cpu => ({ app: after.app - before.app, db: after.db === undefined ? undefined : after.db - before.db! });

/** One change while `streams` are open: waits for its event on every stream. */
async function changeWithStreams(svc: Service, streams: Streams, change: Change): Promise<ChangeFigures> {
  await sleep(PAUSE_MS);
  const n = streams.all[0]!.at.length + 1;
  const cpu0 = await cpuNow(svc);
  const arrived = streams.until(n);
  await change.run();
  const committed = performance.now();
  await arrived;
  await sleep(SETTLE_MS);
  const cpu = cpuSince(cpu0, await cpuNow(svc));
  const delays = streams.all.map((s) => s.at[n - 1]! - committed).sort((a, b) => a - b);
  const bytes = Math.max(...streams.all.map((s) => s.bytes[n - 1]!));
  const seen = streams.lastEventOfFirst();
  if (seen.event !== 'unleash-updated') throw new Error(`expected unleash-updated, stream 0 received ${seen.event}`);
  return { label: change.label, bytes, delays, cpu, flags: seen.flags };
}

/** The same change with no stream open: the CPU of the admin request and what follows it. */
async function changeAlone(svc: Service, change: Change): Promise<Cpu> {
  await sleep(PAUSE_MS);
  const cpu0 = await cpuNow(svc);
  await change.run();
  await sleep(SETTLE_MS);
  return cpuSince(cpu0, await cpuNow(svc));
}

/** The service's CPU: the median; the database's: the mean (read in 10 ms ticks, a median would be 0 or 10). */
const medianCpu = (xs: Cpu[]): Cpu => ({ app: median(xs.map((x) => x.app)), db: xs[0]?.db === undefined ? undefined : xs.reduce((t, x) => t + x.db!, 0) / xs.length });
const dbMs = (c: Cpu) => (c.db === undefined ? 'in app' : ms(c.db));

const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
const ms = (x: number) => `${x.toFixed(1)} ms`;
const kib = (n: number) => (n >= 10240 ? `${(n / 1024).toFixed(0)} KiB` : `${n} B`);
const pad = (s: string | number, w: number) => String(s).padStart(w);

// --- the scenarios -------------------------------------------------------------------------------------------------

async function bigService(kind: 'pg' | 'embedded'): Promise<{ rows: SmallRow[]; baselines: Map<string, Cpu[]> }> {
  const svc = await startService(kind, FEATURES);
  try {
    console.log(`service: ${svc.describe}`);
    const clientToken = await createApiToken(svc.base, 'bench-deltas', 'client', ENV, ['*']);
    const streams = new Streams(svc.base, clientToken);
    const openMs = await streams.openMany(STREAMS);
    const hydration = streams.all[0]!.bytes[0]!;
    const seen = streams.lastEventOfFirst();
    console.log(`\n1. ${streams.all.length} streams (client token, all projects, ${ENV}) opened ${STREAMS_OPENED_AT_ONCE} at a time in ${(openMs / 1000).toFixed(1)} s; hydration per stream ${kib(hydration)} (${seen.event}, ${seen.flags} flags; ${(hydration * streams.all.length / 2 ** 20).toFixed(0)} MiB for all)`);

    const cpuIdle0 = await cpuNow(svc);
    await sleep(2000);
    const idle = cpuSince(cpuIdle0, await cpuNow(svc));

    const env = await envSwitch(svc, clientToken, 1);
    console.log(`| change           | bytes/stream | flags | p50 delay | p99 delay | max delay | server CPU | PG CPU   |`);
    console.log(`|------------------|--------------|-------|-----------|-----------|-----------|------------|----------|`);
    const rows: ChangeFigures[] = [];
    for (let i = 0; i < CHANGES; i++) {
      const f = await changeWithStreams(svc, streams, env);
      rows.push(f);
      console.log(`| ${`#${i + 1} ${i % 2 === 0 ? 'switch' : 'switch back'}`.padEnd(16)} | ${pad(f.bytes, 10)} B | ${pad(f.flags, 5)} | ${pad(ms(percentile(f.delays, 50)), 9)} | ${pad(ms(percentile(f.delays, 99)), 9)} | ${pad(ms(f.delays[f.delays.length - 1]!), 9)} | ${pad(ms(f.cpu.app), 10)} | ${pad(dbMs(f.cpu), 8)} |`);
    }
    const allDelays = rows.flatMap((r) => r.delays).sort((a, b) => a - b);
    console.log(`| all ${CHANGES} (max/med) | ${pad(Math.max(...rows.map((r) => r.bytes)), 10)} B | ${pad(Math.max(...rows.map((r) => r.flags)), 5)} | ${pad(ms(percentile(allDelays, 50)), 9)} | ${pad(ms(percentile(allDelays, 99)), 9)} | ${pad(ms(allDelays[allDelays.length - 1]!), 9)} | ${pad(ms(medianCpu(rows.map((r) => r.cpu)).app), 10)} | ${pad(dbMs(medianCpu(rows.map((r) => r.cpu))), 8)} |`);
    console.log(`(delay: from the admin response to the event's end on each stream, as this process sees it; negative = before the response. CPU: admin request + push, median in the last row (PG: its backends of this database, 10 ms ticks, mean); idle with ${streams.all.length} streams open: ${(idle.app / 2).toFixed(1)} ms CPU/s${idle.db === undefined ? '' : ` + PG ${(idle.db / 2).toFixed(0)} ms/s`}; service RSS ${svc.rssMiB().toFixed(0)} MiB)`);

    // 2 (1000 flags): fewer streams.
    await streams.closeAllBut(SMALL_STREAMS);
    const one = staleSwitch(svc, 20, 1);
    const ten = staleSwitch(svc, 3, 10);
    const smallStreamRows: SmallRow[] = [];
    for (const change of [one, ten]) {
      for (let i = 0; i < WARM_UP; i++) await changeWithStreams(svc, streams, change);
      const figures: ChangeFigures[] = [];
      for (let i = 0; i < CHANGES; i++) figures.push(await changeWithStreams(svc, streams, change));
      smallStreamRows.push(smallRow(FEATURES, figures));
    }
    await streams.closeAllBut(0);
    const quiet0 = await cpuNow(svc);
    await sleep(2000);
    const quiet = cpuSince(quiet0, await cpuNow(svc));

    // Without streams: the changes' own cost.
    const baselines = new Map<string, Cpu[]>();
    for (const change of [env, one, ten]) {
      const cpu: Cpu[] = [];
      for (let i = 0; i < CHANGES; i++) cpu.push(await changeAlone(svc, change));
      baselines.set(`${FEATURES}:${change.label}`, cpu);
    }
    const alone = medianCpu(baselines.get(`${FEATURES}:${env.label}`)!);
    const withStreams = medianCpu(rows.map((r) => r.cpu));
    console.log(`idle with no stream open: ${(quiet.app / 2).toFixed(1)} ms CPU/s${quiet.db === undefined ? '' : ` + PG ${(quiet.db / 2).toFixed(0)} ms/s`}`);
    console.log(`same change with no stream open: server CPU median ${ms(alone.app)}${alone.db === undefined ? '' : `, PG ${ms(alone.db)}`} → pushing it to ${STREAMS} streams ≈ ${ms(withStreams.app - alone.app)}${alone.db === undefined ? '' : ` + PG ${ms(withStreams.db! - alone.db)}`}`);

    await deltaPolls(svc, clientToken);
    return { rows: smallStreamRows, baselines };
  } finally {
    await svc.stop();
  }
}

/** A row of table 2: the changes made with streams open, and the key of the same change's figures without streams. */
interface SmallRow {
  dataSet: string;
  key: string;
  figures: ChangeFigures[];
}

const smallRow = (flags: number, figures: ChangeFigures[]): SmallRow => ({ dataSet: `${flags} flags`, key: `${flags}:${figures[0]!.label}`, figures });

function printSmall(rows: SmallRow[], baselines: Map<string, Cpu[]>): void {
  console.log(`\n2. CPU per change with ${SMALL_STREAMS} streams (median of ${CHANGES} changes after ${WARM_UP} not counted; "alone": the same change with no stream open, "push" the difference; PG CPU: mean)`);
  console.log(`| data set   | change                           | bytes/stream | flags | p99 delay | server CPU (min-max)     | alone   | push    | PG CPU | PG alone |`);
  console.log(`|------------|----------------------------------|--------------|-------|-----------|--------------------------|---------|---------|--------|----------|`);
  for (const { dataSet, key, figures } of rows) {
    const delays = figures.flatMap((f) => f.delays).sort((a, b) => a - b);
    const cpu = figures.map((f) => f.cpu.app);
    const withStreams = medianCpu(figures.map((f) => f.cpu));
    const alone = medianCpu(baselines.get(key)!);
    const range = `${ms(withStreams.app)} (${Math.min(...cpu).toFixed(1)}-${Math.max(...cpu).toFixed(1)})`;
    console.log(`| ${dataSet.padEnd(10)} | ${figures[0]!.label.padEnd(32)} | ${pad(Math.max(...figures.map((f) => f.bytes)), 10)} B | ${pad(Math.max(...figures.map((f) => f.flags)), 5)} | ${pad(ms(percentile(delays, 99)), 9)} | ${range.padStart(24)} | ${pad(ms(alone.app), 7)} | ${pad(ms(withStreams.app - alone.app), 7)} | ${pad(dbMs(withStreams), 6)} | ${pad(dbMs(alone), 8)} |`);
  }
}

/** 2 (100 flags): the same 1-flag change with a tenth of the flags. */
async function smallService(kind: 'pg' | 'embedded', flags: number): Promise<{ rows: SmallRow[]; baselines: Map<string, Cpu[]> }> {
  const svc = await startService(kind, flags);
  try {
    console.log(`\nservice: ${svc.describe}`);
    const clientToken = await createApiToken(svc.base, 'bench-deltas', 'client', ENV, ['*']);
    const streams = new Streams(svc.base, clientToken);
    await streams.openMany(SMALL_STREAMS);
    const hydration = streams.all[0]!.bytes[0]!;
    const seen = streams.lastEventOfFirst();
    console.log(`${streams.all.length} streams, hydration per stream ${kib(hydration)} (${seen.flags} flags)`);
    const one = staleSwitch(svc, 20, 1);
    for (let i = 0; i < WARM_UP; i++) await changeWithStreams(svc, streams, one);
    const figures: ChangeFigures[] = [];
    for (let i = 0; i < CHANGES; i++) figures.push(await changeWithStreams(svc, streams, one));
    await streams.closeAllBut(0);
    const cpu: Cpu[] = [];
    for (let i = 0; i < CHANGES; i++) cpu.push(await changeAlone(svc, one));
    return { rows: [smallRow(flags, figures)], baselines: new Map([[`${flags}:${one.label}`, cpu]]) };
  } finally {
    await svc.stop();
  }
}

/** 3: delta polls against full-answer polls. */
async function deltaPolls(svc: Service, clientToken: string): Promise<void> {
  const auth = { authorization: clientToken };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const hydration = await get(svc.base, '/api/client/delta', auth, agent);
    const gzipped = await get(svc.base, '/api/client/delta', { ...auth, 'accept-encoding': 'gzip' }, agent);
    if (hydration.status !== 200) throw new Error(`delta hydration: ${hydration.status}`);
    const hydrationFlags = (JSON.parse(hydration.body.toString()) as { events: Array<{ features: unknown[] }> }).events[0]!.features.length;
    const etag0 = hydration.headers.etag!;
    const change = await envSwitch(svc, clientToken, 2);
    await change.run();
    const delta = await get(svc.base, '/api/client/delta', { ...auth, 'if-none-match': etag0 }, agent);
    if (delta.status !== 200) throw new Error(`delta after a change: ${delta.status}`);
    const events = (JSON.parse(delta.body.toString()) as { events: Array<{ type: string }> }).events;
    const etag = delta.headers.etag!;
    console.log(`\n3. Delta polls (same client token): hydration ${kib(hydration.body.length)} (gzip ${kib(gzipped.body.length)}), ${hydrationFlags} flags, ETag ${etag0}`);
    console.log(`   after one change (${change.label}): delta ${delta.body.length} B, ${events.length} event(s), ${events.filter((e) => e.type.startsWith('feature-')).length} flag(s), ETag ${etag}`);

    const features = await get(svc.base, '/api/client/features', auth, agent);
    const featuresTag = features.headers.etag!;
    console.log(`| ${`${POLLS} sequential 304 polls each, 1 keep-alive conn.`.padEnd(52)} | req/s | p50     | p99      |`);
    console.log(`|${'-'.repeat(54)}|-------|---------|----------|`);
    // The third: the same poll with an Origin header, which src/rest/sdk/fast-paths.ts leaves to Express as it does
    // every delta poll (what the Express route costs, apart from the delta's own work).
    const polls = [
      ['GET /api/client/delta (If-None-Match)', '/api/client/delta', { 'if-none-match': etag }],
      ['GET /api/client/features (If-None-Match)', '/api/client/features', { 'if-none-match': featuresTag }],
      ['  same, through Express (Origin header)', '/api/client/features', { 'if-none-match': featuresTag, origin: 'http://bench.invalid' }],
    ] as const;
    // Interleaved in rounds, after a warm-up of each, so a drift of the machine (or of the service after the change)
    // weighs on every row alike.
    const times = polls.map(() => [] as number[]);
    const elapsed = polls.map(() => 0);
    const poll = async (p: number) => {
      const [, pathname, more] = polls[p]!;
      const start = performance.now();
      const r = await get(svc.base, pathname, { ...auth, ...more }, agent);
      if (r.status !== 304) throw new Error(`${pathname}: ${r.status}, expected 304`);
      return performance.now() - start;
    };
    for (let p = 0; p < polls.length; p++) for (let i = 0; i < 200; i++) await poll(p);
    const ROUNDS = 4;
    for (let round = 0; round < ROUNDS; round++) {
      for (let p = 0; p < polls.length; p++) {
        const t0 = performance.now();
        for (let i = 0; i < POLLS / ROUNDS; i++) times[p]!.push(await poll(p));
        elapsed[p]! += performance.now() - t0;
      }
    }
    polls.forEach(([label], p) => {
      const sorted = times[p]!.sort((a, b) => a - b);
      console.log(`| ${label.padEnd(52)} | ${pad((sorted.length / (elapsed[p]! / 1000)).toFixed(0), 5)} | ${pad(percentile(sorted, 50).toFixed(2), 4)} ms | ${pad(percentile(sorted, 99).toFixed(2), 5)} ms |`);
    });
  } finally {
    agent.destroy();
  }
}

async function run(kind: 'pg' | 'embedded'): Promise<void> {
  const t0 = Date.now();
  console.log(`\n=== ${kind === 'pg' ? `PostgreSQL (${new URL(PG).host})` : 'embedded PGlite'} ===`);
  console.log(`command: npm run bench:deltas -- --db ${kind}; node ${process.version}; service: node ${startArguments().map((a) => path.relative(process.cwd(), a) || a).join(' ')}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const big = await bigService(kind);
  const small = await smallService(kind, 100);
  printSmall([...small.rows, ...big.rows], new Map([...big.baselines, ...small.baselines]));
  console.log(`(${kind}: ${((Date.now() - t0) / 1000).toFixed(0)} s; load ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
}

async function main(): Promise<void> {
  if (!['pg', 'embedded', 'both'].includes(DB)) throw new Error('--db embedded|pg|both');
  if (DB !== 'pg') await run('embedded');
  if (DB !== 'embedded') await run('pg');
}

main().catch((err) => { console.error(err); process.exit(1); });
