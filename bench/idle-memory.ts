/**
 * Memory at rest of the service on the embedded database, started as `npm start` starts it (`node <options> scripts/start.js`:
 * dist/ when the build is current, else the sources through tsx) on a data folder seeded with the 1000-feature set of
 * bench/feature-model-data.ts. Prints, per start, the RSS and what it is made of: PGlite's WebAssembly memory (its size;
 * not all of it need be resident), V8's heap, external memory and array buffers (reported by
 * bench/memory-probe.cjs, preloaded into the service), and the rest (code, native heap, libraries).
 * With --load, a read load (the paths of bench:reads, each --load times) follows, then the memory again right after
 * it and after --idle seconds.
 *
 *   npm run bench:idle-memory [-- --runs 3] [-- --wait 5,40] [-- --load 20] [-- --idle 60] [-- --sources] [-- --snapshot] [-- --data DIR]
 *   --wait S,S: seconds after the first answer when the memory is measured (default 5 and 40: the service collects
 *   garbage fully after 30 s without requests, src/idle-gc.ts); --sources: the sources through tsx; --snapshot: a heap
 *   snapshot of the service after the last wait (its file is printed); --data DIR: seed DIR once and keep it (later
 *   runs with the same DIR skip the seeding)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { seedEmbeddedFolder } from './bench-app';
import { forkAsNpmStart, startArguments, stopService, untilServing } from './start-command';
import { FEATURE_LIST_QUERY, FEATURE_QUERY, FEATURES, featureName, PROJECT, STATE_EXPORT_FEATURES } from './feature-model-data';

const ROOT = path.resolve(__dirname, '..');
const TOKEN = '*:*.bench-idle-memory-token';
const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const runs = Number(arg('--runs') ?? 3);
const waits = (arg('--wait') ?? '5,40').split(',').map(Number);
const load = Number(arg('--load') ?? 0);
const idleSeconds = Number(arg('--idle') ?? 60);
const SOURCES = process.argv.includes('--sources');
const mib = (n: number) => (n / 2 ** 20).toFixed(0).padStart(4);

/** The read load: the paths of bench:reads. */
const READS: Array<(i: number) => { path: string; body?: unknown }> = [
  () => ({ path: '/api/admin/context' }),
  () => ({ path: `/api/admin/projects/${PROJECT}/health-report` }),
  (i) => ({ path: `/api/admin/events/${featureName((i * 7) % FEATURES)}` }),
  (i) => ({ path: '/api/admin/playground', body: { environment: 'production', projects: [PROJECT], context: { appName: 'bench', userId: `user-${i}` } } }),
  (i) => ({ path: '/api/admin/playground/advanced', body: { environments: ['development', 'production'], projects: [PROJECT], context: { appName: 'bench', userId: `a${i},b${i},c${i}` } } }),
  () => ({ path: `/api/admin/projects/${PROJECT}/features` }),
  () => ({ path: STATE_EXPORT_FEATURES }),
  () => ({ path: '/graphql', body: { query: FEATURE_QUERY } }),
  () => ({ path: '/graphql', body: { query: FEATURE_LIST_QUERY } }),
];

type Probe = { memory: NodeJS.MemoryUsage; heap: { used_heap_size: number; total_heap_size: number }; wasm: number };

function startService(dir: string, port: number) {
  const child = forkAsNpmStart({
    ...(SOURCES ? { FLAGDECK_RUN_SOURCES: '1' } : {}), DATA_DIR: dir, PORT: String(port), INIT_ADMIN_API_TOKENS: TOKEN,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${path.join(__dirname, 'memory-probe.cjs')}`,
  });
  const probe = () => new Promise<Probe>((resolve) => { child.once('message', (m) => resolve(m as Probe)); child.send('memory'); });
  const line = async (label: string) => {
    const p = await probe();
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) * 1024;
    // V8 counts WebAssembly memory as external memory.
    const external = p.memory.external - p.wasm;
    const rest = rss - p.wasm - p.memory.heapTotal - external;
    return `${label.padEnd(22)} RSS ${mib(rss)} MiB = WASM memory ${mib(p.wasm)} + V8 heap ${mib(p.memory.heapTotal)} (used ${mib(p.memory.heapUsed)}) + other external ${mib(external)} (arrayBuffers ${mib(p.memory.arrayBuffers)}) + rest ${mib(rest)} (code, native heap)`;
  };
  const snapshot = () => new Promise<string>((resolve) => { child.once('message', (m) => resolve((m as { snapshot: string }).snapshot)); child.send('snapshot'); });
  return { child, line, snapshot };
}

async function request(base: string, { path: p, body }: { path: string; body?: unknown }): Promise<void> {
  const res = await fetch(base + p, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: TOKEN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200 || (p === '/graphql' && text.includes('"errors"'))) throw new Error(`${p}: ${res.status} ${text.slice(0, 300)}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const keep = arg('--data');
  const dir = keep ?? mkdtempSync(path.join(tmpdir(), 'flagdeck-idle-'));
  try {
    const t0 = Date.now();
    if (!keep || !existsSync(path.join(keep, 'pglite'))) await seedEmbeddedFolder(dir);
    console.log(`node ${process.version}; data folder ${dir} seeded with ${FEATURES} features in ${Date.now() - t0} ms; node ${startArguments().join(' ')}${SOURCES ? ' (sources through tsx)' : ''}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    for (let run = 0; run < runs; run++) {
      let waited = 0;
      const port = 20000 + Math.floor(Math.random() * 20000);
      const base = `http://127.0.0.1:${port}`;
      const { child, line, snapshot } = startService(dir, port);
      try {
        await untilServing(base, TOKEN, child);
        for (const at of waits) {
          await sleep((at - waited) * 1000);
          waited = at;
          console.log(`run ${run + 1}: ${await line(`${at} s after start`)}`);
        }
        if (process.argv.includes('--snapshot')) console.log(`heap snapshot: ${path.resolve(ROOT, await snapshot())}`);
        if (load > 0) {
          const t = Date.now();
          for (let i = 0; i < load; i++) for (const r of READS) await request(base, r(i));
          console.log(`run ${run + 1}: ${await line(`after the load`)} (${load} × ${READS.length} requests in ${((Date.now() - t) / 1000).toFixed(1)} s)`);
          await sleep(idleSeconds * 1000);
          console.log(`run ${run + 1}: ${await line(`after ${idleSeconds} s idle`)}`);
        }
      } finally {
        await stopService(child);
      }
    }
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
