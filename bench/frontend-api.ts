/**
 * The frontend API on the 1000-feature data set (bench/feature-model-data.ts) through the real app over HTTP against
 * PostgreSQL: requests per second, median and p99 of `GET /api/frontend` (a full answer and a 304) and
 * `POST /api/frontend`, with 1 and 8 connections, each context different (a new userId and sessionId per request).
 * Usage: npm run bench:frontend [-- --pg postgresql://postgres@127.0.0.1:5432/postgres] [-- --seconds 3]
 */
import { Agent } from 'node:http';
import { createApiToken, percentile, send, startBenchApp, TOKEN } from './bench-app';
import { PROJECT } from './feature-model-data';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const pgBase = opt('--pg', process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const seconds = Number(opt('--seconds', '3'));

interface Shot { path: string; method?: string; body?: unknown; headers?: Record<string, string>; status: number }

/** `connections` loops, each sending one request after the other for `seconds`; prints one row. */
async function run(base: string, label: string, connections: number, shot: (i: number) => Shot): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const times: number[] = [];
  let bytes = 0;
  let n = 0;
  const loop = async (until: number, record: boolean) => {
    while (Date.now() < until) {
      const { path, method = 'GET', body, headers = {}, status } = shot(n++);
      const start = process.hrtime.bigint();
      const res = await send(agent, new URL(base + path), method,
        { authorization: frontendToken, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body === undefined ? undefined : JSON.stringify(body));
      if (res.status !== status) throw new Error(`${label}: status ${res.status} ${res.text}`);
      if (record) { times.push(Number(process.hrtime.bigint() - start) / 1e6); bytes = res.bytes; }
    }
  };
  await Promise.all(Array.from({ length: connections }, () => loop(Date.now() + 500, false)));
  const t0 = Date.now();
  await Promise.all(Array.from({ length: connections }, () => loop(t0 + seconds * 1000, true)));
  const elapsed = (Date.now() - t0) / 1000;
  agent.destroy();
  times.sort((a, b) => a - b);
  console.log(`| ${label.padEnd(44)} | ${String(connections).padStart(5)} | ${(times.length / elapsed).toFixed(0).padStart(7)} | ${percentile(times, 50).toFixed(2).padStart(7)} ms | ${percentile(times, 99).toFixed(2).padStart(7)} ms | ${(bytes / 1024).toFixed(1).padStart(6)} kB |`);
}

let frontendToken = '';

async function main() {
  const app = await startBenchApp(pgBase);
  try {
    console.log(app.describe);
    frontendToken = await createApiToken(app.base, 'bench-frontend', 'frontend', 'production', [PROJECT]);
    // Each of the 20 context fields gets a value that passes some of the data set's constraints (IN, STR_STARTS_WITH,
    // NUM_GT, SEMVER_GT), so a context enables a realistic share of the flags.
    const POOL = ['v1', 'v3', 'v5', 'pre0', 'pre1', 'pre2', '75', '99', '1.9.0', '2.0.0'];
    const fields = (i: number) => Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`field${k}`, POOL[(i * 7 + k * 3) % POOL.length]]));
    const query = (i: number) => `/api/frontend?appName=bench&userId=user-${i}&sessionId=s-${i}&${Object.entries(fields(i)).map(([k, v]) => `properties[${k}]=${v}`).join('&')}`;
    const first = await fetch(app.base + query(1), { headers: { authorization: frontendToken } });
    const etag = first.headers.get('etag')!;
    const enabled = ((await first.json()) as { toggles: unknown[] }).toggles.length;
    console.log(`node ${process.version}; ${seconds} s per row after 0.5 s of warm-up; a context answers ${enabled} enabled flags of 1000`);
    console.log('| request                                      | conns |   req/s | median     | p99        | body      |');
    console.log('|----------------------------------------------|-------|---------|------------|------------|-----------|');
    for (const connections of [1, 8]) {
      await run(app.base, 'GET /api/frontend (full answer)', connections, (i) => ({ path: query(i), status: 200 }));
      await run(app.base, 'GET /api/frontend (If-None-Match: 304)', connections, () => ({ path: query(1), headers: { 'if-none-match': etag }, status: 304 }));
      await run(app.base, 'POST /api/frontend (full answer)', connections, (i) => ({
        path: '/api/frontend', method: 'POST', status: 200,
        body: { context: { appName: 'bench', userId: `user-${i}`, sessionId: `s-${i}`, properties: fields(i) } },
      }));
    }
  } finally {
    await app.close();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
