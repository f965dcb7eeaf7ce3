/**
 * Latency of the feature-model read endpoints on the 1000-feature data set (bench/feature-model-data.ts), through the
 * real app over HTTP. Creates a throwaway database on the given PostgreSQL server, prints median and p99 per endpoint.
 * Usage: npm run bench:features [-- --pg postgresql://postgres@127.0.0.1:5432/postgres] [-- --requests 300]
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { buildApp } from '../src/app';
import { ensureAdminTokens } from '../src/domain/access/api-token.service';
import { openOrm } from '../src/db/orm';
import { createLogger } from '../src/logger';
import { FEATURES, PROJECT, featureName, seedFeatureModel } from './feature-model-data';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const pgBase = opt('--pg', process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const requests = Number(opt('--requests', '300'));
const TOKEN = '*:*.bench-feature-model-token';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main() {
  const dbName = `flagdeck_bench_${process.pid}_${Date.now()}`;
  const admin = new Client({ connectionString: pgBase });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = new URL(pgBase);
  url.pathname = `/${dbName}`;
  const orm = await openOrm({ url: url.toString(), poolMax: 10 });
  let server: Server | undefined;
  try {
    const db = new Client({ connectionString: url.toString() });
    await db.connect();
    const t0 = Date.now();
    await seedFeatureModel(db);
    const [{ count: eventCount }] = (await db.query('select count(*)::int as count from events')).rows;
    await db.end();
    await ensureAdminTokens(orm.em, [TOKEN]);
    const app = buildApp({ orm, logger: createLogger('silent') });
    server = await new Promise<Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    console.log(`seeded 1 project, 2 environments, 20 context fields, ${FEATURES} features (4 strategies each), ${eventCount} events in ${Date.now() - t0} ms`);
    console.log(`node ${process.version}; PostgreSQL at ${url.host}; ${requests} sequential requests per endpoint after 20 warm-up requests`);
    console.log('| endpoint                                         | median    | p99       | body      |');
    console.log('|--------------------------------------------------|-----------|-----------|-----------|');
    const endpoints: Array<[string, (i: number) => string]> = [
      ['GET /api/admin/context', () => '/api/admin/context'],
      [`GET /api/admin/projects/${PROJECT}/health-report`, () => `/api/admin/projects/${PROJECT}/health-report`],
      ['GET /api/admin/events/:feature', (i) => `/api/admin/events/${featureName((i * 7) % FEATURES)}`],
      [`GET /api/admin/projects/${PROJECT}/features`, () => `/api/admin/projects/${PROJECT}/features`],
      [`GET /api/admin/projects/${PROJECT}/features/:feature`, (i) => `/api/admin/projects/${PROJECT}/features/${featureName((i * 13) % FEATURES)}`],
    ];
    for (const [label, path] of endpoints) {
      const times: number[] = [];
      let bytes = 0;
      for (let i = -20; i < requests; i++) {
        const start = process.hrtime.bigint();
        const res = await fetch(base + path(i + 20), { headers: { authorization: TOKEN } });
        const body = await res.arrayBuffer();
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        if (res.status !== 200) throw new Error(`${label}: status ${res.status}`);
        if (i >= 0) { times.push(ms); bytes = body.byteLength; }
      }
      times.sort((a, b) => a - b);
      console.log(`| ${label.padEnd(48)} | ${percentile(times, 50).toFixed(2).padStart(6)} ms | ${percentile(times, 99).toFixed(2).padStart(6)} ms | ${(bytes / 1024).toFixed(0).padStart(6)} kB |`);
    }
  } finally {
    if (server) await new Promise((r) => server!.close(r));
    await orm.close(true);
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
