/**
 * The client API under load (issue 14): requests per second, p50 and p99 of `GET /api/client/features` on the
 * 1000-feature data set (bench/feature-model-data.ts) with a client token, as a full answer (plain, and gzipped as the
 * Node SDK asks for it) and as a 304, with 1 and 8 connections, through the real app over HTTP against PostgreSQL. Also, in process, what building one answer from the
 * database costs (what a server that serializes per request pays on every poll).
 *
 * Each scenario is a function of the bench context; add one (say, the metrics intake) by writing another and listing it
 * in SCENARIOS.
 * Usage: npm run bench:client-api [-- --pg postgresql://postgres@127.0.0.1:5432/postgres] [-- --seconds 5]
 */
import { Worker } from 'node:worker_threads';
import type { MikroORM } from '@mikro-orm/postgresql';
import { serializeAnswer } from '../src/rest/sdk/client-answers';
import { loadClientFeatures } from '../src/domain/client-features/client-features.read-model';
import { startBenchApp, percentile, TOKEN, createApiToken } from './bench-app';
import { ENVIRONMENTS, PROJECT } from './feature-model-data';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const pgBase = opt('--pg', process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const seconds = Number(opt('--seconds', '5'));

export interface BenchContext {
  base: string;
  /** A client token of the bench project in production. */
  clientToken: string;
  /** The ETag of the full answer (for 304 scenarios). */
  etag: string;
}

export interface Figures {
  label: string;
  connections: number;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  bytes: number;
}

/** One request of a scenario (sent as is, many times). */
export interface Shot {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  expect: number;
}

/**
 * The load generator, plain JavaScript run in a worker thread: the service keeps the main thread to itself (on a 2-core
 * machine, a client loop in the service's own thread would halve what it can serve). Closed loops over `connections`
 * keep-alive connections (node:http), a 1 s warm-up, then `ms` of timed requests; it posts back each latency.
 */
const LOAD_WORKER = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { base, shots, connections, ms } = workerData;
const url = new URL(base);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
let n = 0;
const one = () => new Promise((resolve, reject) => {
  const s = shots[n++ % shots.length];
  const headers = { ...(s.headers || {}) };
  if (s.body) { headers['content-type'] = 'application/json'; headers['content-length'] = Buffer.byteLength(s.body); }
  const req = http.request({ host: url.hostname, port: url.port, path: s.path, method: s.method, agent, headers }, (res) => {
    let bytes = 0;
    res.on('data', (c) => { bytes += c.length; });
    res.on('end', () => (res.statusCode === s.expect ? resolve(bytes) : reject(new Error(s.method + ' ' + s.path + ': ' + res.statusCode + ', expected ' + s.expect))));
    res.on('error', reject);
  });
  req.on('error', reject);
  req.end(s.body);
});
const run = async (until, times) => {
  let bytes = 0;
  await Promise.all(Array.from({ length: connections }, async () => {
    while (Date.now() < until) {
      const start = process.hrtime.bigint();
      bytes = await one();
      if (times) times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }));
  return bytes;
};
(async () => {
  await run(Date.now() + 1000);
  const times = [];
  const started = Date.now();
  const bytes = await run(started + ms, times);
  agent.destroy();
  parentPort.postMessage({ times: Float64Array.from(times), bytes, elapsed: (Date.now() - started) / 1000 });
})().catch((err) => parentPort.postMessage({ error: String(err && err.stack || err) }));
`;

/** Runs `shots` (taken in turn) over `connections` connections for `ms`, from a worker thread; one row of figures. */
export async function load(base: string, label: string, connections: number, ms: number, shots: Shot[]): Promise<Figures> {
  const result = await new Promise<{ times: Float64Array; bytes: number; elapsed: number; error?: string }>((resolve, reject) => {
    const worker = new Worker(LOAD_WORKER, { eval: true, workerData: { base, shots, connections, ms } });
    worker.once('message', (m) => { void worker.terminate(); resolve(m); });
    worker.once('error', reject);
  });
  if (result.error) throw new Error(`${label}: ${result.error}`);
  const times = Array.from(result.times).sort((a, b) => a - b);
  return { label, connections, requests: times.length, perSecond: times.length / result.elapsed, p50: percentile(times, 50), p99: percentile(times, 99), bytes: result.bytes };
}

const SPEC = { 'unleash-client-spec': '5.2.0' };

export const fullAnswer = (connections: number) => (ctx: BenchContext) => load(ctx.base, 'GET /api/client/features (full answer)', connections, seconds * 1000,
  [{ method: 'GET', path: '/api/client/features', headers: { authorization: ctx.clientToken, ...SPEC }, expect: 200 }]);

/** As the Node SDK asks (its HTTP client sends `Accept-Encoding: gzip,deflate`): the bytes compressed once per version. */
export const fullAnswerGzip = (connections: number) => (ctx: BenchContext) => load(ctx.base, 'GET /api/client/features (full, gzip)', connections, seconds * 1000,
  [{ method: 'GET', path: '/api/client/features', headers: { authorization: ctx.clientToken, ...SPEC, 'accept-encoding': 'gzip, deflate' }, expect: 200 }]);

export const notModified = (connections: number) => (ctx: BenchContext) => load(ctx.base, 'GET /api/client/features (304)', connections, seconds * 1000,
  [{ method: 'GET', path: '/api/client/features', headers: { authorization: ctx.clientToken, ...SPEC, 'if-none-match': ctx.etag }, expect: 304 }]);

export const SCENARIOS: Array<(ctx: BenchContext) => Promise<Figures>> = [fullAnswer(1), fullAnswer(8), fullAnswerGzip(1), fullAnswerGzip(8), notModified(1), notModified(8)];

function row(f: Figures): string {
  return `| ${f.label.padEnd(40)} | ${String(f.connections).padStart(5)} | ${f.perSecond.toFixed(0).padStart(8)} | ${f.p50.toFixed(2).padStart(7)} ms | ${f.p99.toFixed(2).padStart(7)} ms | ${(f.bytes / 1024).toFixed(0).padStart(6)} kB |`;
}

/** The cost of building the answer from the database, per request, without a cache (in process, no HTTP). */
async function rebuildCost(orm: MikroORM): Promise<string> {
  const key = { scope: { environment: ENVIRONMENTS[1], projects: [PROJECT], tags: [] }, mode: 'separate' as const };
  const times: number[] = [];
  for (let i = -5; i < 40; i++) {
    const start = process.hrtime.bigint();
    serializeAnswer(await loadClientFeatures(orm.em, key.scope), key);
    if (i >= 0) times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return `building one answer from the database (read + serialize, no cache): p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms (≈ ${(1000 / percentile(times, 50)).toFixed(0)} answers/s on one core)`;
}

/**
 * What this machine serves at best right now, through the same load generator: a bare node:http server answering a 304,
 * and one reading a 2.6 kB JSON body and answering 202 (no framework, no database). The figures above vary with the
 * machine's state (shared cores) by a factor of two between days; this row tells how far from that ceiling they are.
 */
async function ceiling(): Promise<string> {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST') JSON.parse(Buffer.concat(chunks).toString());
      res.writeHead(req.method === 'POST' ? 202 : 304, req.method === 'POST' ? {} : { ETag: '"x"' });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const toggles = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`bench-feature-${i}`, { yes: 3, no: 2, variants: {} }]));
  const body = JSON.stringify({ appName: 'bench-app', instanceId: 'i-1', bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles } });
  const out: string[] = [];
  for (const connections of [1, 8]) {
    const get = await load(base, 'ceiling 304', connections, 3000, [{ method: 'GET', path: '/', headers: { 'if-none-match': '"x"' }, expect: 304 }]);
    const post = await load(base, 'ceiling POST', connections, 3000, [{ method: 'POST', path: '/', headers: { 'content-type': 'application/json' }, body, expect: 202 }]);
    out.push(`${connections} conn: 304 ${get.perSecond.toFixed(0)}/s, POST ${post.perSecond.toFixed(0)}/s`);
  }
  await new Promise((r) => server.close(r));
  return `ceiling of this machine now (bare node:http, same load generator): ${out.join('; ')}`;
}

async function main() {
  const app = await startBenchApp(pgBase);
  try {
    console.log(app.describe);
    const clientToken = await createApiToken(app.base, 'bench-client', 'client', ENVIRONMENTS[1], [PROJECT]);
    const first = await fetch(`${app.base}/api/client/features`, { headers: { authorization: clientToken, ...SPEC } });
    const etag = first.headers.get('etag')!;
    const features = ((await first.json()) as { features: unknown[] }).features.length;
    const ctx: BenchContext = { base: app.base, clientToken, etag };
    console.log(`node ${process.version}; client token of project ${PROJECT} in ${ENVIRONMENTS[1]} (${features} features); ${seconds} s per scenario after 1 s warm-up; closed loops over keep-alive connections`);
    console.log('| scenario                                 | conns |    req/s |     p50    |     p99    |   body    |');
    console.log('|------------------------------------------|-------|----------|------------|------------|-----------|');
    for (const scenario of SCENARIOS) console.log(row(await scenario(ctx)));
    console.log(await rebuildCost(app.orm));
  } finally {
    await app.close();
  }
  console.log(await ceiling());
}

if (require.main === module) main().catch((err) => { console.error(err); process.exit(1); });
