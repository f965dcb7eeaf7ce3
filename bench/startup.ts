/**
 * Cold start to first answer and RSS after start, of what `npm start` runs (`node <options> scripts/start.js`: dist/ when the
 * build is current, as after `npm install`, else the sources through tsx), or with `--sources` of the sources through
 * tsx whatever the build (what `npm start` runs after an edit, or after `npm ci --omit=dev`). Prints a table.
 * Usage: npm run bench:startup [-- --runs 3] [-- --sources] [-- --pg postgresql://postgres@127.0.0.1:5432/postgres]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startArguments } from './start-command';

const ROOT = path.resolve(__dirname, '..');
const SOURCES = process.argv.includes('--sources');
const ENTRY = startArguments();
const TOKEN = '*:*.bench-startup-token';
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 3;
const pgBase = args.includes('--pg') ? args[args.indexOf('--pg') + 1] : 'postgresql://postgres@127.0.0.1:5432/postgres';

interface Sample { ms: number; rssMb: number }

async function once(env: Record<string, string>): Promise<Sample> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, ENTRY, { cwd: ROOT, env: { ...process.env, ...(SOURCES ? { FLAGDECK_RUN_SOURCES: '1' } : {}), ...env, PORT: String(port), LOG_LEVEL: 'warn', INIT_ADMIN_API_TOKENS: TOKEN }, stdio: 'ignore' });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/admin/tags`, { headers: { authorization: TOKEN } });
        if (res.status === 200) break;
      } catch { /* not listening yet */ }
      await new Promise((r) => setTimeout(r, 10));
    }
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    await new Promise((r) => setTimeout(r, 300));
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;
    return { ms, rssMb: rss };
  } finally {
    await new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.kill('SIGTERM'); });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const row = (name: string, s: Sample[]) =>
  console.log(`| ${name.padEnd(40)} | ${median(s.map((x) => x.ms)).toFixed(0).padStart(6)} ms | ${Math.min(...s.map((x) => x.ms)).toFixed(0).padStart(6)} ms | ${median(s.map((x) => x.rssMb)).toFixed(0).padStart(5)} MB |`);

async function main() {
  console.log(`node ${process.version}, ${runs} runs each, node ${ENTRY.join(' ')} (npm start)${SOURCES ? ' with FLAGDECK_RUN_SOURCES=1 (the sources through tsx)' : ''}; time = process spawn until GET /api/admin/tags answers 200`);
  console.log('| case                                     | median    | best      | RSS   |');
  console.log('|------------------------------------------|-----------|-----------|-------|');
  const fresh: Sample[] = [];
  const existing: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(path.join(tmpdir(), 'flagdeck-bench-'));
    try {
      fresh.push(await once({ DATA_DIR: dir }));
      existing.push(await once({ DATA_DIR: dir }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  row('embedded, new data folder', fresh);
  row('embedded, existing data folder', existing);

  const admin = new Client({ connectionString: pgBase });
  await admin.connect();
  const pgFresh: Sample[] = [];
  const pgExisting: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    const name = `flagdeck_bench_${process.pid}_${i}`;
    await admin.query(`create database ${name}`);
    const url = new URL(pgBase);
    url.pathname = `/${name}`;
    try {
      pgFresh.push(await once({ DATABASE_URL: url.toString() }));
      pgExisting.push(await once({ DATABASE_URL: url.toString() }));
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
    }
  }
  await admin.end();
  row('PostgreSQL, new database (migrations)', pgFresh);
  row('PostgreSQL, existing database', pgExisting);
}

main().catch((err) => { console.error(err); process.exit(1); });
