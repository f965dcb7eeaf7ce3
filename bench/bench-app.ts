/** A throwaway PostgreSQL database seeded with the feature-model data set, served by the real app on a free port. */
import { mkdtempSync, rmSync } from 'node:fs';
import { request, type Agent, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { buildApp, type AppDeps } from '../src/app';
import { startEmbeddedDatabase } from '../src/db/embedded';
import { ensureAdminTokens } from '../src/domain/access/api-token.service';
import { EventHub } from '../src/domain/events/event-hub';
import { listenForEvents } from '../src/domain/events/event-listener';
import { openOrm } from '../src/db/orm';
import { createLogger } from '../src/logger';
import { FEATURES, PROJECT, seedFeatureModel } from './feature-model-data';
import { percentile } from './figures';

export const TOKEN = '*:*.bench-feature-model-token';

export interface BenchApp {
  base: string;
  describe: string;
  /** The app's database (for a bench to read what it wrote), and its URL. */
  orm: MikroORM;
  url: string;
  close(): Promise<void>;
}

/** What a bench may set on the app (`app`, over the defaults) and a hook seeing every SQL statement the app runs. */
export interface BenchAppOptions {
  app?: Partial<Omit<AppDeps, 'orm' | 'logger'>>;
  onQuery?: (sql: string) => void;
}

export async function startBenchApp(pgBase: string, options: BenchAppOptions = {}): Promise<BenchApp> {
  const dbName = `flagdeck_bench_${process.pid}_${Date.now()}`;
  const admin = new Client({ connectionString: pgBase });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = new URL(pgBase);
  url.pathname = `/${dbName}`;
  const orm = await openOrm({ url: url.toString(), poolMax: 10, onQuery: options.onQuery });
  const db = new Client({ connectionString: url.toString() });
  await db.connect();
  const t0 = Date.now();
  await seedFeatureModel(db);
  const [{ count: eventCount }] = (await db.query('select count(*)::int as count from events')).rows;
  await db.end();
  await ensureAdminTokens(orm.em, [TOKEN]);
  // As src/server.ts runs on PostgreSQL: commits announced by NOTIFY, one listener connection per instance.
  const logger = createLogger((process.env.BENCH_LOG as 'warn' | undefined) ?? 'silent'); // BENCH_LOG=warn shows the app's warnings
  const eventHub = options.app?.eventHub ?? new EventHub('notify');
  const listener = eventHub.mode === 'notify' ? listenForEvents(orm, url.toString(), eventHub, logger) : undefined;
  await listener?.ready;
  const app = buildApp({ ...options.app, eventHub, orm, logger });
  const server = await new Promise<Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    describe: `seeded 1 project, 2 environments, 20 context fields, ${FEATURES} features (4 strategies each), ${eventCount} events in ${Date.now() - t0} ms; PostgreSQL at ${url.host}`,
    orm,
    url: url.toString(),
    async close() {
      await new Promise((r) => server.close(r));
      await app.close(); // buffered SDK metrics are written, as src/server.ts does
      eventHub.close();
      await listener?.stop();
      await orm.close(true);
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    },
  };
}

export { percentile };

/**
 * One request as the benches send it (GET, or POST of a JSON body, with `token`): its time in ms and its body. Anything
 * but a 200 throws, naming `label`.
 */
export async function timedRequest(base: string, label: string, { path, body }: { path: string; body?: unknown }, token = TOKEN): Promise<{ ms: number; payload: Buffer }> {
  const start = process.hrtime.bigint();
  const res = await fetch(base + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = Buffer.from(await res.arrayBuffer());
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (res.status !== 200) throw new Error(`${label}: status ${res.status} ${payload.toString().slice(0, 300)}`);
  return { ms, payload };
}

/** Sends `requests` sequential requests after 20 warm-up ones; prints one table row with median, p99 and body size. */
export async function measure(base: string, label: string, requests: number, request: (i: number) => { path: string; body?: unknown }): Promise<void> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = -20; i < requests; i++) {
    const { ms, payload } = await timedRequest(base, label, request(i + 20));
    if (i >= 0) { times.push(ms); bytes = payload.byteLength; }
  }
  times.sort((a, b) => a - b);
  console.log(`| ${label.padEnd(52)} | ${percentile(times, 50).toFixed(2).padStart(7)} ms | ${percentile(times, 99).toFixed(2).padStart(7)} ms | ${(bytes / 1024).toFixed(0).padStart(6)} kB |`);
}

