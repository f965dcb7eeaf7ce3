/**
 * The write path of two checkouts, paired (issue 43: "with versions on against before"): bench/writes.ts's sequence
 * (create flag → add a flexibleRollout with 2 constraints in production → enable in production) against the app of
 * each checkout, each in its own process on its own fresh database seeded alike (bench/writes-serve.ts), alternately
 * in the order A B B A, by one client. Run one after the other, the two sides differ by what else the machine did
 * meanwhile (on a shared 2-core VM, up to 30% between runs of the same code); alternated sequence by sequence, they
 * see the same machine, and a per-sequence difference between neighbours cancels the drift.
 *
 * Prints per step the p50 / p99 ms of each side and the ratio of the p50s, the median of the paired differences of
 * the whole sequence, and each app's process CPU per sequence (on the embedded database it includes PGlite's).
 *
 * Usage: npm run bench:writes-ab -- --before DIR [--after DIR] [--db embedded|pg] [--sequences 600]
 *          [--pg postgresql://postgres@127.0.0.1:5432/postgres]
 *   --before   a checkout to compare against, its dependencies installed (e.g. `git worktree add /tmp/before 275fb8e`
 *              and a symlink to this checkout's node_modules when the lock file did not change)
 *   --after    the other checkout (default: this one)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { percentile } from './bench-app';
import { requestsOf, STEPS } from './writes-sequence';

const args = process.argv.slice(2);
const opt = (name: string, fallback?: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const before = opt('--before');
const after = opt('--after', path.resolve(__dirname, '..'))!;
const kind = opt('--db', 'embedded') as 'pg' | 'embedded';
const pgBase = opt('--pg', process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres')!;
const sequences = Number(opt('--sequences', '600'));
const TOKEN = '*:*.bench-writes-ab-admin-token';
const WARMUP = 20;

interface Side { name: string; child: ChildProcess; base: string; agent: http.Agent; times: number[][] }

/** Starts the app of checkout `root` (writes-serve.ts, under this process's tsx loader) and waits for its address. */
function serve(name: string, root: string): Promise<Side> {
  const child = spawn(process.execPath, [...process.execArgv, path.join(__dirname, 'writes-serve.ts'), '--root', root, '--db', kind, '--pg', pgBase, '--token', TOKEN],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { base: string; describe: string }) => {
      console.log(`# ${name}: ${root} on ${m.describe}`);
      resolve({ name, child, base: m.base, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }), times: [] });
    });
    child.once('exit', (code) => reject(new Error(`${name}: the server exited with ${code}`)));
  });
}

const cpuOf = (side: Side) => new Promise<number>((resolve) => {
  side.child.once('message', (m: { cpuMs: number }) => resolve(m.cpuMs));
  side.child.send('cpu');
});

/** One request, timed from its first byte sent to its last byte received. */
function send(side: Side, r: ReturnType<typeof requestsOf>[number]): Promise<number> {
  const url = new URL(side.base);
  const body = r.body === undefined ? '' : JSON.stringify(r.body);
  const headers = { authorization: TOKEN, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const req = http.request({ host: url.hostname, port: url.port, path: r.path, method: 'POST', agent: side.agent, headers }, (res) => {
      let text = '';
      res.on('data', (c) => { text += c; });
      res.on('end', () => (r.expect.includes(res.statusCode!) ? resolve(Number(process.hrtime.bigint() - start) / 1e6)
        : reject(new Error(`${side.name}: POST ${r.path}: ${res.statusCode} ${text.slice(0, 300)}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function sequence(side: Side, name: string): Promise<number[]> {
  const steps: number[] = [];
  for (const r of requestsOf(name)) steps.push(await send(side, r));
  return steps;
}

async function main(): Promise<void> {
  if (!before) throw new Error('--before DIR is required');
  console.log(`# write path, paired: create flag → add flexibleRollout (2 constraints) in production → enable in production; one client, sides alternated A B B A`);
  const a = await serve('before', before);
  const b = await serve('after', after);
  try {
    for (let i = 0; i < WARMUP; i++) { await sequence(a, `warm-${i}`); await sequence(b, `warm-${i}`); }
    const cpu0 = [await cpuOf(a), await cpuOf(b)];
    for (let i = 0; i < sequences; i++) {
      const order = i % 2 === 0 ? [a, b] : [b, a];
      for (const side of order) side.times.push(await sequence(side, `ab-${i}`));
    }
    const cpu = [(await cpuOf(a)) - cpu0[0], (await cpuOf(b)) - cpu0[1]];
    console.log(`\n${sequences} sequences per side after ${WARMUP} warm-up ones; loadavg ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
    console.log('| step | before p50 / p99 ms | after p50 / p99 ms | after / before (p50) |\n|---|---|---|---|');
    const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
    const stepTimes = (side: Side, s: number) => sorted(side.times.map((t) => t[s]));
    const total = (t: number[]) => t.reduce((x, y) => x + y, 0);
    for (const [s, step] of STEPS.entries()) {
      const [x, y] = [stepTimes(a, s), stepTimes(b, s)];
      console.log(`| ${step} | ${percentile(x, 50).toFixed(2)} / ${percentile(x, 99).toFixed(2)} | ${percentile(y, 50).toFixed(2)} / ${percentile(y, 99).toFixed(2)} | ${(percentile(y, 50) / percentile(x, 50)).toFixed(3)} |`);
    }
    const [ta, tb] = [sorted(a.times.map(total)), sorted(b.times.map(total))];
    console.log(`| whole sequence | ${percentile(ta, 50).toFixed(2)} / ${percentile(ta, 99).toFixed(2)} | ${percentile(tb, 50).toFixed(2)} / ${percentile(tb, 99).toFixed(2)} | ${(percentile(tb, 50) / percentile(ta, 50)).toFixed(3)} |`);
    const diffs = sorted(a.times.map((t, i) => total(b.times[i]) - total(t)));
    console.log(`\nPaired difference of the whole sequence (after − before, sequence by sequence): median ${percentile(diffs, 50).toFixed(2)} ms`
      + ` (${((100 * percentile(diffs, 50)) / percentile(ta, 50)).toFixed(1)}% of before's p50); CPU ms per sequence: before ${(cpu[0] / sequences).toFixed(2)}, after ${(cpu[1] / sequences).toFixed(2)}`
      + ` (${((100 * (cpu[1] - cpu[0])) / cpu[0]).toFixed(1)}%)`);
  } finally {
    for (const side of [a, b]) { side.agent.destroy(); side.child.send('stop'); }
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
