/**
 * Where the time of one GraphQL request goes: serves the feature-model data set (1000 features, 4 strategies each),
 * sends a query a number of times while the V8 sampling profiler runs in this process (the app, the database driver
 * and, on the embedded database, PGlite all run here), and prints the functions with the most self time and the self
 * time summed by where the code lives (graphql-js execution or validation, Pothos, graphql-yoga, MikroORM, pg, the
 * service's own code, ...). The same for a REST request with the same content, to compare.
 *
 *   npx tsx bench/graphql-profile.ts [--db pg|embedded] [--pg URL] [--requests N] [--query full|list|rest[,...]] [--top N]
 *   [--out PREFIX]            (writes each profile to PREFIX.<query>.cpuprofile for Chrome DevTools too)
 *   [--no-profile]            (only the times: wall p50/p99 and this process's CPU per request, without the profiler)
 *   [--graphql-standard]      (GraphQL on the standard executor only)
 *   [--rounds N]              (the queries measured N times in turn)
 */
import { writeFileSync } from 'node:fs';
import { Session, type Profiler } from 'node:inspector';
import { loadavg } from 'node:os';
import { percentile, startSeededApp, timedRequest } from './bench-app';
import { FEATURE_LIST_QUERY, FEATURE_QUERY, FEATURES, STATE_EXPORT_FEATURES } from './feature-model-data';

const TOKEN = '*:*.bench-profile-token';
const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const kind = (arg('--db') ?? 'pg') as 'pg' | 'embedded';
const pgBase = arg('--pg') ?? process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const requests = Number(arg('--requests') ?? 30);
const top = Number(arg('--top') ?? 30);
/** One query or several, comma-separated (each measured in turn on the same data). */
const queries = (arg('--query') ?? 'full').split(',');
const out = arg('--out');
const profiling = !process.argv.includes('--no-profile');
/** The list of queries measured this many times in turn (interleaved, so a change in the machine's load hits all). */
const rounds = Number(arg('--rounds') ?? 1);

const QUERIES: Record<string, { path: string; body?: unknown }> = {
  full: { path: '/graphql', body: { query: FEATURE_QUERY } },
  list: { path: '/graphql', body: { query: FEATURE_LIST_QUERY } },
  rest: { path: STATE_EXPORT_FEATURES },
};

/** Where a function's code lives, by its script URL. */
function area(url: string, fn: string): string {
  if (!url) return fn === '(garbage collector)' ? 'GC' : fn === '(program)' || fn === '(idle)' ? fn : 'native/builtin';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (m) {
    const [, pkg, rest] = m;
    if (pkg === 'graphql') {
      const dir = rest.split('/')[0];
      return `graphql-js ${dir === 'execution' || dir === 'validation' || dir === 'language' || dir === 'type' || dir === 'utilities' || dir === 'jsutils' ? dir : rest}`;
    }
    return pkg;
  }
  if (url.startsWith('node:')) return 'node internals';
  const src = /\/(src|bench)\/(.*)$/.exec(url);
  if (src) return `${src[1]}/${src[2].split('/').slice(0, -1).join('/') || src[2]}`;
  return url;
}

function summarize(profile: Profiler.Profile): void {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const { samples = [], timeDeltas = [] } = profile;
  for (let i = 0; i < samples.length; i++) self.set(samples[i], (self.get(samples[i]) ?? 0) + (timeDeltas[i] ?? 0));
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const { callFrame: f } = nodes.get(id)!;
    if (f.functionName === '(idle)') continue;
    total += us;
    const where = f.url ? `${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(src|bench)\//, '$1/')}:${f.lineNumber + 1}` : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const a = area(f.url, f.functionName);
    byArea.set(a, (byArea.get(a) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
  const ms = (us: number) => `${(us / 1000 / requests).toFixed(2).padStart(8)} ms/req`;
  console.log(`\nbusy (non-idle) samples: ${(total / 1000).toFixed(0)} ms over ${requests} requests (${(total / 1000 / requests).toFixed(1)} ms per request)`);
  console.log('\nself time by area:');
  for (const [a, us] of [...byArea].sort((x, y) => y[1] - x[1]).slice(0, 25)) console.log(`  ${pct(us)} ${ms(us)}  ${a}`);
  console.log(`\ntop ${top} functions by self time:`);
  for (const [f, us] of [...byFunction].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`  ${pct(us)} ${ms(us)}  ${f}`);
}

/** Warms up, then sends `requests` requests of one query (under the profiler unless --no-profile) and prints what it found. */
async function measure(base: string, which: string): Promise<void> {
  const request = QUERIES[which];
  if (!request) throw new Error(`--query: one of ${Object.keys(QUERIES).join(', ')}`);
  for (let i = 0; i < 10; i++) {
    const { payload } = await timedRequest(base, which, request, TOKEN);
    if (payload.includes('"errors"')) throw new Error(payload.toString().slice(0, 300));
  }
  const session = new Session();
  const post = <T>(method: string, params?: object) => new Promise<T>((resolve, reject) =>
    session.post(method, params, (err, result) => (err ? reject(err) : resolve(result as T))));
  if (profiling) {
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 100 });
    await post('Profiler.start');
  }
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < requests; i++) times.push((await timedRequest(base, which, request, TOKEN)).ms);
  const used = process.cpuUsage(cpu);
  const profile = profiling ? (await post<{ profile: Profiler.Profile }>('Profiler.stop')).profile : undefined;
  if (profiling) session.disconnect();
  times.sort((a, b) => a - b);
  console.log(`\n${which}: ${request.path}; ${requests} requests${profiling ? ' under the profiler' : ''}: p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, CPU of this process ${((used.user + used.system) / 1000 / requests).toFixed(1)} ms per request; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (profile) summarize(profile);
  if (out && profile) writeFileSync(`${out}.${which}.cpuprofile`, JSON.stringify(profile));
}

async function main(): Promise<void> {
  const graphqlCompiled = !process.argv.includes('--graphql-standard');
  const app = await startSeededApp(kind, pgBase, 'profile', TOKEN, { graphqlMaxCost: 10_000_000, graphqlCompiled });
  try {
    console.log(`${app.describe}; GraphQL ${graphqlCompiled ? 'compiled when hot' : 'standard executor only'}; ${FEATURES} features; node ${process.version}`);
    for (let round = 0; round < rounds; round++) for (const which of queries) await measure(app.base, which);
  } finally {
    await app.close();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