export function tableHeader(requests: number): void {
  console.log(`node ${process.version}; ${requests} sequential requests per endpoint after 20 warm-up requests`);
  console.log('| endpoint                                             | median     | p99        | body      |');
  console.log('|------------------------------------------------------|------------|------------|-----------|');
}

/**
 * An empty database for a bench: a throwaway database on the PostgreSQL server at `pgBase` (dropped by `close`), or,
 * without one, the embedded database: in memory, or with `embeddedFolder` in a throwaway data folder (as `npm start`
 * runs it, the folder removed by `close`).
 */
export async function benchDatabase(pgBase: string | undefined, name: string, embeddedFolder = false): Promise<{ url: string; describe: string; wasmMemoryBytes?: () => number; close: () => Promise<void> }> {
  if (pgBase) {
    const dbName = `flagdeck_bench_${name}_${process.pid}`;
    const admin = new Client({ connectionString: pgBase });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    const u = new URL(pgBase);
    u.pathname = `/${dbName}`;
    return { url: u.toString(), describe: `PostgreSQL at ${u.host}`, close: async () => { await admin.query(`drop database if exists ${dbName} with (force)`); await admin.end(); } };
  }
  if (embeddedFolder) {
    const folder = mkdtempSync(path.join(tmpdir(), `flagdeck-bench-${name}-`));
    const embedded = await startEmbeddedDatabase(folder);
    return {
      url: embedded.url, describe: `embedded PGlite (data folder ${folder})`, wasmMemoryBytes: embedded.wasmMemoryBytes,
      close: async () => { await embedded.stop(); rmSync(folder, { recursive: true, force: true }); },
    };
  }
  const embedded = await startEmbeddedDatabase();
  return { url: embedded.url, describe: 'embedded PGlite (in memory)', wasmMemoryBytes: embedded.wasmMemoryBytes, close: () => embedded.stop() };
}

/** Creates an API token through the admin API (as the admin bench token) and returns its secret. */
export async function createApiToken(base: string, tokenName: string, type: 'client' | 'frontend' | 'admin', environment: string, projects: string[]): Promise<string> {
  const res = await fetch(`${base}/api/admin/api-tokens`, {
    method: 'POST', headers: { authorization: TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({ tokenName, type, environment, projects }),
  });
  if (res.status !== 201) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { secret: string }).secret;
}

/** The feature-model app on either database, as bench:reads and the GraphQL profile run it. */
export interface SeededApp {
  base: string;
  describe: string;
  /** PGlite's WebAssembly memory (embedded database only). */
  wasmMemoryBytes?: () => number;
  close(): Promise<void>;
}

/**
 * A throwaway database (PostgreSQL at `pgBase`, or the embedded one: in a throwaway data folder as `npm start` runs it,
 * or in memory with `embeddedInMemory`) migrated, seeded with the feature-model
 * data set and vacuumed and analysed as autovacuum would, served by the real app on a free port with `token` as an
 * admin token and `app` over the defaults.
 */
/**
 * Migrates the database at `url` (the ORM), then seeds the feature-model data set over a separate connection while the
 * ORM holds none (the embedded database serves one); `more` adds to it on the same connection before the vacuum.
 */
