/**
 * The read paths of the side-by-side table with Unleash, and the GraphQL query of the same feature list, on
 * PostgreSQL and on the embedded database: for each, p50, p99 and requests per second of sequential requests (one
 * connection), and the process's RSS after the row (the app and, on the embedded database, PGlite run in this
 * process). Data: the 1000-feature set of bench/feature-model-data.ts. A baseline for later changes.
 *
 *   npm run bench:reads                                  # both databases
 *   npm run bench:reads -- --db pg|embedded [--pg postgresql://postgres@127.0.0.1:5432/postgres]
 *   options: --requests N (most requests per row, default 200), --seconds S (most time per row, default 10),
 *            --only REGEX (only the rows whose label matches, case-insensitive), --graphql-standard (no compiled queries)
 *            --idle S (after the rows, the memory again after S seconds without requests; default 60 on the embedded
 *            database, 0 on PostgreSQL), --embedded-memory (the embedded database in memory instead of in a throwaway
 *            data folder, which is how `npm start` runs it)
 */
import { loadavg } from 'node:os';
import { percentile, startSeededApp, timedRequest } from './bench-app';
import { FEATURE_LIST_QUERY, FEATURE_QUERY, FEATURES, featureName, PROJECT, STATE_EXPORT_FEATURES } from './feature-model-data';

const TOKEN = '*:*.bench-reads-token';
const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const which = arg('--db') ?? 'both';
const pgBase = arg('--pg') ?? process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const maxRequests = Number(arg('--requests') ?? 200);
const maxSeconds = Number(arg('--seconds') ?? 10);
/** --graphql-standard: GraphQL on the standard executor only (no compiled queries), to compare. */
const graphqlCompiled = !process.argv.includes('--graphql-standard');
/** Only the rows whose label matches this regular expression (case-insensitive), e.g. `--only 'graphql|state'`. */
const only = arg('--only') ? new RegExp(arg('--only') as string, 'i') : undefined;
/** --embedded-memory: the embedded database in memory (as the tests run it) instead of in a data folder (as `npm start`). */
const embeddedInMemory = process.argv.includes('--embedded-memory');
const idleSeconds = (kind: 'pg' | 'embedded') => Number(arg('--idle') ?? (kind === 'embedded' ? 60 : 0));

/** The process's memory: RSS and what it is made of (V8 heap, buffers outside it, PGlite's WebAssembly memory). */
function memoryLine(label: string, wasmMemoryBytes?: () => number): string {
  const m = process.memoryUsage();
  const mib = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;
  const wasm = wasmMemoryBytes ? `, WASM memory ${mib(wasmMemoryBytes())}` : '';
  return `${label}: RSS ${mib(m.rss)} (V8 heap used ${mib(m.heapUsed)} of ${mib(m.heapTotal)}, external ${mib(m.external)}, arrayBuffers ${mib(m.arrayBuffers)}${wasm})`;
}

interface Row { label: string; request: (i: number) => { path: string; body?: unknown } }

const ROWS: Row[] = [
  { label: 'GET /api/admin/context', request: () => ({ path: '/api/admin/context' }) },
  { label: 'GET /api/admin/tags', request: () => ({ path: '/api/admin/tags' }) },
  { label: `GET /api/admin/projects/${PROJECT}/health-report`, request: () => ({ path: `/api/admin/projects/${PROJECT}/health-report` }) },
  { label: 'GET /api/admin/events/:feature', request: (i) => ({ path: `/api/admin/events/${featureName((i * 7) % FEATURES)}` }) },
  {
    label: 'POST /api/admin/playground (1000 features)',
    request: (i) => ({ path: '/api/admin/playground', body: { environment: 'production', projects: [PROJECT], context: { appName: 'bench', userId: `user-${i}` } } }),
  },
  {
    label: 'POST /api/admin/playground/advanced (2 envs × 3 users)',
    request: (i) => ({ path: '/api/admin/playground/advanced', body: { environments: ['development', 'production'], projects: [PROJECT], context: { appName: 'bench', userId: `a${i},b${i},c${i}` } } }),
  },
  { label: `GET /api/admin/projects/${PROJECT}/features`, request: () => ({ path: `/api/admin/projects/${PROJECT}/features` }) },
  { label: 'GET /api/admin/state/export (features, envs, strategies)', request: () => ({ path: STATE_EXPORT_FEATURES }) },
  { label: 'POST /graphql: the 1000 features, environments, strategies', request: () => ({ path: '/graphql', body: { query: FEATURE_QUERY } }) },
  { label: 'POST /graphql: the 1000 features, list fields, envs, tags', request: () => ({ path: '/graphql', body: { query: FEATURE_LIST_QUERY } }) },
];

async function row(base: string, { label, request }: Row): Promise<void> {
  const times: number[] = [];
  let bytes = 0;
  let until = Infinity;
  let started = 0n;
  for (let i = -5; i < maxRequests && Date.now() < until; i++) {
    // The clock (and the time cap) start after the warm-up requests.
    if (i === 0) { started = process.hrtime.bigint(); until = Date.now() + maxSeconds * 1000; }
    const req = request(i + 5);
    const { ms, payload } = await timedRequest(base, label, req, TOKEN);
    // GraphQL answers 200 with `errors` too: a bench of an error would measure nothing.
    if (req.path === '/graphql' && payload.includes('"errors"')) throw new Error(`${label}: ${payload.toString().slice(0, 300)}`);
    if (i >= 0) { times.push(ms); bytes = payload.byteLength; }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  times.sort((a, b) => a - b);
  const rss = process.memoryUsage().rss / 2 ** 20;
  console.log(`| ${label.padEnd(56)} | ${String(times.length).padStart(5)} | ${percentile(times, 50).toFixed(2).padStart(8)} ms | ${percentile(times, 99).toFixed(2).padStart(8)} ms | ${(times.length / seconds).toFixed(1).padStart(7)} | ${(bytes / 1024).toFixed(0).padStart(5)} kB | ${rss.toFixed(0).padStart(5)} MiB |`);
}

async function run(kind: 'pg' | 'embedded'): Promise<void> {
  // The feature query is over the default cost budget of one request: the bench measures speed, not the limit.
  const app = await startSeededApp(kind, pgBase, 'reads', TOKEN, { graphqlCompiled }, embeddedInMemory);
  try {
    console.log(`\n${app.describe}; GraphQL ${graphqlCompiled ? 'compiled when hot' : 'standard executor only'}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${FEATURES} features (4 strategies each); node ${process.version}; sequential requests, at most ${maxRequests} or ${maxSeconds} s per row after 5 warm-up`);
    console.log('| request                                                  |     n |      p50    |      p99    |   req/s |  body    | RSS after |');
    console.log('|----------------------------------------------------------|-------|-------------|-------------|---------|----------|-----------|');
    const before = memoryLine('before the rows', app.wasmMemoryBytes);
    for (const r of ROWS) if (!only || only.test(r.label)) await row(app.base, r);
    console.log(`\n${before}\n${memoryLine('after the rows', app.wasmMemoryBytes)}`);
    const idle = idleSeconds(kind);
    if (idle > 0) {
      await new Promise((resolve) => setTimeout(resolve, idle * 1000));
      console.log(memoryLine(`after ${idle} s idle`, app.wasmMemoryBytes));
    }
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  if (which === 'pg' || which === 'both') await run('pg');
  if (which === 'embedded' || which === 'both') await run('embedded');
}

main().catch((err) => { console.error(err); process.exit(1); });