export async function migrateAndSeed(url: string, more?: (seed: Client) => Promise<void>): Promise<void> {
  const migrate = await openOrm({ url, poolMax: 1 });
  await migrate.close(true);
  const seed = new Client({ connectionString: url });
  await seed.connect();
  try {
    await seedFeatureModel(seed);
    await more?.(seed);
    // What autovacuum does on a running PostgreSQL (statistics and the visibility map for index-only scans).
    await seed.query('vacuum analyze');
  } finally {
    await seed.end();
  }
}

/** Fills the audit log up to `total` events (feature updates of the data set's features, one a second back in time). */
export async function fillEvents(seed: Client, total: number): Promise<void> {
  const [{ n }] = (await seed.query('select count(*)::int as n from events')).rows;
  await seed.query(`insert into events (type, created_by, project, feature_name, data, created_at)
    select 'feature-updated', 'bench', $1, 'feature-' || lpad((g % 1000)::text, 4, '0'), jsonb_build_object('n', g, 'description', repeat('x', 40)), now() - (g || ' seconds')::interval
      from generate_series(1, $2::int) g`, [PROJECT, Math.max(0, total - n)]);
}

export async function startSeededApp(kind: 'pg' | 'embedded', pgBase: string, name: string, token: string, app: Partial<Omit<AppDeps, 'orm' | 'logger'>> = {}, embeddedInMemory = false): Promise<SeededApp> {
  const db = await benchDatabase(kind === 'pg' ? pgBase : undefined, name, !embeddedInMemory);
  try {
    await migrateAndSeed(db.url);
    const orm = await openOrm({ url: db.url, poolMax: kind === 'pg' ? 10 : 1, holdConnection: kind === 'embedded' });
    await ensureAdminTokens(orm.em, [token]);
    const server = buildApp({ ...app, orm, logger: createLogger('silent') });
    const listening = await new Promise<Server>((resolve) => { const s = server.listen(0, '127.0.0.1', () => resolve(s)); });
    return {
      base: `http://127.0.0.1:${(listening.address() as AddressInfo).port}`,
      describe: db.describe,
      wasmMemoryBytes: db.wasmMemoryBytes,
      async close() {
        await new Promise((resolve) => listening.close(resolve));
        await server.close();
        await orm.close(true);
        await db.close();
      },
    };
  } catch (err) {
    await db.close();
    throw err;
  }
}

/**
 * Serves `orm` as src/server.ts runs the app: on PostgreSQL, commits announced by NOTIFY with one listener connection;
 * on the embedded database, a hub in the process. `close` stops the server, the app, the hub and the listener (the
 * ORM and the database are the caller's).
 */
export async function serveAsServer(orm: MikroORM, url: string, kind: 'pg' | 'embedded'): Promise<{ base: string; close(): Promise<void> }> {
  const logger = createLogger('silent');
  const eventHub = new EventHub(kind === 'pg' ? 'notify' : 'local');
  const listener = kind === 'pg' ? listenForEvents(orm, url, eventHub, logger) : undefined;
  await listener?.ready;
  const app = buildApp({ orm, logger, eventHub });
  const server = await new Promise<Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise((r) => server.close(r));
      await app.close();
      eventHub.close();
      await listener?.stop();
    },
  };
}

/** One request over a kept-alive connection of `agent`: its status, body size, and the start of a body that is no 200/304. */
export function send(agent: Agent, url: URL, method: string, headers: Record<string, string>, body: string | undefined): Promise<{ status: number; bytes: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const all = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, bytes: all.length, text: res.statusCode === 200 || res.statusCode === 304 ? '' : all.toString().slice(0, 300) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Makes `dir` an embedded data folder holding the feature-model data set (`more` adds to it), then closes it. */
export async function seedEmbeddedFolder(dir: string, more?: (seed: Client) => Promise<void>): Promise<void> {
  const db = await startEmbeddedDatabase(dir);
  try {
    await migrateAndSeed(db.url, more);
  } finally {
    await db.stop();
  }
}
